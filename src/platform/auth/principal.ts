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

/**
 * How a route whose path names an item but no tenancy (`/anomalies/:anomalyId`) finds the tenancy to authorise:
 * the hook resolves it, then checks it exactly like a tenancy in the path.
 */
export interface ItemTenancy {
  /** How a 404 names the item, e.g. `Anomaly ${params.anomalyId}`. */
  describe(params: Readonly<Record<string, string>>): string
  /** The tenancy owning the item, or null when there is no such item; called with validated parameters. */
  tenancyOf(params: Readonly<Record<string, string>>): Promise<string | null>
  /**
   * An item that cannot exist yet (a planned operation): a key holding the role on no tenancy gets its 403 at once
   * (see `authoriseSomewhere`), since no id can name an item it sees.
   */
  planned?: true
}

/**
 * How a route finds the tenancies of an item that covers several (a report): the hook resolves them, then the
 * principal must see every one (an item of the whole organisation: owners only) and hold the role on each.
 */
export interface ItemCoverage {
  describe(params: Readonly<Record<string, string>>): string
  /** The item's organisation and tenancies (`all`: the whole organisation), or null when there is no such item. */
  coverageOf(
    params: Readonly<Record<string, string>>,
  ): Promise<{ organisationId: string; tenancyIds: string[] | 'all' } | null>
}

/**
 * What a route needs, declared on every route under `/api/` and checked by `authorise`: `none` (no key at all),
 * `any` valid key, an `owner`, or a role on the tenancy of the path, on the item's tenancy with `item`, or on
 * every tenancy an item covers with `items`.
 */
export type Requirement =
  | 'none'
  | 'any'
  | 'owner'
  | { tenancyRole: TenancyRole; item?: ItemTenancy }
  | { tenancyRole: TenancyRole; items: ItemCoverage }

/**
 * The tenancies a principal can see: all of its organisation's, or a list, which may be empty (a member with no
 * role, a key whose creator has none left): stores answer such a list with no rows.
 */
export type Visibility = 'all' | string[]

export function visibleTenancies(who: Principal): Visibility {
  return who.isOwner ? 'all' : [...who.tenancyRoles.keys()]
}

export function roleOn(who: Principal, tenancyId: string): TenancyRole | null {
  return who.isOwner ? 'Admin' : (who.tenancyRoles.get(tenancyId) ?? null)
}

const NO_ROLES: ReadonlyMap<string, TenancyRole> = new Map()

/**
 * A key's principal within its creator's current rights: the key's scope, and on each tenancy the lower of the
 * key's role and the creator's (an owner creator leaves the key as it is; an owner key of a member creator holds
 * the member's roles). The key stays the actor.
 */
export function withinRightsOf(key: Principal, creator: Principal): Principal {
  if (creator.isOwner) return key
  if (key.isOwner) return { ...key, isOwner: false, tenancyRoles: creator.tenancyRoles }
  if (creator.tenancyRoles.size === 0) return { ...key, tenancyRoles: NO_ROLES }
  const roles = new Map<string, TenancyRole>()
  for (const [tenancyId, role] of key.tenancyRoles) {
    const held = creator.tenancyRoles.get(tenancyId)
    if (held) roles.set(tenancyId, RANK[held] < RANK[role] ? held : role)
  }
  return { ...key, tenancyRoles: roles }
}

/** Whether the principal holds `needed` or above on at least one tenancy. */
export function hasRoleSomewhere(who: Principal, needed: TenancyRole): boolean {
  return who.isOwner || [...who.tenancyRoles.values()].some((role) => RANK[role] >= RANK[needed])
}

export function hasRole(who: Principal, tenancyId: string, needed: TenancyRole): boolean {
  const role = roleOn(who, tenancyId)
  return role !== null && RANK[role] >= RANK[needed]
}

/**
 * The one permission check. A tenancy the principal cannot see (another organisation's, or outside a
 * scoped key) is a 404, exactly like an unknown id; a visible one with too low a role is a 403.
 * `tenancy` is the one named by the request (or owning its item) with its organisation; a null id: no such item.
 */
export function authorise(
  who: Principal,
  needs: Requirement,
  tenancy?: { id: string | null; organisationId: string | null; what?: string },
): void {
  if (needs === 'none' || needs === 'any') return
  if (needs === 'owner') {
    if (!who.isOwner) throw ApiError.forbidden('This operation needs an organisation owner.')
    return
  }
  if (!tenancy) throw new Error('A tenancy requirement needs the tenancy of the request')
  if (tenancy.id === null || tenancy.organisationId !== who.organisationId || roleOn(who, tenancy.id) === null) {
    throw ApiError.notFound(tenancy.what ?? `Tenant ${tenancy.id}`)
  }
  if (!hasRole(who, tenancy.id, needs.tenancyRole)) {
    throw ApiError.forbidden(`This operation needs the ${needs.tenancyRole} role or above on tenant ${tenancy.id}.`)
  }
}

/**
 * Before a planned item's 501: a key that holds the role on no tenancy could act on no item, whatever the id (a
 * 403 that says nothing about any item). A built item is looked up first: one the key cannot see is a 404.
 */
export function authoriseSomewhere(who: Principal, needed: TenancyRole): void {
  if (!hasRoleSomewhere(who, needed)) {
    throw ApiError.forbidden(`This operation needs the ${needed} role or above on the item's tenant.`)
  }
}

/**
 * The check of an item covering several tenancies: it is visible when the principal sees each of them (one of the
 * whole organisation: owners only), else a 404 like an unknown id; visible with too low a role on one: a 403.
 */
export function authoriseCoverage(
  who: Principal,
  needed: TenancyRole,
  coverage: { organisationId: string; tenancyIds: string[] | 'all' } | null,
  what: string,
): void {
  if (!coverage || coverage.organisationId !== who.organisationId) throw ApiError.notFound(what)
  if (coverage.tenancyIds === 'all') {
    if (!who.isOwner) throw ApiError.notFound(what)
    return
  }
  if (coverage.tenancyIds.some((id) => roleOn(who, id) === null)) throw ApiError.notFound(what)
  const short = coverage.tenancyIds.find((id) => !hasRole(who, id, needed))
  if (short)
    throw ApiError.forbidden(
      `This operation needs the ${needed} role or above on every tenant it covers (${short} included).`,
    )
}
