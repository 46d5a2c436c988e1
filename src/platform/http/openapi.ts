import { type Static, type TSchema, Type } from 'typebox'

const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: malformed JSON, a failed validation, an unknown field or a bad parameter.',
  401: 'Missing, malformed, unknown, expired or revoked API key.',
  403: 'The key can see the resource but lacks the permission this operation needs.',
  404: 'Unknown id, or one the key cannot see.',
  405: 'Known path, wrong method.',
  409: 'The current state forbids the operation.',
  413: 'Body over 1 MiB.',
  415: 'The body is not application/json.',
  422: 'The request conflicts with an earlier one, or the data cannot answer it (not enough cost history to forecast).',
  429: 'Rate limit exceeded (per key, or failed authentications per client address); see Retry-After.',
  500: 'Unexpected error; the problem carries a traceId.',
  501: 'Not implemented by this version of the service.',
}

const problemContent = { 'application/problem+json': { schema: { $ref: 'Problem#' } } }

/** Documented problem responses: each status named here, plus the 401, 429 and 500 every keyed call can get. */
export function problemResponses(...statuses: number[]) {
  const all = [...new Set([...statuses, 401, 429, 500])].sort()
  return Object.fromEntries(
    all.map((status) => [status, { description: PROBLEM_DESCRIPTIONS[status] ?? 'Error', content: problemContent }]),
  ) as Record<number, { description: string; content: typeof problemContent }>
}

/** Body schemas arrive as JSON; the contract's 413 and 415 apply to every operation with a body. */
export function bodyProblems() {
  return problemResponses(400, 413, 415)
}

export interface OperationParts {
  params?: TSchema
  querystring?: TSchema
  body?: TSchema
  headers?: TSchema
  response: Record<number, unknown>
  description?: string
}

/** The route schema of an operation of the specification (tag PublicApi) or an addition (tag Extensions). */
export function publicOperation<P extends OperationParts>(
  operationId: string,
  summary: string,
  parts: P,
  tag: 'PublicApi' | 'Extensions' = 'PublicApi',
) {
  return { operationId, summary, tags: [tag], security: [{ apiKey: [] }], ...parts }
}

/**
 * The route schema of an operation of the web interface's own API (`/api/app` alone: the session, settings, the
 * audit log). The public document leaves it out; the web interface's document (see `openApiDocument` of buildApp)
 * holds it, so that the web interface's types are generated for it too.
 */
export function webOperation<P extends Partial<OperationParts>>(operationId: string, summary: string, parts: P) {
  return { operationId, summary, tags: ['WebInterface'], ...parts }
}

/** A reference to a registered record schema, so the OpenAPI document names it (`#/components/schemas/Tenant`). */
export function ref<T extends TSchema>(schema: T) {
  const id = (schema as { $id?: string }).$id
  if (!id) throw new Error('Only schemas with an $id can be referenced')
  return Type.Unsafe<Static<T>>({ $ref: `${id}#` })
}
