import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import { authorise, authoriseCoverage, authoriseSomewhere, type Principal, type Requirement } from './principal.js'

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal
  }
  interface FastifyContextConfig {
    /** The permission the route needs; every route under `/api/` declares one (`none` for no key). */
    requires?: Requirement
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export interface AuthDeps {
  verify(presentedKey: string | undefined): Promise<Principal>
  /** The organisation owning a tenancy, or null when there is none. */
  organisationOfTenancy(tenancyId: string): Promise<string | null>
  /** Told of each failed authentication and its client address; returns the error to answer with (a 401 or a 429). */
  failedAuthentication?(address: string, failure: unknown): unknown
}

function headerValue(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name] // Node lower-cases header names, so any casing of X-Api-Key arrives here
  return Array.isArray(value) ? value[0] : value
}

type Hook = (req: FastifyRequest) => Promise<void>
type HookKind = 'onRequest' | 'preValidation' | 'preHandler'

/** Adds `hook` to a route's own hooks of that kind, after any it declares. */
function addRouteHook(route: RouteOptions, kind: HookKind, hook: Hook): void {
  const existing = route[kind]
  route[kind] = (existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]).concat(
    hook as never,
  ) as never
}

const TENANCY_IN_PATH = /:(tenantId|tenancyId)(\/|$)/

/** The item check of a requirement, for one tenancy (`item`) or several (`items`), if it has one. */
function itemOf(needs: Exclude<Requirement, string>) {
  return 'items' in needs ? needs.items : needs.item
}

/**
 * Fails closed: a route under `/api/` that declares no requirement, or a tenancy role with neither a tenancy in
 * its path nor an item to find one from, would skip the check; refuse it when it is added, not at the first request.
 */
function checkDeclared(route: RouteOptions): Requirement | undefined {
  const needs = route.config?.requires
  const name = `${String(route.method)} ${route.url}`
  if (needs === undefined && route.url.startsWith('/api/')) {
    throw new Error(`${name} declares no requirement: set config.requires ('none' when it needs no key)`)
  }
  if (typeof needs === 'object' && !itemOf(needs) && !TENANCY_IN_PATH.test(route.url)) {
    throw new Error(`${name} needs a tenancy role but has no :tenantId or :tenancyId in its path, nor an item check`)
  }
  return needs
}

/**
 * Authentication on every keyed route (onRequest, before the body is even read), then the route's declared
 * permission (preValidation: a caller without the right learns nothing from validation messages); a route naming
 * an item checks there that the key holds the role somewhere, and the item's own tenancy once it is validated.
 *
 * Route-level hooks, added as each route is declared, with its requirement in hand: app-wide hooks ran on every
 * request (health, docs, 404s) and read `req.routeOptions`, a getter that builds a 12-field object on each call.
 * They come before the rate limit's own route hook, which is added later and keys on the principal.
 */
export function registerAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.addHook('onRoute', (route) => {
    const needs = checkDeclared(route)
    if (needs === undefined || needs === 'none') return
    addRouteHook(route, 'onRequest', async (req) => {
      try {
        req.principal = await deps.verify(headerValue(req, 'x-api-key'))
      } catch (failure) {
        throw deps.failedAuthentication ? deps.failedAuthentication(req.ip, failure) : failure
      }
    })
    // A route that takes no path parameters and any key has nothing to check before validation.
    if (needs === 'any' && !route.url.includes(':')) return
    addRouteHook(route, 'preValidation', async (req) => {
      if (!req.principal) return
      const params = (req.params ?? {}) as Record<string, string>
      // Path UUIDs match case-insensitively: one spelling from here on.
      for (const [name, value] of Object.entries(params)) if (UUID.test(value)) params[name] = value.toLowerCase()
      if (typeof needs === 'object' && itemOf(needs)) {
        authoriseSomewhere(req.principal, needs.tenancyRole)
      } else if (typeof needs === 'object') {
        const tenancyId = params.tenantId ?? params.tenancyId
        if (!tenancyId || !UUID.test(tenancyId)) return // not a UUID: validation answers 400 next
        authorise(req.principal, needs, { id: tenancyId, organisationId: await deps.organisationOfTenancy(tenancyId) })
      } else {
        authorise(req.principal, needs)
      }
    })
    if (typeof needs !== 'object' || !itemOf(needs)) return
    if ('items' in needs) {
      // An item covering several tenancies (a report): every one of them is checked.
      const items = needs.items
      addRouteHook(route, 'preHandler', async (req) => {
        if (!req.principal) return
        const params = req.params as Record<string, string>
        authoriseCoverage(req.principal, needs.tenancyRole, await items.coverageOf(params), items.describe(params))
      })
      return
    }
    const item = needs.item!
    // The item is looked up once its parameters are validated, then authorised like a tenancy in the path.
    addRouteHook(route, 'preHandler', async (req) => {
      if (!req.principal) return
      const params = req.params as Record<string, string>
      const tenancyId = await item.tenancyOf(params)
      const organisationId = tenancyId === null ? null : await deps.organisationOfTenancy(tenancyId)
      authorise(req.principal, needs, { id: tenancyId, organisationId, what: item.describe(params) })
    })
  })
}
