import { ApiError } from '../http/errors.js'
import type { ActorRef } from '../http/schemas.js'

export const TENANCY_ROLES = ['Admin', 'Editor', 'Viewer'] as const
export type TenancyRole = (typeof TENANCY_ROLES)[number]
const RANK: Record<TenancyRole, number> = { Viewer: 1, Editor: 2, Admin: 3 }

/** Who is asking: an organisation, with owner rights or a role per tenancy. */
export interface Principal {
  organisationId: string
  actor: ActorRef
  isOwner: boolean
  /** Roles per tenancy for a scoped key; empty for owners, who are Admin everywhere. */
  tenancyRoles: ReadonlyMap<string, TenancyRole>
  /**
   * The organisation's cache version (platform/cache.ts), read with the key, before any of the request's data;
   * absent when the principal does not come from a key (the command line, tests).
   */
  cacheVersion?: number
}

/** What a route needs, declared on the route and checked by `authorise`. */
export type Requirement = 'any' | 'owner' | { tenancyRole: TenancyRole }

/** The tenancies a principal can see: all of its organisation's, or a list (never empty for a scoped key). */
export type Visibility = 'all' | string[]

export function visibleTenancies(who: Principal): Visibility {
  return who.isOwner ? 'all' : [...who.tenancyRoles.keys()]
}

export function roleOn(who: Principal, tenancyId: string): TenancyRole | null {
  return who.isOwner ? 'Admin' : (who.tenancyRoles.get(tenancyId) ?? null)
}

export function hasRole(who: Principal, tenancyId: string, needed: TenancyRole): boolean {
  const role = roleOn(who, tenancyId)
  return role !== null && RANK[role] >= RANK[needed]
}

/**
 * The one permission check. A tenancy the principal cannot see (another organisation's, or outside a
 * scoped key) is a 404, exactly like an unknown id; a visible one with too low a role is a 403.
 * `tenancyOrganisationId` is the owning organisation of the tenancy named by the request, or null if none.
 */
export function authorise(
  who: Principal,
  needs: Requirement,
  tenancy?: { id: string; organisationId: string | null; what?: string },
): void {
  if (needs === 'any') return
  if (needs === 'owner') {
    if (!who.isOwner) throw ApiError.forbidden('This operation needs an organisation owner.')
    return
  }
  if (!tenancy) throw new Error('A tenancy requirement needs the tenancy of the request')
  if (tenancy.organisationId !== who.organisationId || roleOn(who, tenancy.id) === null) {
    throw ApiError.notFound(tenancy.what ?? `Tenant ${tenancy.id}`)
  }
  if (!hasRole(who, tenancy.id, needs.tenancyRole)) {
    throw ApiError.forbidden(`This operation needs the ${needs.tenancyRole} role or above on tenant ${tenancy.id}.`)
  }
}
