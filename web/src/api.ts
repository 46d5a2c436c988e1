/** The web interface's API client: `/api/app` with the session cookie, the CSRF token on every change. */

export interface Problem {
  title: string
  status: number
  detail?: string
  errors?: Record<string, string[]>
}

/** An answer that was not a success, with the problem's words to show. */
export class ApiProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ? `${problem.title} ${problem.detail}` : problem.title)
  }
}

export interface SessionUser {
  id: string
  email: string
  displayName: string | null
  isOwner: boolean
  tenancyRoles: { tenancyId: string; role: TenancyRole }[]
}
export type TenancyRole = 'Viewer' | 'Editor' | 'Admin'
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
export interface Session {
  user: SessionUser
  csrfToken: string
  expiresAt: string
}
export interface Tenant {
  id: string
  name: string
  cloudTenantId: string
}
/** A page of a list operation, as every list of the API answers it. */
export interface Page<T> {
  items: T[]
  page: number
  pageSize: number
  totalCount: number
  totalPages: number
}

/** The most items a page of a list operation holds. */
const MAX_PAGE_SIZE = 200

/**
 * Every item of a list operation (`path`, with or without a query), page after page: a picker or a lookup of
 * names needs them all, and a page holds at most 200. One page at a time, so that a large organisation's lists
 * do not spend its rate limit at once.
 */
export async function everyItem<T>(path: string): Promise<T[]> {
  const items: T[] = []
  for (let page = 1; ; page++) {
    const query = `${path.includes('?') ? '&' : '?'}page=${page}&pageSize=${MAX_PAGE_SIZE}`
    const answer = await call<Page<T>>('GET', `${path}${query}`)
    items.push(...answer.items)
    if (page >= answer.totalPages) return items
  }
}
export type EventCategory = 'Deployment' | 'Launch' | 'Campaign' | 'Configuration' | 'Incident' | 'Other'
export interface EventMarker {
  id: string
  occurredAt: string
  title: string
  category: EventCategory
  description: string | null
  tagKey: string | null
  tagValue: string | null
}
export interface Point {
  date: string
  cost: number
}
export interface CostSeries {
  from: string
  to: string
  currency: string
  groupBy: string | null
  points: Point[]
  groups?: { key: string; label: string; cost: number; points: Point[] }[]
  markers: EventMarker[]
}

const PREFIX = '/api/app'
let csrfToken: string | null = null

/** Fired when an answer says the session is over (expired, signed out elsewhere): the app shows the sign-in. */
export const SIGNED_OUT_EVENT = 'costwatch:signed-out'

async function problemOf(res: Response): Promise<Problem> {
  if ((res.headers.get('content-type') ?? '').includes('json')) {
    try {
      const body = (await res.json()) as Partial<Problem>
      if (typeof body.title === 'string') return { ...body, title: body.title, status: res.status }
    } catch {
      // Not JSON after all: fall through to the status alone.
    }
  }
  return { title: `The server answered ${res.status}.`, status: res.status }
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken
  let res: Response
  try {
    res = await fetch(PREFIX + path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw new ApiProblem({ title: 'The server could not be reached.', status: 0, detail: 'Check the connection.' })
  }
  if (!res.ok) {
    const problem = await problemOf(res)
    if (problem.status === 401 && path !== '/session') dispatchEvent(new Event(SIGNED_OUT_EVENT))
    throw new ApiProblem(problem)
  }
  if (res.status === 204) return undefined as T
  return (await res.json()) as T
}

export const api = {
  async currentSession(): Promise<Session | null> {
    try {
      const session = await call<Session>('GET', '/session')
      csrfToken = session.csrfToken
      return session
    } catch (err) {
      if (err instanceof ApiProblem && err.problem.status === 401) return null
      throw err
    }
  },
  async signIn(email: string, password: string): Promise<Session> {
    const session = await call<Session>('POST', '/session', { email, password })
    csrfToken = session.csrfToken
    return session
  },
  async signOut(): Promise<void> {
    await call<void>('DELETE', '/session')
    csrfToken = null
  },
  requestPasswordReset: (email: string) => call<unknown>('POST', '/password-reset', { email }),
  /** One page of the tenants the user may see, in the API's order. */
  tenants: (page: number, pageSize: number) => call<Page<Tenant>>('GET', `/tenants?page=${page}&pageSize=${pageSize}`),
  /** Every tenant the user may see (see everyItem). */
  allTenants: () => everyItem<Tenant>('/tenants'),
  tenant: (id: string) => call<Tenant>('GET', `/tenants/${encodeURIComponent(id)}`),
  dailyCosts(
    tenantId: string,
    query: { from: string; to: string; groupBy: string; scope?: string; subscriptionId?: string | null },
  ) {
    const params = new URLSearchParams({ from: query.from, to: query.to })
    if (query.groupBy) params.set('groupBy', query.groupBy)
    // The chart of one subscription, group or resource; without a scope, the whole tenant's.
    if (query.scope) params.set('scope', query.scope)
    if (query.subscriptionId) params.set('subscriptionId', query.subscriptionId)
    return call<CostSeries>('GET', `/tenants/${encodeURIComponent(tenantId)}/costs/daily?${params}`)
  },
}
