import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { type Acting, type AuditEntry, recordAudit } from '../../platform/audit.js'
import type { Clock, Ids } from '../../platform/clock.js'
import type { SecretBox } from '../../platform/crypto.js'
import type { Database } from '../../platform/db/index.js'
import { ApiError, type FieldErrors } from '../../platform/http/errors.js'
import { type PageOf, type Paging, pageOf } from '../../platform/http/paging.js'
import type { Outbox } from '../../platform/mail.js'
import type { OutboundClient } from '../../platform/outbound/types.js'
import { type ChannelType, PREVIOUS_SECRET_HOURS } from './constants.js'
import type { ChannelRecord, CreateChannelRequest, CreatedChannel, PatchChannelRequest } from './schemas.js'
import {
  CHANNEL_PREVIOUS_SECRET,
  CHANNEL_SECRET,
  CHANNEL_URL,
  type ChannelChanges,
  type ChannelRow,
  type ChannelStore,
} from './store.js'
import type { ChannelDirectory, ChannelTarget } from './target.js'

/** The channel types that send to a URL; Email sends through the outbox. */
const URL_TYPES: ReadonlySet<ChannelType> = new Set(['Slack', 'Teams', 'Webhook'])
/** Bytes of a new signing secret (Standard Webhooks allows 24 to 64). */
const SECRET_BYTES = 32
/** A disable reason comes from a receiver's answer: kept to a sentence. */
const MAX_REASON_LENGTH = 500
/** Who disables a channel that cannot be delivered to, in the audit log. */
const DELIVERY_ACTOR: Acting = { actor: { type: 'System', id: null, name: 'notification delivery' }, origin: 'system' }

/** A user as an e-mail channel or an owner's notice needs them. */
export interface Contact {
  id: string
  email: string
  isOwner: boolean
  isDisabled: boolean
  status: string
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`
}

/**
 * Office 365 connectors (`https://<tenant>.webhook.office.com/webhookb2/...`, and the older
 * `outlook.office.com/webhook/...`) are retired: Teams takes Workflows webhooks now.
 */
function isRetiredTeamsConnector(url: URL): boolean {
  const host = url.hostname.toLowerCase()
  return (
    ((host === 'webhook.office.com' || host.endsWith('.webhook.office.com')) &&
      url.pathname.startsWith('/webhookb2/')) ||
    ((host === 'outlook.office.com' || host === 'outlook.office365.com') && url.pathname.startsWith('/webhook/'))
  )
}

