import { useEffect, useState } from 'preact/hooks'
import { ApiProblem, type Page } from '../../../api'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { FieldError, fieldMessages, withoutFields } from '../../../components/field-errors'
import { formatDateTime } from '../../../components/format'
import { Pager } from '../../../components/pager'
import { ProblemMessage } from '../../../components/problem'
import { ShownOnce } from '../../../components/shown-once'
import { useLoad } from '../../../components/use-load'
import type { User } from '../api'
import { CHANNEL_TYPES, type Channel, type ChannelType, type Delivery, notificationsApi } from './api'

/** What a type's URL is, in the form's words. */
const URL_LABEL: Record<Exclude<ChannelType, 'Email'>, { label: string; hint: string }> = {
  Slack: {
    label: 'Slack incoming-webhook URL',
    hint: 'From a Slack app\u2019s Incoming Webhooks page (https://hooks.slack.com/services/\u2026).',
  },
  Teams: {
    label: 'Teams Workflows webhook URL',
    hint: 'From the "Post to a channel when a webhook request is received" workflow of the Teams channel.',
  },
  Webhook: {
    label: 'Webhook URL',
    hint: 'Any https address. Requests are signed with Standard Webhooks headers; the secret is shown once.',
  },
}

/** Where a channel sends, in words: the URL's host (the URL itself is a credential and never shown). */
function destination(channel: Channel, users: User[]): string {
  if (channel.type !== 'Email') return channel.urlHost ?? '—'
  const people = (channel.userIds ?? []).map((id) => {
    const user = users.find((u) => u.id === id)
    return user ? (user.displayName ?? user.email) : 'a user'
  })
  return [...(channel.emails ?? []), ...people].join(', ') || '—'
}

/** A delivery's outcome in words: "Succeeded (200 in 42 ms)", "Failed (500): the error". */
function resultText(delivery: Delivery): string {
  const code = delivery.lastStatusCode === null ? '' : String(delivery.lastStatusCode)
  const latency = delivery.latencyMs === null ? '' : `${delivery.latencyMs} ms`
  const facts = [code, latency].filter(Boolean).join(' in ')
  return `${delivery.status}${facts ? ` (${facts})` : ''}${delivery.lastError ? `: ${delivery.lastError}` : ''}`
}

/** A secret shown once (a new webhook channel's, or a rotation's), with a copy button and the warning. */
function SecretBox(props: { title: string; secret: string; note?: string; onDone(): void }) {
  return (
    <ShownOnce
      id="channel-secret"
      title={props.title}
      label="Signing secret"
      value={props.secret}
      what="secret"
      onDone={props.onDone}
    >
      <p>
        Copy the signing secret now and keep it with the receiver: it is shown this once and never again. The receiver
        checks each request's <code>webhook-signature</code> with it.
      </p>
      {props.note && <p class="muted">{props.note}</p>}
    </ShownOnce>
  )
}

