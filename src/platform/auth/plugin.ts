import type {} from '@fastify/cookie'
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import { ApiError } from '../http/errors.js'
import {
  authorise,
  authoriseCoverage,
  authoriseSomewhere,
  type Principal,
  type Requirement,
  type TenancyRole,
} from './principal.js'

/** The cookie of a signed-in browser (HttpOnly, SameSite=Lax; Secure when the public URL is https). */
export const SESSION_COOKIE = 'costwatch_session'
/**
 * Its name when it is Secure: browsers take a `__Host-` cookie only Secure, with Path=/ and no Domain, so neither
 * a plain-http page nor a sibling subdomain can set or overwrite the session of this host.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`
export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE
}
/** Where the web interface's own API lives: it takes the session cookie, never an API key. */
export const APP_API_PREFIX = '/api/app'

/**
 * The signed-in user of a session, as far as a request needs it: who they are and what they may do until when.
 * Declared here so that the platform names no feature; the session feature's user satisfies it.
 */
export interface SignedInUser {
  userId: string
  organisationId: string
  email: string
  displayName: string | null
  isOwner: boolean
  tenancyRoles: Map<string, TenancyRole>
  expiresAt: string
}

/** The session behind a request to the web interface's API. */
export interface RequestSession<User = SignedInUser> {
  id: string
  user: User
  csrfToken: string
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal
    session?: RequestSession
  }
  interface FastifyContextConfig {
    /** The permission the route needs; every route under `/api/` declares one (`none` for no key). */
    requires?: Requirement
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export interface AuthDeps {
  verify(presentedKey: string | undefined): Promise<Principal>
  /** The web interface's sessions: the principal of a session cookie (or the 401), and its CSRF check. */
  sessions?: {
    verify(sessionId: string | undefined): Promise<{ principal: Principal } & Omit<RequestSession, 'id'>>
    csrfMatches(sessionId: string, presented: string | undefined): boolean
    /** The origin browsers send from the web interface (the public URL's); another one is refused on a change. */
    origin: string
    /** The session cookie's name (see sessionCookieName). */
    cookie: string
  }
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
 * an item checks the item's own tenancy once its parameters are validated (an item the key cannot see: 404, as an
 * unknown id, whatever the key's roles elsewhere).
 *
 * Route-level hooks, added as each route is declared, with its requirement in hand: app-wide hooks ran on every
 * request (health, docs, 404s) and read `req.routeOptions`, a getter that builds a 12-field object on each call.
 * They come before the rate limit's own route hook, which is added later and keys on the principal.
 */
export function registerAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.addHook('onRoute', (route) => {
    const needs = checkDeclared(route)
    if (route.url.startsWith(`${APP_API_PREFIX}/`)) {
      if (!deps.sessions) throw new Error(`${route.url} needs the sessions of the web interface`)
      addSessionHooks(route, needs, deps.sessions, deps.failedAuthentication)
    } else {
      if (needs === undefined || needs === 'none') return
      addKeyHook(route, deps)
    }
    if (needs === undefined || needs === 'none') return
    addPermissionHooks(route, needs, deps)
  })
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

function csrfRefused(detail: string) {
  return new ApiError(403, 'csrf', 'The request did not come from the web interface.', { detail })
}

/**
 * The web interface's API: a change must come from the interface's own origin (when the browser says where it
 * comes from) and, once signed in, carry the session's CSRF token in X-CSRF-Token; the session cookie is the
 * only credential, an X-Api-Key is not one here.
 */
function addSessionHooks(
  route: RouteOptions,
  needs: Requirement | undefined,
  sessions: NonNullable<AuthDeps['sessions']>,
  failed: AuthDeps['failedAuthentication'],
) {
  const methods = Array.isArray(route.method) ? route.method : [route.method]
  const changes = methods.some((m) => !SAFE_METHODS.has(m))
  addRouteHook(route, 'onRequest', async (req) => {
    const origin = headerValue(req, 'origin')
    if (changes && origin !== undefined && origin !== sessions.origin)
      throw csrfRefused(`Changes are accepted from ${sessions.origin} only, not from ${origin}.`)
    if (needs === undefined || needs === 'none') return
    const sessionId = req.cookies?.[sessions.cookie]
    try {
      const { principal, ...session } = await sessions.verify(sessionId)
      req.principal = principal
      req.session = { id: sessionId!, ...session } as FastifyRequest['session']
    } catch (failure) {
      throw failed ? failed(req.ip, failure) : failure
    }
    if (changes && !sessions.csrfMatches(sessionId!, headerValue(req, 'x-csrf-token')))
      throw csrfRefused('Send the csrfToken of GET /api/app/session in the X-CSRF-Token header.')
  })
}

/** The public API's authentication: the X-Api-Key header, before the body is even read. */
function addKeyHook(route: RouteOptions, deps: AuthDeps) {
  addRouteHook(route, 'onRequest', async (req) => {
    try {
      req.principal = await deps.verify(headerValue(req, 'x-api-key'))
    } catch (failure) {
      throw deps.failedAuthentication ? deps.failedAuthentication(req.ip, failure) : failure
    }
  })
}

/** The route's declared permission, checked by `authorise` for keys and sessions alike. */
function addPermissionHooks(route: RouteOptions, needs: Exclude<Requirement, 'none'>, deps: AuthDeps) {
  // A route that takes no path parameters and any key has nothing to check before validation.
  if (needs === 'any' && !route.url.includes(':')) return
  addRouteHook(route, 'preValidation', async (req) => {
    if (!req.principal) return
    const params = (req.params ?? {}) as Record<string, string>
    // Path UUIDs match case-insensitively: one spelling from here on.
    for (const [name, value] of Object.entries(params)) if (UUID.test(value)) params[name] = value.toLowerCase()
    if (typeof needs === 'object' && itemOf(needs)) {
      // The item's own check comes once it is found (preHandler): one the key cannot see is a 404 like an unknown
      // id, before any role check. Only an item that cannot exist yet is refused here.
      const item = itemOf(needs)
      if (item && 'planned' in item && item.planned) authoriseSomewhere(req.principal, needs.tenancyRole)
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
}
