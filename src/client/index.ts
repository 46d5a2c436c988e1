/**
 * Costwatch's TypeScript client (`costwatch/client`): openapi-fetch typed by the public API's OpenAPI document, the
 * one the server validates requests with (see src/client/generated, written by `npm run generate:api`).
 */
import createClient, { type Client } from 'openapi-fetch'
import type { components, paths } from './generated/public-api.js'

export type { components, paths }
/** The records and requests of the API by name, e.g. `Schemas['Tenant']`. */
export type Schemas = components['schemas']
export type CostwatchClient = Client<paths>

/** Where the public API is served on a Costwatch host. */
export const PUBLIC_API_PREFIX = '/api/public/v1'

export interface CostwatchClientOptions {
  /** The Costwatch host, e.g. `https://costwatch.example.com`. */
  baseUrl: string
  /** An API key (`cw_…`), sent as X-Api-Key. */
  apiKey: string
  /** Another fetch (a proxy's, a test's); the global one by default. */
  fetch?: typeof globalThis.fetch
}

/** A typed client of the public API: `client.GET('/tenants')` answers `{ data }` or `{ error }` (a Problem). */
export function createCostwatchClient(options: CostwatchClientOptions): CostwatchClient {
  return createClient<paths>({
    baseUrl: `${options.baseUrl.replace(/\/+$/, '')}${PUBLIC_API_PREFIX}`,
    headers: { 'X-Api-Key': options.apiKey },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  })
}

/** An answer of the API that was not a success, with its problem+json document (RFC 9457). */
export class CostwatchProblem extends Error {
  constructor(
    readonly status: number,
    readonly problem: Partial<Schemas['Problem']>,
  ) {
    super(`${status} ${problem.title ?? 'Error'}${problem.detail ? `: ${problem.detail}` : ''}`)
    this.name = 'CostwatchProblem'
  }
}

/** The data of an answer, or a thrown CostwatchProblem: `const tenants = ok(await client.GET('/tenants'))`. */
export function ok<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.response.ok) return answer.data as T
  const problem = typeof answer.error === 'object' && answer.error !== null ? answer.error : {}
  throw new CostwatchProblem(answer.response.status, problem as Partial<Schemas['Problem']>)
}