/** The organisation's channels, for owners: add, test, delivery log, rotate the secret, enable, delete. */
export function ChannelsSection(props: { channels: Channel[] | null; error: unknown; users: User[]; reload(): void }) {
  const [secret, setSecret] = useState<{ title: string; secret: string; note?: string } | null>(null)
  const [adding, setAdding] = useState(false)
  const [open, setOpen] = useState<string | null>(null)
  const [deleting, setDeleting] = useState<Channel | null>(null)
  const [rotating, setRotating] = useState<Channel | null>(null)
  const [editing, setEditing] = useState<string | null>(null)
  const { channels } = props

  return (
    <section aria-labelledby="channels-title">
      <div class="section-head">
        <h2 id="channels-title">Channels</h2>
        {!adding && !secret && (
          <button type="button" onClick={() => setAdding(true)}>
            Add a channel
          </button>
        )}
      </div>
      <p class="muted">
        Where alerts go: e-mail, a Slack or Teams channel, or a signed webhook. Slack, Teams and webhook addresses are
        credentials: once saved, only their host is shown.
      </p>
      {secret && <SecretBox {...secret} onDone={() => setSecret(null)} />}
      {adding && (
        <ChannelForm
          users={props.users}
          onCancel={() => setAdding(false)}
          onSaved={(created) => {
            setAdding(false)
            if (created.secret) setSecret({ title: `Channel "${created.name}" is ready`, secret: created.secret })
            props.reload()
          }}
        />
      )}
      <ProblemMessage error={props.error} />
      {!channels && !props.error && <p class="status">Loading channels…</p>}
      {channels?.length === 0 && <p class="status">No channels yet.</p>}
      {channels && channels.length > 0 && (
        <ul class="channel-list" aria-labelledby="channels-title">
          {channels.map((channel) => (
            <li key={channel.id} class="card channel-card">
              {editing === channel.id ? (
                <ChannelForm
                  channel={channel}
                  users={props.users}
                  onCancel={() => setEditing(null)}
                  onSaved={() => {
                    setEditing(null)
                    props.reload()
                  }}
                />
              ) : (
                <ChannelItem
                  channel={channel}
                  users={props.users}
                  open={open === channel.id}
                  onToggleLog={() => setOpen(open === channel.id ? null : channel.id)}
                  onRotate={() => setRotating(channel)}
                  onDelete={() => setDeleting(channel)}
                  onEdit={() => setEditing(channel.id)}
                  onChanged={props.reload}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete "${deleting.name}"?`}
          confirmLabel="Delete the channel"
          onConfirm={async () => {
            await notificationsApi.deleteChannel(deleting.id)
            props.reload()
          }}
          onClose={() => setDeleting(null)}
        >
          <p>Nothing is sent to it from now on, and its delivery log goes with it. This cannot be undone.</p>
        </ConfirmDialog>
      )}
      {rotating && (
        <ConfirmDialog
          title={`Rotate the secret of "${rotating.name}"?`}
          confirmLabel="Rotate the secret"
          onConfirm={async () => {
            const rotated = await notificationsApi.rotateSecret(rotating.id)
            setSecret({
              title: `New secret of "${rotating.name}"`,
              secret: rotated.secret,
              note: `The previous secret keeps signing beside the new one until ${formatDateTime(rotated.previousSecretUntil)}: update the receiver before then.`,
            })
            props.reload()
          }}
          onClose={() => setRotating(null)}
        >
          <p>
            A new signing secret is made and shown once. For 24 hours requests carry signatures of both, so the receiver
            can move to the new one without missing any.
          </p>
        </ConfirmDialog>
      )}
    </section>
  )
}

function ChannelItem(props: {
  channel: Channel
  users: User[]
  open: boolean
  onToggleLog(): void
  onRotate(): void
  onDelete(): void
  onEdit(): void
  onChanged(): void
}) {
  const { channel } = props
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [tested, setTested] = useState<string | null>(null)
  const [testResult, setTestResult] = useState<Delivery | null>(null)
  const logId = `log-${channel.id}`

  const act = async (action: () => Promise<unknown>) => {
    setBusy(true)
    setError(null)
    try {
      await action()
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  const test = () =>
    act(async () => {
      const queued = await notificationsApi.testChannel(channel.id)
      setTestResult(null)
      setTested(queued.deliveryId)
      if (!props.open) props.onToggleLog()
    })
  const setEnabled = (enabled: boolean) =>
    act(async () => {
      await notificationsApi.updateChannel(channel.id, { enabled })
      props.onChanged()
    })

  return (
    <>
      <div class="channel-head">
        <div class="channel-who">
          <strong>{channel.name}</strong>
          <span class="muted">
            {channel.type} · {destination(channel, props.users)}
          </span>
        </div>
        <div class="badges">
          <span class="badge">{channel.type}</span>
          {channel.enabled ? (
            <span class="badge channel-enabled">Enabled</span>
          ) : (
            <span class="badge channel-disabled">Disabled</span>
          )}
        </div>
      </div>
      {!channel.enabled && (
        <p class="channel-reason">
          {channel.disabledReason ? `Disabled: ${channel.disabledReason}` : 'Disabled by a person.'}
        </p>
      )}
      {channel.previousSecretUntil && new Date(channel.previousSecretUntil).getTime() > Date.now() && (
        <p class="muted">The previous secret still signs until {formatDateTime(channel.previousSecretUntil)}.</p>
      )}
      <div class="manage-actions">
        <button type="button" disabled={busy || !channel.enabled} onClick={test} aria-label={`Test ${channel.name}`}>
          Send a test
        </button>
        <button
          type="button"
          class="plain"
          aria-expanded={props.open}
          aria-controls={logId}
          aria-label={`Delivery log of ${channel.name}`}
          onClick={props.onToggleLog}
        >
          {props.open ? 'Hide the delivery log' : 'Delivery log'}
        </button>
        {channel.type === 'Webhook' && (
          <button
            type="button"
            class="plain"
            disabled={busy}
            aria-label={`Rotate the secret of ${channel.name}`}
            onClick={props.onRotate}
          >
            Rotate secret
          </button>
        )}
        <button
          type="button"
          class="plain"
          disabled={busy}
          aria-label={`${channel.enabled ? 'Disable' : 'Enable'} ${channel.name}`}
          onClick={() => setEnabled(!channel.enabled)}
        >
          {channel.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" class="plain" disabled={busy} aria-label={`Edit ${channel.name}`} onClick={props.onEdit}>
          Edit
        </button>
        <button type="button" class="danger-outline" aria-label={`Delete ${channel.name}`} onClick={props.onDelete}>
          Delete
        </button>
      </div>
      <p role="status" class="muted">
        {tested && !testResult && 'Test message queued: its result is in the delivery log.'}
        {testResult && `Test message: ${resultText(testResult)}`}
      </p>
      <ProblemMessage error={error} />
      {props.open && <DeliveryLog id={logId} channel={channel} highlight={tested} onSettled={setTestResult} />}
    </>
  )
}

const LOG_PAGE_SIZE = 10
/** While a delivery waits, the log asks again this often. */
const LOG_POLL_MS = 2000

/** A channel's deliveries, newest first, each with its attempts; asks again while one is pending. */
function DeliveryLog(props: {
  id: string
  channel: Channel
  highlight: string | null
  /** Told the highlighted delivery once it is no longer pending. */
  onSettled(delivery: Delivery): void
}) {
  const [page, setPage] = useState(1)
  const { data, error, reload } = useLoad(
    () => notificationsApi.deliveries(props.channel.id, page, LOG_PAGE_SIZE),
    [props.channel.id, page, props.highlight],
  )
  const [redelivering, setRedelivering] = useState<unknown>(null)
  const waiting =
    data?.items.some((d) => d.status === 'Pending') ||
    (props.highlight !== null && data !== null && !data.items.some((d) => d.id === props.highlight))
  const settled = data?.items.find((d) => d.id === props.highlight && d.status !== 'Pending')
  useEffect(() => {
    if (settled) props.onSettled(settled)
  }, [settled?.id, settled?.status])
  useEffect(() => {
    if (!waiting) return
    const timer = setTimeout(reload, LOG_POLL_MS)
    return () => clearTimeout(timer)
  }, [data, waiting])

  const redeliver = async (delivery: Delivery) => {
    setRedelivering(null)
    try {
      await notificationsApi.redeliver(props.channel.id, delivery.id)
      reload()
    } catch (err) {
      setRedelivering(err)
    }
  }

  return (
    <div id={props.id} class="delivery-log">
      <h3 id={`${props.id}-title`}>Delivery log of {props.channel.name}</h3>
      <ProblemMessage error={error ?? redelivering} />
      {!data && !error && <p class="status">Loading deliveries…</p>}
      {data?.items.length === 0 && <p class="status">Nothing sent yet.</p>}
      {data && data.items.length > 0 && (
        <DeliveryTable
          labelledBy={`${props.id}-title`}
          page={data}
          canRedeliver={props.channel.enabled}
          onRedeliver={redeliver}
        />
      )}
      {data && <Pager page={data} noun="deliveries" onPage={setPage} />}
    </div>
  )
}

function DeliveryTable(props: {
  labelledBy: string
  page: Page<Delivery>
  /** A disabled channel sends nothing, redeliveries included. */
  canRedeliver: boolean
  onRedeliver(d: Delivery): void
}) {
  return (
    <table class="records deliveries" aria-labelledby={props.labelledBy}>
      <thead>
        <tr>
          <th scope="col">Sent</th>
          <th scope="col">Event</th>
          <th scope="col">Status</th>
          <th scope="col">Attempts</th>
          <th scope="col">Code</th>
          <th scope="col">Latency</th>
          <th scope="col">Next attempt</th>
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.page.items.map((delivery) => (
          <tr key={delivery.id}>
            <th scope="row" data-label="Sent">
              {formatDateTime(delivery.createdAt)}
              <code class="detail" title="webhook-id">
                {delivery.webhookId}
              </code>
            </th>
            <td data-label="Event">
              <code>{delivery.eventType}</code>
            </td>
            <td data-label="Status">
              <span class={`badge delivery-${delivery.status.toLowerCase()}`}>{delivery.status}</span>
              {delivery.lastError && <span class="detail delivery-error">{delivery.lastError}</span>}
            </td>
            <td data-label="Attempts">{delivery.attempts}</td>
            <td data-label="Code">{delivery.lastStatusCode ?? '—'}</td>
            <td data-label="Latency">{delivery.latencyMs === null ? '—' : `${delivery.latencyMs} ms`}</td>
            <td data-label="Next attempt">{formatDateTime(delivery.nextAttemptAt)}</td>
            <td class="row-actions">
              {delivery.status !== 'Pending' && (
                <button
                  type="button"
                  class="plain"
                  disabled={!props.canRedeliver}
                  aria-label={`Send the ${delivery.eventType} of ${formatDateTime(delivery.createdAt)} again`}
                  onClick={() => props.onRedeliver(delivery)}
                >
                  Redeliver
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

const CHANNEL_FIELDS = ['name', 'type', 'url', 'emails', 'userIds']

/**
 * A new channel, or changes to one (`channel`): its type stays; a URL, a credential never shown again, is replaced
 * only when a new one is typed, and the form says which host the current one points to.
 */
function ChannelForm(props: {
  channel?: Channel
  users: User[]
  onCancel(): void
  onSaved(saved: Channel & { secret?: string }): void
}) {
  const editing = props.channel
  const [type, setType] = useState<ChannelType>(editing?.type ?? 'Slack')
  const [name, setName] = useState(editing?.name ?? '')
  const [url, setUrl] = useState('')
  const [emails, setEmails] = useState(editing?.emails?.join(', ') ?? '')
  const [userIds, setUserIds] = useState<string[]>(editing?.userIds ?? [])
  const formId = editing ? `channel-${editing.id}` : 'channel'
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)

  const submit = async (event: Event) => {
    event.preventDefault()
    setError(null)
    const addresses = emails
      .split(/[\s,;]+/)
      .map((e) => e.trim())
      .filter(Boolean)
    if (type === 'Email' && addresses.length === 0 && userIds.length === 0) {
      setError(
        new ApiProblem({
          title: 'Choose who gets the e-mails.',
          status: 400,
          errors: { emails: ['must name at least one address or user'] },
        }),
      )
      return
    }
    setBusy(true)
    try {
      const saved = editing
        ? await notificationsApi.updateChannel(
            editing.id,
            type === 'Email' ? { name, emails: addresses, userIds } : { name, ...(url ? { url } : {}) },
          )
        : await notificationsApi.createChannel(
            type === 'Email' ? { name, type, emails: addresses, userIds } : { name, type, url },
          )
      props.onSaved(saved)
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  const described = (field: string, hint?: string) =>
    [hint, fieldMessages(error, field).length > 0 ? `${formId}-${field}-error` : undefined].filter(Boolean).join(' ') ||
    undefined
  const invalid = (field: string) => (fieldMessages(error, field).length > 0 ? true : undefined)

  return (
    <form class="card settings-form" onSubmit={submit} aria-labelledby={`${formId}-title`}>
      <h3 id={`${formId}-title`}>{editing ? `Edit "${editing.name}"` : 'New channel'}</h3>
      {!editing && (
        <fieldset class="choice">
          <legend>Type</legend>
          <div class="type-choices">
            {CHANNEL_TYPES.map((choice) => (
              <label class="inline" key={choice}>
                <input
                  type="radio"
                  name="channel-type"
                  value={choice}
                  checked={type === choice}
                  onChange={() => setType(choice)}
                />
                {choice === 'Email' ? 'E-mail' : choice}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <div class="form-grid">
        <div class="field">
          <label for={`${formId}-name`}>Name</label>
          <input
            id={`${formId}-name`}
            required
            maxLength={200}
            placeholder={type === 'Email' ? 'e.g. FinOps team' : 'e.g. #finops'}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            aria-invalid={invalid('name')}
            aria-describedby={described('name')}
          />
          <FieldError id={`${formId}-name-error`} label="The name" messages={fieldMessages(error, 'name')} />
        </div>
        {type !== 'Email' && (
          <div class="field">
            <label for={`${formId}-url`}>
              {editing ? `Replace the ${URL_LABEL[type].label}` : URL_LABEL[type].label}
            </label>
            <input
              id={`${formId}-url`}
              type="url"
              required={!editing}
              maxLength={2000}
              spellcheck={false}
              autocomplete="off"
              placeholder="https://"
              value={url}
              onInput={(e) => setUrl(e.currentTarget.value)}
              aria-invalid={invalid('url')}
              aria-describedby={described('url', `${formId}-url-hint`)}
            />
            <p id={`${formId}-url-hint`} class="hint">
              {editing
                ? `Now ${editing.urlHost ? `a URL on ${editing.urlHost}` : 'a URL'}, never shown again. Leave empty to keep it.`
                : URL_LABEL[type].hint}
            </p>
            <FieldError id={`${formId}-url-error`} label="The URL" messages={fieldMessages(error, 'url')} />
          </div>
        )}
      </div>
      {type === 'Email' && (
        <>
          <div class="field">
            <label for={`${formId}-emails`}>E-mail addresses</label>
            <textarea
              id={`${formId}-emails`}
              rows={2}
              placeholder="finops@example.com, cto@example.com"
              value={emails}
              onInput={(e) => setEmails(e.currentTarget.value)}
              aria-invalid={invalid('emails')}
              aria-describedby={described('emails', `${formId}-emails-hint`)}
            />
            <p id={`${formId}-emails-hint`} class="hint">
              Separated by commas or new lines. Users chosen below get it at their account's address.
            </p>
            <FieldError id={`${formId}-emails-error`} label="The addresses" messages={fieldMessages(error, 'emails')} />
          </div>
          <fieldset class="user-choices" aria-describedby={described('userIds')}>
            <legend>Users of the organisation</legend>
            {props.users.length === 0 && <p class="status">No users to choose.</p>}
            {props.users.map((user) => (
              <label class="inline" key={user.id}>
                <input
                  type="checkbox"
                  checked={userIds.includes(user.id)}
                  onChange={(e) =>
                    setUserIds(e.currentTarget.checked ? [...userIds, user.id] : userIds.filter((id) => id !== user.id))
                  }
                />
                {user.displayName ? `${user.displayName} (${user.email})` : user.email}
              </label>
            ))}
            <FieldError id={`${formId}-userIds-error`} label="The users" messages={fieldMessages(error, 'userIds')} />
          </fieldset>
        </>
      )}
      <ProblemMessage error={withoutFields(error, CHANNEL_FIELDS)} />
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : editing ? 'Save the channel' : 'Add the channel'}
        </button>
        <button type="button" class="plain" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
