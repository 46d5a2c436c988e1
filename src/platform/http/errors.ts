import type { Problem } from './schemas.js'

export type FieldErrors = Record<string, string[]>

/** The one error type. Thrown anywhere, turned into problem+json in one place (`toProblem`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly more: {
      detail?: string
      errors?: FieldErrors
      extra?: Record<string, unknown>
      headers?: Record<string, string>
    } = {},
  ) {
    super(more.detail ?? title)
  }

  static invalid(errors: FieldErrors, detail = 'See errors for the fields that need fixing.') {
    return new ApiError(400, 'validation', 'One or more fields are invalid.', { errors, detail })
  }
  static badRequest(detail: string) {
    return new ApiError(400, 'bad-request', 'The request is malformed.', { detail })
  }
  static unauthorized() {
    // One body for every cause, so a caller learns nothing about which keys exist.
    return new ApiError(401, 'unauthorized', 'A valid API key is required.', {
      detail: 'Send a valid, unexpired API key in the X-Api-Key header.',
    })
  }
  static forbidden(detail: string) {
    return new ApiError(403, 'forbidden', 'The API key lacks the permission this operation needs.', { detail })
  }
  static notFound(what: string) {
    return new ApiError(404, 'not-found', 'The resource was not found.', { detail: `${what} was not found.` })
  }
  static conflict(detail: string, extra?: Record<string, unknown>) {
    return new ApiError(409, 'conflict', 'The current state of the resource forbids this.', { detail, extra })
  }
  static tooLarge(detail: string) {
    return new ApiError(413, 'payload-too-large', 'The request body is too large.', { detail })
  }
  /** A rate limit reached; `retryAfterSeconds` becomes the Retry-After header where the caller sets none itself. */
  static rateLimited(detail: string, retryAfterSeconds?: number) {
    return new ApiError(429, 'rate-limited', 'Too many requests.', {
      detail,
      ...(retryAfterSeconds === undefined ? {} : { headers: { 'Retry-After': String(retryAfterSeconds) } }),
    })
  }
  static notImplemented(operationId: string) {
    return new ApiError(501, 'not-implemented', 'This operation is not available yet.', {
      detail: `${operationId} is part of the API but not implemented by this version of the service.`,
    })
  }
}

/** Fastify error codes that map onto contract statuses; anything else unknown is a 500. */
const FRAMEWORK_ERRORS: Record<string, { status: number; code: string; title: string; detail?: string }> = {
  FST_ERR_BAD_URL: {
    status: 400,
    code: 'bad-request',
    title: 'The request is malformed.',
    detail: 'The path is not valid percent-encoding.',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    status: 414,
    code: 'uri-too-long',
    title: 'The request path is too long.',
    detail: 'A path parameter is longer than any identifier of this API.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload-too-large', title: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported-media-type',
    title: 'The request body must be application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'bad-request', title: 'The request is malformed.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'bad-request', title: 'The request body is empty.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'malformed-json', title: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_TYPE: {
    status: 415,
    code: 'unsupported-media-type',
    title: 'The request body must be application/json.',
  },
  FST_ERR_CTP_INVALID_TYPE: {
    status: 415,
    code: 'unsupported-media-type',
    title: 'The request body must be application/json.',
  },
}

interface ValidationIssue {
  instancePath: string
  keyword: string
  message?: string
  params: Record<string, unknown>
}

/** Turns ajv issues into `{ field: [messages] }`, naming the field the way the caller wrote it. */
export function fieldErrorsOf(issues: readonly ValidationIssue[], part: string | undefined): FieldErrors {
  const errors: FieldErrors = {}
  const seen = new Set<string>()
  for (const issue of issues) {
    let field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.')
    let message = issue.message ?? 'is invalid'
    if (issue.keyword === 'additionalProperties') {
      field = [field, String(issue.params.additionalProperty)].filter(Boolean).join('.')
      message = 'is not a known field'
    } else if (issue.keyword === 'required') {
      field = [field, String(issue.params.missingProperty)].filter(Boolean).join('.')
      message = 'is required'
    } else if (issue.keyword === 'type' && Array.isArray(issue.params.type)) {
      // A nullable field (`type: [T, 'null']`, see Nullable): name the type it takes, as a plain field's message does.
      message = `must be ${issue.params.type.filter((t) => t !== 'null').join(',')}`
    } else if (issue.keyword === 'enum') {
      message = `must be one of: ${(issue.params.allowedValues as unknown[]).map(String).join(', ')}`
    } else if (
      issue.keyword === 'pattern' &&
      typeof issue.params.pattern === 'string' &&
      issue.params.pattern.includes('[0-9a-fA-F]{8}')
    ) {
      message = 'must be a UUID'
    }
    if (field === '') field = part === 'body' ? 'body' : (part ?? 'request')
    // anyOf (nullable fields) repeats one failure per branch; the first message says it best.
    if (seen.has(field) && issue.keyword !== 'required' && issue.keyword !== 'additionalProperties') continue
    seen.add(field)
    if (issue.keyword === 'anyOf') continue
    errors[field] = [...(errors[field] ?? []), message]
  }
  return errors
}

/** What a 503 for a busy SQLite database tells the client to wait before trying again. */
const BUSY_RETRY_AFTER_SECONDS = 5

interface AnyError {
  statusCode?: number
  code?: string
  validation?: ValidationIssue[]
  validationContext?: string
  message?: string
}

export function toProblem(
  err: unknown,
  instance: string,
  traceId: string,
): Problem & { headers?: Record<string, string> } {
  const problem = (status: number, code: string, title: string, rest: Partial<Problem> = {}) => ({
    type: `/problems/${code}`,
    title,
    status,
    ...rest,
    instance,
    traceId,
  })
  if (err instanceof ApiError) {
    return {
      ...problem(err.status, err.code, err.title, { detail: err.more.detail, errors: err.more.errors }),
      ...err.more.extra,
      headers: err.more.headers,
    }
  }
  const e = (err ?? {}) as AnyError
  if (e.validation) {
    const part = e.validationContext
    const errors = fieldErrorsOf(e.validation, part)
    if (part === 'body' && e.validation.some((i) => i.instancePath === '' && i.keyword === 'type')) {
      return problem(400, 'validation', 'One or more fields are invalid.', {
        detail: 'A JSON object body is required.',
        errors,
      })
    }
    return problem(400, 'validation', 'One or more fields are invalid.', {
      detail: `The ${part === 'querystring' ? 'query string' : (part ?? 'request')} is invalid.`,
      errors,
    })
  }
  if (e.code?.startsWith('SQLITE_BUSY')) {
    // Another process held SQLite's write lock longer than a writer waits (the final transaction of a large
    // collection or import): nothing was written, and the same request succeeds once that transaction commits.
    return {
      ...problem(503, 'busy', 'The database is busy.', {
        detail:
          'Another process is writing a large batch of data (a cost collection or an import) and holds the ' +
          'database; nothing was changed. Try again in a few seconds.',
      }),
      headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
    }
  }
  const known = e.code ? FRAMEWORK_ERRORS[e.code] : undefined
  if (known) return problem(known.status, known.code, known.title, { detail: known.detail ?? e.message })
  if (e.statusCode === 400 && e.code === undefined && e.message) {
    return problem(400, 'bad-request', 'The request is malformed.', { detail: 'The request could not be parsed.' })
  }
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return problem(e.statusCode, 'bad-request', 'The request could not be handled.', { detail: e.message })
  }
  return problem(500, 'internal', 'Something went wrong on our side.', {
    detail: 'The error was logged; quote the traceId when you report it.',
  })
}
