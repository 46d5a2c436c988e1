import type { Kysely } from 'kysely'
import { type Acting, CLI_ORIGIN, FROM_CLI, recordAudit } from '../../platform/audit.js'
import { type Principal, type TenancyRole, withinRightsOf } from '../../platform/auth/principal.js'
import type { Clock, Ids } from '../../platform/clock.js'
import { apiKeyDisplayPrefix, generateApiKey, isWellFormedApiKey, sha256Hex } from '../../platform/crypto.js'
import type { Database } from '../../platform/db/index.js'
import { ApiError } from '../../platform/http/errors.js'
import type { ActorRef } from '../../platform/http/schemas.js'
import type { ApiKeyRecord, TenancyGrant } from './schemas.js'
import type { ApiKeyStore } from './store.js'

const LAST_USED_RESOLUTION_MS = 60_000
/** An owner key's roles (none: owners are Admin everywhere), one map for all of them rather than one a request. */
const NO_GRANTS: ReadonlyMap<string, TenancyRole> = new Map()

export interface CreateKeyInput {
  organisationId: string
  name: string
  expiresAt?: string | null
  /** null: an owner-scoped key; otherwise the tenancies it may act on and with which role. */
  grants: TenancyGrant[] | null
  createdBy: ActorRef
  /** Where the request came from, for the audit log: a client address, or `cli` (the default). */
  origin?: string
}

