import { useState } from 'preact/hooks'
import { api, type SessionUser, type TenancyRole, type Tenant } from '../../api'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { formatDateTime } from '../../components/format'
import { ProblemMessage } from '../../components/problem'
import { useLoad } from '../../components/use-load'
import { settingsApi, type User } from './api'
import { SettingsFrame } from './frame'
import { RoleChoices } from './role-choices'

/** userId → tenancyId → role (owners hold none: they are Admin everywhere). */
type Roles = Record<string, Record<string, TenancyRole>>

/** Every role of the organisation, in one call whatever the number of tenancies. */
async function loadRoles(): Promise<Roles> {
  const roles: Roles = {}
  for (const { userId, tenancyId, role } of await settingsApi.roles())
    roles[userId] = { ...roles[userId], [tenancyId]: role }
  return roles
}

const name = (user: User) => user.displayName ?? user.email

/** Users of the organisation: invite, roles per tenancy, owners, disable and enable, invitations sent again. */
export function UsersPage({ me }: { me: SessionUser }) {
  const { data, error, reload } = useLoad(async () => {
    const [users, tenants, roles] = await Promise.all([settingsApi.users(), api.allTenants(), loadRoles()])
    return { users, tenants, roles }
  }, [])
  const users = data?.users ?? null
  const tenants = data?.tenants ?? []
  const roles = data?.roles ?? {}
  const [open, setOpen] = useState<string | null>(null)

  return (
    <SettingsFrame title="Users">
      <InviteForm tenants={tenants} onInvited={reload} />
      <h2 id="users-title">People</h2>
      <ProblemMessage error={error} />
      {!users && !error && <p class="status">Loading users…</p>}
      {users && (
        <ul class="user-list" aria-labelledby="users-title">
          {users.map((user) => (
            <li key={user.id} class="card user-card">
              <div class="user-head">
                <div class="user-who">
                  <strong>{name(user)}</strong>
                  {user.displayName && <span class="muted">{user.email}</span>}
                </div>
                <div class="badges">
                  {user.id === me.id && <span class="badge">You</span>}
                  {user.isOwner && <span class="badge owner">Owner</span>}
                  <span class={`badge status-${user.status.toLowerCase()}`}>{user.status}</span>
                </div>
              </div>
              <p class="user-roles">
                {user.isOwner ? 'Admin of every tenancy' : rolesText(roles[user.id], tenants)}
                <span class="muted">
                  {' · '}
                  {user.lastSeenAt ? `last seen ${formatDateTime(user.lastSeenAt)}` : 'never signed in'}
                </span>
              </p>
              <button
                type="button"
                class="plain"
                aria-expanded={open === user.id}
                aria-controls={`manage-${user.id}`}
                onClick={() => setOpen(open === user.id ? null : user.id)}
              >
                {open === user.id ? 'Close' : 'Manage'} <span class="visually-hidden">{user.email}</span>
              </button>
              {open === user.id && (
                <ManageUser user={user} tenants={tenants} roles={roles[user.id] ?? {}} onChanged={reload} />
              )}
            </li>
          ))}
        </ul>
      )}
    </SettingsFrame>
  )
}

function rolesText(held: Record<string, TenancyRole> | undefined, tenants: Tenant[]): string {
  const parts = tenants.filter((t) => held?.[t.id]).map((t) => `${t.name}: ${held![t.id]}`)
  return parts.length ? parts.join(', ') : 'No tenancy roles'
}

/** Applies the chosen roles: a grant for each new or changed one, a revoke for each removed one. */
async function applyRoles(
  userId: string,
  before: Record<string, TenancyRole>,
  after: Record<string, TenancyRole | ''>,
) {
  for (const [tenancyId, role] of Object.entries(after)) {
    if (role && role !== before[tenancyId]) await settingsApi.grantRole(tenancyId, userId, role)
    if (!role && before[tenancyId]) await settingsApi.revokeRole(tenancyId, userId)
  }
}