/** Addresses once each, whatever their letter case, in the order given. */
function distinctAddresses(addresses: string[]): string[] {
  const seen = new Set<string>()
  return addresses.filter((a) => {
    const key = a.toLowerCase()
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

const jsonList = (text: string | null): string[] => (text ? (JSON.parse(text) as string[]) : [])

/**
 * Notification channels: owners create, change, rotate and delete them (each change audited without a secret);
 * deliveries read them unsealed through `target` and disable them when a receiver is gone.
 */
export function createChannelService(deps: {
  store: ChannelStore
  secrets: SecretBox
  /** The outbound guard's form check of a URL (`refusalOf`): a channel it refuses is a 400 at once. */
  outbound: Pick<OutboundClient, 'refusalOf'>
  outbox: Pick<Outbox, 'queue' | 'announce'>
  clock: Clock
  ids: Ids
  /** Base of links in e-mails (COSTWATCH_PUBLIC_URL). */
  publicUrl: string
  /** Users of the organisation: those of `userIds`, or its owners (the users store's `contacts`). */
  contacts(organisationId: string, which: { userIds: string[] } | { owners: true }): Promise<Contact[]>
  organisationName(organisationId: string): Promise<string | null>
}): ChannelService {
  const { store, secrets, clock, ids } = deps
  const audit = (trx: Kysely<Database>, entry: Omit<AuditEntry, 'target'> & { channelId: string }) => {
    const { channelId, ...rest } = entry
    return recordAudit(trx, ids, { ...rest, target: { type: 'NotificationChannel', id: channelId } })
  }

  const open = (row: ChannelRow, column: typeof CHANNEL_URL, sealed: string | null) =>
    sealed === null ? null : secrets.open(sealed, column.purpose(row.id))

  function recordOf(row: ChannelRow): ChannelRecord {
    const url = open(row, CHANNEL_URL, row.urlSealed)
    const now = clock.now().toISOString()
    return {
      id: row.id,
      name: row.name,
      type: row.type as ChannelType,
      enabled: row.enabled === 1,
      disabledReason: row.disabledReason,
      hasSecret: row.secretSealed !== null,
      urlHost: url === null ? null : new URL(url).host,
      emails: row.type === 'Email' ? jsonList(row.emails) : null,
      userIds: row.type === 'Email' ? jsonList(row.userIds) : null,
      previousSecretUntil:
        row.previousSecretSealed !== null && row.previousSecretUntil !== null && row.previousSecretUntil > now
          ? row.previousSecretUntil
          : null,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }
  }

  /** Why a channel of `type` may not send to `url` (the guard's form check, retired Teams connectors), or null. */
  function urlProblem(type: ChannelType, url: string): string | null {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return 'must be an absolute URL (https://...)'
    }
    const refusal = deps.outbound.refusalOf(parsed.href)
    if (refusal) return refusal
    if (type === 'Teams' && isRetiredTeamsConnector(parsed)) {
      return (
        'is an Office 365 connector URL, which Microsoft has retired: in Teams, add the Workflows template ' +
        '"Post to a channel when a webhook request is received" and give the URL it shows'
      )
    }
    return null
  }

  /** The users of `userIds` that are not users of the organisation, each named in `errors.userIds`. */
  async function checkUsers(organisationId: string, userIds: string[], errors: FieldErrors) {
    if (userIds.length === 0) return
    const known = new Set((await deps.contacts(organisationId, { userIds })).map((u) => u.id))
    const unknown = userIds.filter((id) => !known.has(id))
    if (unknown.length) errors.userIds = unknown.map((id) => `${id} is not a user of this organisation`)
  }

  async function owned(organisationId: string, channelId: string): Promise<ChannelRow> {
    const row = await store.get(organisationId, channelId)
    if (!row) throw ApiError.notFound(`Notification channel ${channelId}`)
    return row
  }

  const changedMeanwhile = (channelId: string) =>
    ApiError.conflict(`Notification channel ${channelId} changed while this request ran; read it again and retry.`)

  return {
    async create(organisationId: string, by: Acting, input: CreateChannelRequest): Promise<CreatedChannel> {
      const errors: FieldErrors = {}
      const name = input.name.trim()
      if (name === '') errors.name = ['must not be blank']
      const type = input.type
      let url: string | null = null
      if (URL_TYPES.has(type)) {
        if (input.url === undefined) errors.url = [`is required for a ${type} channel`]
        else {
          const problem = urlProblem(type, input.url)
          if (problem) errors.url = [problem]
          else url = new URL(input.url).href
        }
        if (input.emails !== undefined) errors.emails = ['only Email channels take addresses']
        if (input.userIds !== undefined) errors.userIds = ['only Email channels take users']
      } else {
        if (input.url !== undefined) errors.url = ['Email channels take no url: give emails and/or userIds']
        if ((input.emails?.length ?? 0) + (input.userIds?.length ?? 0) === 0)
          errors.emails = ['an Email channel needs at least one recipient: an address in emails or a user in userIds']
        else await checkUsers(organisationId, input.userIds ?? [], errors)
      }
      if (Object.keys(errors).length) throw ApiError.invalid(errors)

      const id = ids.uuid()
      const now = clock.now().toISOString()
      const secret = type === 'Webhook' ? newWebhookSecret() : null
      const row: ChannelRow = {
        id,
        organisationId,
        name,
        type,
        enabled: 1,
        disabledReason: null,
        urlSealed: url === null ? null : secrets.seal(url, CHANNEL_URL.purpose(id)),
        emails: type === 'Email' ? JSON.stringify(distinctAddresses(input.emails ?? [])) : null,
        userIds: type === 'Email' ? JSON.stringify(input.userIds ?? []) : null,
        secretSealed: secret === null ? null : secrets.seal(secret, CHANNEL_SECRET.purpose(id)),
        previousSecretSealed: null,
        previousSecretUntil: null,
        createdAt: now,
        updatedAt: now,
      }
      await store.insert(row, (trx) =>
        audit(trx, {
          organisationId,
          at: now,
          by,
          action: 'notificationChannel.created',
          channelId: id,
          detail: { name, type, urlHost: url === null ? null : new URL(url).host },
        }),
      )
      return secret === null ? recordOf(row) : { ...recordOf(row), secret }
    },

    async list(organisationId: string, paging: Paging): Promise<PageOf<ChannelRecord>> {
      const { items, totalCount } = await store.list(organisationId, paging)
      return pageOf(items.map(recordOf), totalCount, paging)
    },

    async get(organisationId: string, channelId: string): Promise<ChannelRecord> {
      return recordOf(await owned(organisationId, channelId))
    },

    /** Absent fields are unchanged; `enabled: true` clears `disabledReason`. Audited with the fields changed. */
    async update(
      organisationId: string,
      by: Acting,
      channelId: string,
      patch: PatchChannelRequest,
    ): Promise<ChannelRecord> {
      const row = await owned(organisationId, channelId)
      const type = row.type as ChannelType
      const errors: FieldErrors = {}
      const changes: ChannelChanges = {}
      const changed: string[] = []
      if (patch.name !== undefined) {
        const name = patch.name.trim()
        if (name === '') errors.name = ['must not be blank']
        else if (name !== row.name) {
          changes.name = name
          changed.push('name')
        }
      }
      if (patch.url !== undefined) {
        if (!URL_TYPES.has(type)) errors.url = ['Email channels take no url: give emails and/or userIds']
        else {
          const problem = urlProblem(type, patch.url)
          if (problem) errors.url = [problem]
          else {
            const url = new URL(patch.url).href
            if (url !== open(row, CHANNEL_URL, row.urlSealed)) {
              changes.urlSealed = secrets.seal(url, CHANNEL_URL.purpose(row.id))
              changed.push('url')
            }
          }
        }
      }
      if (patch.emails !== undefined || patch.userIds !== undefined) {
        if (type !== 'Email') {
          if (patch.emails !== undefined) errors.emails = ['only Email channels take addresses']
          if (patch.userIds !== undefined) errors.userIds = ['only Email channels take users']
        } else {
          const emails = patch.emails === undefined ? jsonList(row.emails) : distinctAddresses(patch.emails)
          const userIds = patch.userIds ?? jsonList(row.userIds)
          if (emails.length + userIds.length === 0) {
            errors[patch.emails === undefined ? 'userIds' : 'emails'] = [
              'an Email channel needs at least one recipient: an address in emails or a user in userIds',
            ]
          } else if (patch.userIds !== undefined) await checkUsers(organisationId, patch.userIds, errors)
          if (JSON.stringify(emails) !== (row.emails ?? '[]')) {
            changes.emails = JSON.stringify(emails)
            changed.push('emails')
          }
          if (JSON.stringify(userIds) !== (row.userIds ?? '[]')) {
            changes.userIds = JSON.stringify(userIds)
            changed.push('userIds')
          }
        }
      }
      if (patch.enabled !== undefined && (patch.enabled !== (row.enabled === 1) || row.disabledReason !== null)) {
        // Enabled or disabled by a person: no reason of the system's is left.
        changes.enabled = patch.enabled ? 1 : 0
        changes.disabledReason = null
        if (patch.enabled !== (row.enabled === 1)) changed.push('enabled')
      }
      if (Object.keys(errors).length) throw ApiError.invalid(errors)
      if (Object.keys(changes).length === 0) return recordOf(row)

      const now = clock.now().toISOString()
      const name = changes.name ?? row.name
      const done = await store.update(
        row.id,
        { updatedAt: row.updatedAt, enabled: row.enabled, urlSealed: row.urlSealed },
        { ...changes, updatedAt: now },
        (trx) =>
          audit(trx, {
            organisationId,
            at: now,
            by,
            action: 'notificationChannel.updated',
            channelId: row.id,
            detail: {
              name,
              changed: changed.join(', ') || null,
              ...(changes.enabled === undefined ? {} : { enabled: changes.enabled === 1 }),
            },
          }),
      )
      if (!done) throw changedMeanwhile(row.id)
      return recordOf((await store.get(organisationId, row.id)) ?? { ...row, ...changes, updatedAt: now })
    },

    /** Removes the channel with its deliveries. */
    async delete(organisationId: string, by: Acting, channelId: string): Promise<void> {
      const row = await owned(organisationId, channelId)
      const done = await store.delete(row.id, (trx) =>
        audit(trx, {
          organisationId,
          at: clock.now().toISOString(),
          by,
          action: 'notificationChannel.deleted',
          channelId: row.id,
          detail: { name: row.name, type: row.type },
        }),
      )
      if (!done) throw ApiError.notFound(`Notification channel ${channelId}`)
    },

    /**
     * A new signing secret for a Webhook channel, answered once; the one it replaces keeps signing beside it for
     * 24 hours. A secret replaced earlier than that (a second rotation within the window) stops signing at once.
     */
    async rotateSecret(
      organisationId: string,
      by: Acting,
      channelId: string,
    ): Promise<{ secret: string; previousSecretUntil: string }> {
      const row = await owned(organisationId, channelId)
      if (row.type !== 'Webhook') {
        throw ApiError.conflict(
          `Notification channel ${channelId} is a ${row.type} channel: only Webhook channels have a signing secret.`,
        )
      }
      const now = clock.now()
      const previous = open(row, CHANNEL_SECRET, row.secretSealed)
      const secret = newWebhookSecret()
      const previousSecretUntil = new Date(now.getTime() + PREVIOUS_SECRET_HOURS * 3_600_000).toISOString()
      const done = await store.update(
        row.id,
        { secretSealed: row.secretSealed },
        {
          secretSealed: secrets.seal(secret, CHANNEL_SECRET.purpose(row.id)),
          previousSecretSealed:
            previous === null ? null : secrets.seal(previous, CHANNEL_PREVIOUS_SECRET.purpose(row.id)),
          previousSecretUntil: previous === null ? null : previousSecretUntil,
          updatedAt: now.toISOString(),
        },
        (trx) =>
          audit(trx, {
            organisationId,
            at: now.toISOString(),
            by,
            action: 'notificationChannel.secretRotated',
            channelId: row.id,
            detail: { name: row.name, previousSecretUntil },
          }),
      )
      if (!done) throw changedMeanwhile(row.id)
      return { secret, previousSecretUntil }
    },

    async target(channelId: string): Promise<ChannelTarget | null> {
      const row = await store.byId(channelId)
      if (!row) return null
      const now = clock.now().toISOString()
      const live = [open(row, CHANNEL_SECRET, row.secretSealed)]
      if (row.previousSecretUntil !== null && row.previousSecretUntil > now)
        live.push(open(row, CHANNEL_PREVIOUS_SECRET, row.previousSecretSealed))
      let emails: string[] = []
      if (row.type === 'Email') {
        const userIds = jsonList(row.userIds)
        const users = userIds.length ? await deps.contacts(row.organisationId, { userIds }) : []
        emails = distinctAddresses([...jsonList(row.emails), ...users.filter((u) => !u.isDisabled).map((u) => u.email)])
      }
      return {
        id: row.id,
        organisationId: row.organisationId,
        name: row.name,
        type: row.type as ChannelType,
        enabled: row.enabled === 1,
        url: open(row, CHANNEL_URL, row.urlSealed),
        secrets: live.filter((s): s is string => s !== null),
        emails,
      }
    },

    async disable(channelId: string, reason: string): Promise<void> {
      const row = await store.byId(channelId)
      if (row?.enabled !== 1) return
      const why = reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH - 1)}…` : reason
      // Read before the transaction: on SQLite a read outside it would wait for the connection it holds.
      const owners = (await deps.contacts(row.organisationId, { owners: true })).filter(
        (u) => u.isOwner && !u.isDisabled && u.status === 'Active',
      )
      const organisation = (await deps.organisationName(row.organisationId)) ?? 'your organisation'
      const now = clock.now().toISOString()
      const mailIds: string[] = []
      const done = await store.update(
        row.id,
        { enabled: 1 },
        { enabled: 0, disabledReason: why, updatedAt: now },
        async (trx) => {
          await audit(trx, {
            organisationId: row.organisationId,
            at: now,
            by: DELIVERY_ACTOR,
            action: 'notificationChannel.disabled',
            channelId: row.id,
            detail: { name: row.name, reason: why },
          })
          for (const owner of owners) {
            mailIds.push(
              await deps.outbox.queue(trx, row.organisationId, {
                to: owner.email,
                subject: `Costwatch: notification channel "${row.name}" was disabled`,
                text:
                  `Costwatch disabled the ${row.type} notification channel "${row.name}" of ${organisation}: ${why}\n\n` +
                  'Alerts are no longer sent to it. Once the cause is fixed, enable it again in Settings → ' +
                  `Notifications:\n${deps.publicUrl}/settings/notifications\n`,
              }),
            )
          }
        },
      )
      if (done) await deps.outbox.announce(mailIds)
    },
  }
}

export interface ChannelService extends ChannelDirectory {
  create(organisationId: string, by: Acting, input: CreateChannelRequest): Promise<CreatedChannel>
  list(organisationId: string, paging: Paging): Promise<PageOf<ChannelRecord>>
  get(organisationId: string, channelId: string): Promise<ChannelRecord>
  update(organisationId: string, by: Acting, channelId: string, patch: PatchChannelRequest): Promise<ChannelRecord>
  delete(organisationId: string, by: Acting, channelId: string): Promise<void>
  rotateSecret(
    organisationId: string,
    by: Acting,
    channelId: string,
  ): Promise<{ secret: string; previousSecretUntil: string }>
}