export function createApiKeyService(deps: {
  store: ApiKeyStore
  clock: Clock
  ids: Ids
  /** The tenancies of an organisation, to reject grants on someone else's. */
  tenancyBelongsTo(tenancyId: string, organisationId: string): Promise<boolean>
  /**
   * The principal of a key's creator as the user is now (null: disabled, not active, unknown), read on each request
   * of a key created by a user: one indexed read.
   */
  principalOfUser(userId: string): Promise<Principal | null>
  /** The addresses of users by id (those of them that exist), to say who made each key. */
  emailsOfUsers(userIds: string[], trx?: Kysely<Database>): Promise<Map<string, string>>
  onTouchError?(err: unknown): void
}) {
  const { store, clock, ids } = deps
  /** lastUsedAt writes still under way: `touchesSettled` lets a caller wait for them instead of for time. */
  const pendingTouches = new Set<Promise<void>>()

  /** The organisation's keys, each with its maker's address when a user made it. */
  async function listed(organisationId: string, trx?: Kysely<Database>): Promise<ApiKeyRecord[]> {
    const keys = await store.list(organisationId, trx)
    const userIds = [
      ...new Set(keys.flatMap((k) => (k.createdBy.type === 'User' && k.createdBy.id ? [k.createdBy.id] : []))),
    ]
    const emails = userIds.length ? await deps.emailsOfUsers(userIds, trx) : new Map<string, string>()
    return keys.map((k) => ({
      ...k,
      createdByEmail: k.createdBy.type === 'User' && k.createdBy.id ? (emails.get(k.createdBy.id) ?? null) : null,
    }))
  }

  return {
    /** Returns the principal of a presented key, or throws the one 401 for every kind of failure. */
    async verify(presented: string | undefined): Promise<Principal> {
      if (!presented || !isWellFormedApiKey(presented)) throw ApiError.unauthorized()
      const key = await store.findByHash(sha256Hex(presented))
      const now = clock.now()
      const nowIso = now.toISOString()
      if (!key || key.revokedAt !== null || (key.expiresAt !== null && key.expiresAt <= nowIso)) {
        throw ApiError.unauthorized()
      }
      const own: Principal = {
        organisationId: key.organisationId,
        actor: { type: 'ApiKey', id: key.id, name: key.name },
        isOwner: key.ownerScoped,
        tenancyRoles: key.ownerScoped ? NO_GRANTS : new Map(key.grants.map((g) => [g.tenancyId, g.role])),
        cacheVersion: key.cacheVersion,
      }
      // A key made by a user acts with at most the user's rights now, read on every request like the key itself:
      // a disabled or removed creator's key is refused, a demoted one's keeps the roles the user still holds. A key
      // made on the command line (no creator user) keeps its own scope.
      let principal = own
      if (key.creatorUserId !== null) {
        const creator = key.creatorUserId ? await deps.principalOfUser(key.creatorUserId) : null
        if (!creator || creator.organisationId !== key.organisationId) throw ApiError.unauthorized()
        principal = withinRightsOf(own, creator)
      }
      const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString()
      if (key.lastUsedAt === null || key.lastUsedAt < staleBefore) {
        // Not awaited: the request need not wait for bookkeeping, and a failed write only delays lastUsedAt.
        const touch = store
          .touch(key.id, nowIso, staleBefore)
          .catch((err) => deps.onTouchError?.(err))
          .finally(() => pendingTouches.delete(touch))
        pendingTouches.add(touch)
      }
      return principal
    },

    /** In `trx` when given: a caller that writes more in the same transaction (a new organisation's first key). */
    async create(input: CreateKeyInput, trx?: Kysely<Database>): Promise<{ key: ApiKeyRecord; apiKey: string }> {
      const name = input.name.trim()
      const errors: Record<string, string[]> = {}
      if (name === '' || name.length > 200) errors.name = ['must be 1 to 200 characters']
      const now = clock.now()
      let expiresAt: string | null = null
      if (input.expiresAt) {
        const at = new Date(input.expiresAt)
        if (!/^\d{4}-\d{2}-\d{2}T/.test(input.expiresAt) || Number.isNaN(at.getTime())) {
          errors.expiresAt = ['must be an RFC 3339 date-time']
        } else if (at <= now) errors.expiresAt = ['must be in the future']
        else expiresAt = at.toISOString()
      }
      if (input.grants !== null) {
        if (input.grants.length === 0) errors.scope = ['a scoped key needs at least one tenancy']
        const seen = new Set<string>()
        for (const g of input.grants) {
          if (seen.has(g.tenancyId)) errors.scope = [`tenancy ${g.tenancyId} is listed twice`]
          seen.add(g.tenancyId)
          if (!(await deps.tenancyBelongsTo(g.tenancyId, input.organisationId))) {
            errors.scope = [`tenancy ${g.tenancyId} is not a tenancy of this organisation`]
          }
        }
      }
      if (Object.keys(errors).length) throw ApiError.invalid(errors)
      const apiKey = generateApiKey()
      const id = ids.uuid()
      await store.insert(
        {
          id,
          organisationId: input.organisationId,
          name,
          prefix: apiKeyDisplayPrefix(apiKey),
          hash: sha256Hex(apiKey),
          grants: input.grants,
          createdAt: now.toISOString(),
          createdBy: input.createdBy,
          expiresAt,
        },
        trx,
        (tx) =>
          recordAudit(tx, ids, {
            organisationId: input.organisationId,
            at: now.toISOString(),
            by: { actor: input.createdBy, origin: input.origin ?? CLI_ORIGIN },
            action: 'apiKey.created',
            target: { type: 'ApiKey', id },
            detail: { name, scope: input.grants === null ? 'owner' : 'tenancies', expiresAt },
          }),
      )
      const key = (await listed(input.organisationId, trx)).find((k) => k.id === id)!
      return { key, apiKey }
    },

    /** Resolves once every lastUsedAt write started so far has finished (or failed and been reported). */
    async touchesSettled(): Promise<void> {
      await Promise.all(pendingTouches)
    },

    list: (organisationId: string) => listed(organisationId),

    /** Revokes a key of the organisation; another organisation's key id is a 404, exactly like an unknown one. */
    async revoke(organisationId: string, keyId: string, by: Acting = FROM_CLI): Promise<void> {
      const key = await store.get(keyId)
      if (!key || key.organisationId !== organisationId) throw ApiError.notFound(`API key ${keyId}`)
      const at = clock.now().toISOString()
      await store.revoke(keyId, at, (tx) =>
        recordAudit(tx, ids, {
          organisationId,
          at,
          by,
          action: 'apiKey.revoked',
          target: { type: 'ApiKey', id: keyId },
          detail: { name: key.name },
        }),
      )
    },
  }
}
export type ApiKeyService = ReturnType<typeof createApiKeyService>