function InviteForm(props: { tenants: Tenant[]; onInvited(): void }) {
  const [email, setEmail] = useState('')
  const [displayName, setDisplayName] = useState('')
  const [owner, setOwner] = useState(false)
  const [roles, setRoles] = useState<Record<string, TenancyRole | ''>>({})
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [sent, setSent] = useState<string | null>(null)

  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    setSent(null)
    try {
      const user = await settingsApi.invite(email, displayName.trim() || null)
      if (owner) await settingsApi.updateUser(user.id, { isOwner: true })
      else await applyRoles(user.id, {}, roles)
      setSent(user.email)
      setEmail('')
      setDisplayName('')
      setOwner(false)
      setRoles({})
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
      props.onInvited()
    }
  }

  return (
    <form class="card settings-form" onSubmit={submit} aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <div class="form-grid">
        <div>
          <label for="invite-email">E-mail address</label>
          <input
            id="invite-email"
            type="email"
            required
            maxLength={320}
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </div>
        <div>
          <label for="invite-name">Name (optional)</label>
          <input
            id="invite-name"
            maxLength={200}
            value={displayName}
            onInput={(e) => setDisplayName(e.currentTarget.value)}
          />
        </div>
      </div>
      <label class="inline">
        <input type="checkbox" checked={owner} onChange={(e) => setOwner(e.currentTarget.checked)} />
        Owner (Admin of every tenancy, manages users and keys)
      </label>
      {!owner && (
        <RoleChoices
          tenants={props.tenants}
          roles={roles}
          onChange={setRoles}
          legend="Role on each tenancy"
          idPrefix="invite-role"
        />
      )}
      <ProblemMessage error={error} />
      {sent && (
        <p class="notice" role="status">
          An invitation is on its way to {sent}. Its link works for 7 days.
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Inviting…' : 'Send the invitation'}
        </button>
      </div>
    </form>
  )
}

type Question = 'disable' | 'unmakeOwner'

function ManageUser(props: { user: User; tenants: Tenant[]; roles: Record<string, TenancyRole>; onChanged(): void }) {
  const { user } = props
  const [roles, setRoles] = useState<Record<string, TenancyRole | ''>>(props.roles)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [done, setDone] = useState<string | null>(null)
  const [asking, setAsking] = useState<Question | null>(null)

  const act = async (work: () => Promise<unknown>, message: string) => {
    setBusy(true)
    setError(null)
    setDone(null)
    try {
      await work()
      setDone(message)
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
      props.onChanged()
    }
  }

  return (
    <div id={`manage-${user.id}`} class="manage">
      {!user.isOwner && (
        <form
          onSubmit={(event) => {
            event.preventDefault()
            act(() => applyRoles(user.id, props.roles, roles), 'The roles are saved.')
          }}
        >
          <RoleChoices
            tenants={props.tenants}
            roles={roles}
            onChange={setRoles}
            legend={`Roles of ${name(user)}`}
            idPrefix={`roles-${user.id}`}
          />
          {props.tenants.length > 0 && (
            <button type="submit" disabled={busy}>
              Save roles
            </button>
          )}
        </form>
      )}
      <div class="manage-actions">
        {user.isOwner ? (
          <button type="button" class="plain" disabled={busy} onClick={() => setAsking('unmakeOwner')}>
            Remove owner
          </button>
        ) : (
          <button
            type="button"
            class="plain"
            disabled={busy}
            onClick={() => act(() => settingsApi.updateUser(user.id, { isOwner: true }), `${name(user)} is an owner.`)}
          >
            Make owner
          </button>
        )}
        {user.status === 'Invited' && (
          <button
            type="button"
            class="plain"
            disabled={busy}
            onClick={() =>
              act(() => settingsApi.resendInvitation(user.id), `A new invitation is on its way to ${user.email}.`)
            }
          >
            Resend the invitation
          </button>
        )}
        {user.isDisabled ? (
          <button
            type="button"
            class="plain"
            disabled={busy}
            onClick={() =>
              act(() => settingsApi.updateUser(user.id, { isDisabled: false }), `${name(user)} is enabled.`)
            }
          >
            Enable
          </button>
        ) : (
          <button type="button" class="danger-outline" disabled={busy} onClick={() => setAsking('disable')}>
            Disable
          </button>
        )}
      </div>
      <ProblemMessage error={error} />
      {done && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
      {asking === 'disable' && (
        <ConfirmDialog
          title={`Disable ${name(user)}?`}
          confirmLabel="Disable"
          onConfirm={async () => {
            await settingsApi.updateUser(user.id, { isDisabled: true })
            props.onChanged()
          }}
          onClose={() => setAsking(null)}
        >
          <p>They can no longer sign in or act in Costwatch until an owner enables them again.</p>
        </ConfirmDialog>
      )}
      {asking === 'unmakeOwner' && (
        <ConfirmDialog
          title={`Remove ${name(user)} as an owner?`}
          confirmLabel="Remove owner"
          onConfirm={async () => {
            await settingsApi.updateUser(user.id, { isOwner: false })
            props.onChanged()
          }}
          onClose={() => setAsking(null)}
        >
          <p>They keep only the tenancy roles they are given; managing users and keys is for owners.</p>
        </ConfirmDialog>
      )}
    </div>
  )
}
