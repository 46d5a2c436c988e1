import { useState } from 'preact/hooks'
import type { TenancyRole, Tenant } from '../../api'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { formatDateTime } from '../../components/format'
import { ProblemMessage } from '../../components/problem'
import { ShownOnce } from '../../components/shown-once'
import { useTenants } from '../../components/tenant-filter'
import { useLoad } from '../../components/use-load'
import { type ApiKey, actorName, settingsApi, type TenancyGrant } from './api'
import { SettingsFrame } from './frame'
import { RoleChoices } from './role-choices'

function scopeText(scope: ApiKey['scope'], tenants: Tenant[]): string {
  if (scope === 'owner') return 'Owner (whole organisation)'
  const nameOf = (id: string) => tenants.find((t) => t.id === id)?.name ?? id
  return scope.map((grant) => `${nameOf(grant.tenancyId)}: ${grant.role}`).join(', ')
}

/** Who made a key: a user, by name and address (the key acts within that user's rights), or the command line. */
function madeBy(key: ApiKey): string {
  const { type, name } = key.createdBy
  if (type === 'User') {
    const email = key.createdByEmail
    return `by ${name && email && name !== email ? `${name} (${email})` : (email ?? name ?? 'a user')}`
  }
  return name === 'command line' ? 'on the command line' : `by ${actorName(key.createdBy)}`
}

/** API keys of the organisation: create one (its secret shown once), list them, revoke one. */
export function KeysPage() {
  const { data: listed, error: keysError, reload } = useLoad(() => settingsApi.keys(), [])
  const keys = listed?.items ?? null
  const { tenants, error: tenantsError } = useTenants()
  const error = keysError ?? tenantsError
  // The secret lives in this state alone, until "Done": never in storage or the address.
  const [created, setCreated] = useState<{ key: ApiKey; apiKey: string } | null>(null)
  const [revoking, setRevoking] = useState<ApiKey | null>(null)

  return (
    <SettingsFrame title="API keys">
      <p class="muted">
        Keys call the public API (<code>X-Api-Key</code>). A key's secret is shown once, when it is made.
      </p>
      <p class="muted">
        A key made here never does more than the person who made it may do at that moment: if they are disabled, the key
        stops working; if they lose a role, so does the key. Keys made on the command line keep their own scope.
      </p>
      {created ? (
        <NewSecret created={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateKeyForm
          tenants={tenants}
          onCreated={(answer) => {
            setCreated(answer)
            reload()
          }}
        />
      )}
      <h2 id="keys-title">Keys</h2>
      <ProblemMessage error={error} />
      {!keys && !error && <p class="status">Loading keys…</p>}
      {keys?.length === 0 && <p class="status">No keys yet.</p>}
      {keys && keys.length > 0 && (
        <table class="records" aria-labelledby="keys-title">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Scope</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id} class={key.revokedAt ? 'inactive' : undefined}>
                <th scope="row" data-label="Name">
                  {key.name}
                </th>
                <td data-label="Prefix">
                  <code>{key.prefix}…</code>
                </td>
                <td data-label="Scope">{scopeText(key.scope, tenants)}</td>
                <td data-label="Created" class="wide">
                  {formatDateTime(key.createdAt)}
                  <span class="muted"> {madeBy(key)}</span>
                </td>
                <td data-label="Last used">{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'Never'}</td>
                <td data-label="Expires">{key.expiresAt ? formatDateTime(key.expiresAt) : 'Never'}</td>
                <td class="row-actions">
                  {key.revokedAt ? (
                    <span class="badge">Revoked {formatDateTime(key.revokedAt)}</span>
                  ) : (
                    <button
                      type="button"
                      class="danger-outline"
                      aria-label={`Revoke ${key.name}`}
                      onClick={() => setRevoking(key)}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke "${revoking.name}"?`}
          confirmLabel="Revoke the key"
          onConfirm={async () => {
            await settingsApi.revokeKey(revoking.id)
            reload()
          }}
          onClose={() => setRevoking(null)}
        >
          <p>
            Every request with <code>{revoking.prefix}…</code> is refused from now on, on every server. This cannot be
            undone.
          </p>
        </ConfirmDialog>
      )}
    </SettingsFrame>
  )
}

function CreateKeyForm(props: { tenants: Tenant[]; onCreated(answer: { key: ApiKey; apiKey: string }): void }) {
  const [name, setName] = useState('')
  const [expires, setExpires] = useState('')
  const [ownerScope, setOwnerScope] = useState(true)
  const [roles, setRoles] = useState<Record<string, TenancyRole | ''>>({})
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)

  const submit = async (event: Event) => {
    event.preventDefault()
    setError(null)
    const grants: TenancyGrant[] = Object.entries(roles)
      .filter((entry): entry is [string, TenancyRole] => entry[1] !== '')
      .map(([tenancyId, role]) => ({ tenancyId, role }))
    if (!ownerScope && grants.length === 0) {
      setError(new Error('Choose a role on at least one tenancy, or make an owner key.'))
      return
    }
    setBusy(true)
    try {
      const answer = await settingsApi.createKey({
        name,
        // The picker gives a local time; the API takes an instant.
        expiresAt: expires ? new Date(expires).toISOString() : null,
        scope: ownerScope ? 'owner' : grants,
      })
      setName('')
      setExpires('')
      setRoles({})
      props.onCreated(answer)
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form class="card settings-form" onSubmit={submit} aria-labelledby="new-key-title">
      <h2 id="new-key-title">New key</h2>
      <div class="form-grid">
        <div>
          <label for="key-name">Name</label>
          <input
            id="key-name"
            required
            maxLength={200}
            placeholder="e.g. Deployment pipeline"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <div>
          <label for="key-expires">Expires (optional)</label>
          <input
            id="key-expires"
            type="datetime-local"
            value={expires}
            onInput={(e) => setExpires(e.currentTarget.value)}
          />
        </div>
      </div>
      <fieldset class="choice">
        <legend>What the key may do</legend>
        <label class="inline">
          <input type="radio" name="key-scope" checked={ownerScope} onChange={() => setOwnerScope(true)} />
          Everything an owner may (whole organisation)
        </label>
        <label class="inline">
          <input type="radio" name="key-scope" checked={!ownerScope} onChange={() => setOwnerScope(false)} />
          Only the tenancies chosen below
        </label>
      </fieldset>
      {!ownerScope && (
        <RoleChoices
          tenants={props.tenants}
          roles={roles}
          onChange={setRoles}
          legend="Role of the key on each tenancy"
          idPrefix="key-role"
        />
      )}
      <ProblemMessage error={error} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create key'}
        </button>
      </div>
    </form>
  )
}

function NewSecret(props: { created: { key: ApiKey; apiKey: string }; onDone(): void }) {
  return (
    <ShownOnce
      id="new-secret"
      title={`Key "${props.created.key.name}" is ready`}
      label="The API key"
      value={props.created.apiKey}
      what="key"
      onDone={props.onDone}
    >
      <p>Copy it now and keep it somewhere safe: it is shown this once and never again.</p>
    </ShownOnce>
  )
}
