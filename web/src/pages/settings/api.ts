import { type Answer, answer, client, everyItem, type paths, type Schemas, type TenancyRole } from '../../api'

/** Who did something: an API key, a user of the web interface, or the service itself. */
export type ActorRef = Schemas['ApiKey']['createdBy']
/** Who, in words: the name the actor had then. */
export const actorName = (actor: ActorRef) => actor.name ?? (actor.type === 'System' ? 'Costwatch' : actor.type)

export type ApiKey = Schemas['ApiKey']
export type TenancyGrant = Exclude<ApiKey['scope'], 'owner'>[number]
export type NewApiKey = NonNullable<paths['/keys']['post']['requestBody']>['content']['application/json']
export type User = Schemas['User']
export type UserStatus = User['status']
export type MemberRole = Answer<paths['/roles']['get']>['items'][number]
/** An action the audit log records, as its filter names it. */
export type AuditAction = NonNullable<NonNullable<paths['/audit']['get']['parameters']['query']>['action']>
export type AuditEntry = Answer<paths['/audit']['get']>['items'][number]

const user = (userId: string) => ({ params: { path: { userId } } })
const grant = (tenancyId: string, userId: string) => ({ params: { path: { tenancyId, userId } } })

export const settingsApi = {
  keys: () => answer(client.GET('/keys')),
  /** The answer holds the secret: the only time it is ever sent. */
  createKey: (input: NewApiKey) => answer(client.POST('/keys', { body: input })),
  revokeKey: (keyId: string) => answer(client.DELETE('/keys/{keyId}', { params: { path: { keyId } } })),

  users: () => everyItem((page, pageSize) => answer(client.GET('/users', { params: { query: { page, pageSize } } }))),
  invite: (email: string, displayName: string | null) =>
    answer(client.POST('/users', { body: { email, displayName } })),
  updateUser: (userId: string, patch: { isOwner?: boolean; isDisabled?: boolean; displayName?: string }) =>
    answer(client.PATCH('/users/{userId}', { ...user(userId), body: patch })),
  resendInvitation: (userId: string) => answer(client.POST('/users/{userId}/invitation', user(userId))),
  /** Every tenancy role held in the organisation (owners hold none: they are Admin of every tenancy). */
  roles: () => answer(client.GET('/roles')).then((found) => found.items),
  grantRole: (tenancyId: string, userId: string, role: TenancyRole) =>
    answer(client.PUT('/tenancies/{tenancyId}/users/{userId}', { ...grant(tenancyId, userId), body: { role } })),
  revokeRole: (tenancyId: string, userId: string) =>
    answer(client.DELETE('/tenancies/{tenancyId}/users/{userId}', grant(tenancyId, userId))),

  audit(query: { page: number; pageSize: number; action: string }) {
    return answer(
      client.GET('/audit', {
        params: {
          query: {
            page: query.page,
            pageSize: query.pageSize,
            ...(query.action ? { action: query.action as AuditAction } : {}),
          },
        },
      }),
    )
  },
}
