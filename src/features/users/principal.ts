import type { Principal, TenancyRole } from '../../platform/auth/principal.js'
import type { UserState } from './store.js'

const NO_ROLES: ReadonlyMap<string, TenancyRole> = new Map()

/**
 * The principal a signed-in user acts as, the same shape `authorise` takes for an API key: an owner acts with
 * owner rights (Admin everywhere), a member with their tenancy roles. A disabled user, or one who has not accepted
 * the invitation yet, is no principal at all (null).
 */
export function principalOfUser(
  user: UserState,
  roles: readonly { tenancyId: string; role: TenancyRole }[],
): Principal | null {
  if (user.isDisabled || user.status !== 'Active') return null
  return {
    organisationId: user.organisationId,
    actor: { type: 'User', id: user.id, name: user.displayName ?? user.email },
    isOwner: user.isOwner,
    tenancyRoles: user.isOwner ? NO_ROLES : new Map(roles.map((r) => [r.tenancyId, r.role])),
  }
}
