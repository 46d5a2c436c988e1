import { call, everyItem, type Page, type TenancyRole } from '../../api'

/** Who did something: an API key, a user of the web interface, or the service itself. */
export interface ActorRef {
  type: 'ApiKey' | 'User' | 'System'
  id: string | null
  name: string | null
}
/** Who, in words: the name the actor had then. */
export const actorName = (actor: ActorRef) => actor.name ?? (actor.type === 'System' ? 'Costwatch' : actor.type)

export interface TenancyGrant {
  tenancyId: string
  role: TenancyRole
}
export interface ApiKey {
  id: string
  name: string
  prefix: string
  scope: 'owner' | TenancyGrant[]
  createdAt: string
  createdBy: ActorRef
  /** The address of the user who made the key, as it is now; null for a key made on the command line. */
  createdByEmail: string | null
  expiresAt: string | null
  lastUsedAt: string | null
  revokedAt: string | null
}
export interface NewApiKey {
  name: string
  expiresAt: string | null
  scope: 'owner' | TenancyGrant[]
}
export type UserStatus = 'Invited' | 'Active' | 'Disabled'
export interface User {
  id: string
  email: string
  displayName: string | null
  isOwner: boolean
  isDisabled: boolean
  status: UserStatus
  invitedAt: string | null
  createdAt: string
  lastSeenAt: string | null
}
export interface MemberRole {
  userId: string
  tenancyId: string
  role: TenancyRole
}
export interface AuditEntry {
  id: string
  at: string
  actor: ActorRef
  action: string
  target: { type: string; id: string }
  detail: Record<string, unknown> | null
  origin: string
}

const path = (...parts: string[]) => parts.map(encodeURIComponent).join('/')

export const settingsApi = {
  keys: () => call<{ items: ApiKey[] }>('GET', '/keys'),
  /** The answer holds the secret: the only time it is ever sent. */
  createKey: (input: NewApiKey) => call<{ key: ApiKey; apiKey: string }>('POST', '/keys', input),
  revokeKey: (id: string) => call<void>('DELETE', `/keys/${path(id)}`),

  users: () => everyItem<User>('/users'),
  invite: (email: string, displayName: string | null) => call<User>('POST', '/users', { email, displayName }),
  updateUser: (id: string, patch: { isOwner?: boolean; isDisabled?: boolean; displayName?: string }) =>
    call<User>('PATCH', `/users/${path(id)}`, patch),
  resendInvitation: (id: string) => call<User>('POST', `/users/${path(id)}/invitation`),
  /** Every tenancy role held in the organisation (owners hold none: they are Admin of every tenancy). */
  roles: () => call<{ items: MemberRole[] }>('GET', '/roles').then((answer) => answer.items),
  grantRole: (tenancyId: string, userId: string, role: TenancyRole) =>
    call<unknown>('PUT', `/tenancies/${path(tenancyId)}/users/${path(userId)}`, { role }),
  revokeRole: (tenancyId: string, userId: string) =>
    call<void>('DELETE', `/tenancies/${path(tenancyId)}/users/${path(userId)}`),

  audit(query: { page: number; pageSize: number; action: string }) {
    const params = new URLSearchParams({ page: String(query.page), pageSize: String(query.pageSize) })
    if (query.action) params.set('action', query.action)
    return call<Page<AuditEntry>>('GET', `/audit?${params}`)
  },
}
