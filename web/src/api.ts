/**
 * The web interface's API client: openapi-fetch on `/api/app`, typed by the web interface's OpenAPI document
 * (src/client/generated/web-api.ts, written by `npm run generate:api`), with the session cookie, the CSRF token on
 * every change, and the sign-in shown again when an answer says the session is over.
 */
import createClient, { type Middleware } from 'openapi-fetch'
import type { components, paths } from '../../src/client/generated/web-api'

export type { paths }
/** The records of the API by name, as the document defines them. */
export type Schemas = components['schemas']
/** The JSON body of an operation's success (200 or 201). */
export type Answer<Op> = Op extends { responses: { 200: { content: { 'application/json': infer B } } } }
  ? B
  : Op extends { responses: { 201: { content: { 'application/json': infer B } } } }
    ? B
    : never

/**
 * A list of every member of a union from the document, for a page that draws them (a select): one that misses a
 * member, or names one the document does not have, fails the type-check.
 */
export const everyOf =
  <U extends string>() =>
  <const L extends readonly U[]>(list: L & ([U] extends [L[number]] ? unknown : never)): readonly U[] =>
    list

export type Problem = Pick<Schemas['Problem'], 'title' | 'status' | 'detail' | 'errors'>

/** An answer that was not a success, with the problem's words to show. */
export class ApiProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ? `${problem.title} ${problem.detail}` : problem.title)
  }
}

export type Session = Answer<paths['/session']['get']>
export type SessionUser = Session['user']
export type TenancyRole = SessionUser['tenancyRoles'][number]['role']
/** Every role, lowest first. */
export const TENANCY_ROLES = everyOf<TenancyRole>()(['Viewer', 'Editor', 'Admin'])
const RANK: Record<TenancyRole, number> = { Viewer: 1, Editor: 2, Admin: 3 }

/**
 * Whether the user holds at least `role` on the tenancy (owners hold Admin everywhere). The pages use it to offer
 * only the actions the server would allow; the server still decides.
 */
export function hasRole(user: SessionUser, tenancyId: string, role: TenancyRole): boolean {
  if (user.isOwner) return true
  const held = user.tenancyRoles.find((r) => r.tenancyId === tenancyId)?.role
  return held !== undefined && RANK[held] >= RANK[role]
}
export type Tenant = Schemas['Tenant']
/** A page of a list operation, as every list of the API answers it. */
export interface Page<T> {
  items: T[]
  page: number
  pageSize: number
  totalCount: number
  totalPages: number
}
export type EventCategory = Schemas['Event']['category']
export type CostSeries = Schemas['CostSeries']
export type CostForecast = Schemas['CostForecast']
/** A marker as a chart draws it. */
export type EventMarker = CostSeries['markers'][number]

export const APP_API_PREFIX = '/api/app'
let csrfToken: string | null = null

/** Fired when an answer says the session is over (expired, signed out elsewhere): the app shows the sign-in. */
export const SIGNED_OUT_EVENT = 'costwatch:signed-out'

const session: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' && csrfToken) request.headers.set('X-CSRF-Token', csrfToken)
    return request
  },
  onResponse({ request, response }) {
    // A refused sign-in or session check is not the end of a session.
    if (response.status === 401 && new URL(request.url).pathname !== `${APP_API_PREFIX}/session`) {
      dispatchEvent(new Event(SIGNED_OUT_EVENT))
    }
    return response
  },
}

/** The one client of the web interface: every call of the pages goes through it. */
export const client = createClient<paths>({ baseUrl: APP_API_PREFIX, credentials: 'same-origin' })
client.use(session)

/** The data of a success; anything else thrown as an ApiProblem with the server's words (or the status alone). */
export async function answer<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response }
  try {
    result = await pending
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err
    throw new ApiProblem({ title: 'The server could not be reached.', status: 0, detail: 'Check the connection.' })
  }
  const { response, error } = result
  if (response.ok) return result.data as T
  const body = typeof error === 'object' && error !== null ? (error as Partial<Problem>) : {}
  throw new ApiProblem(
    typeof body.title === 'string'
      ? { ...body, title: body.title, status: response.status }
      : { title: `The server answered ${response.status}.`, status: response.status },
  )
}

/** The most items a page of a list operation holds. */
export const MAX_PAGE_SIZE = 200

/**
 * Every item of a list operation, page after page: a picker or a lookup of names needs them all, and a page holds
 * at most 200. One page at a time, so that a large organisation's lists do not spend its rate limit at once.
 */
export async function everyItem<T>(pageOf: (page: number, pageSize: number) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = []
  for (let page = 1; ; page++) {
    const answered = await pageOf(page, MAX_PAGE_SIZE)
    items.push(...answered.items)
    if (page >= answered.totalPages) return items
  }
}

export const api = {
  async currentSession(): Promise<Session | null> {
    try {
      const found = await answer(client.GET('/session'))
      csrfToken = found.csrfToken
      return found
    } catch (err) {
      if (err instanceof ApiProblem && err.problem.status === 401) return null
      throw err
    }
  },
  async signIn(email: string, password: string): Promise<Session> {
    const signedIn = await answer(client.POST('/session', { body: { email, password } }))
    csrfToken = signedIn.csrfToken
    return signedIn
  },
  async signOut(): Promise<void> {
    await answer(client.DELETE('/session'))
    csrfToken = null
  },
  requestPasswordReset: (email: string) => answer(client.POST('/password-reset', { body: { email } })),
  /** One page of the tenants the user may see, in the API's order. */
  tenants: (page: number, pageSize: number) =>
    answer(client.GET('/tenants', { params: { query: { page, pageSize } } })),
  /** Every tenant the user may see (see everyItem). */
  allTenants: () => everyItem(api.tenants),
  tenant: (tenantId: string) => answer(client.GET('/tenants/{tenantId}', { params: { path: { tenantId } } })),
  dailyCosts(
    tenantId: string,
    query: { from: string; to: string; groupBy: string; scope?: string; subscriptionId?: string | null },
  ) {
    return answer(
      client.GET('/tenants/{tenantId}/costs/daily', {
        params: {
          path: { tenantId },
          query: {
            from: query.from,
            to: query.to,
            ...(query.groupBy ? { groupBy: query.groupBy } : {}),
            // The chart of one subscription, group or resource; without a scope, the whole tenant's.
            ...(query.scope ? { scope: query.scope } : {}),
            ...(query.subscriptionId ? { subscriptionId: query.subscriptionId } : {}),
          },
        },
      }),
    )
  },
  /** The forecast of a chart's total (see GET /tenants/{tenantId}/costs/forecast). */
  costForecast(tenantId: string, query: { to?: string; scope?: string; subscriptionId?: string | null }) {
    return answer(
      client.GET('/tenants/{tenantId}/costs/forecast', {
        params: {
          path: { tenantId },
          query: {
            ...(query.to ? { to: query.to } : {}),
            ...(query.scope ? { scope: query.scope } : {}),
            ...(query.subscriptionId ? { subscriptionId: query.subscriptionId } : {}),
          },
        },
      }),
    )
  },
}
