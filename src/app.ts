import { randomBytes } from 'node:crypto'
import cookie from '@fastify/cookie'
import rateLimit from '@fastify/rate-limit'
import swagger from '@fastify/swagger'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import scalar from '@scalar/fastify-api-reference'
import { Ajv, type Options as AjvOptions, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify'
import type { Registry } from 'prom-client'
import type { TSchema } from 'typebox'
import type { Config } from './config.js'
import type { Feature } from './features/feature.js'
import { FEATURES } from './features/index.js'
import { APP_API_PREFIX, registerAuth, sessionCookieName } from './platform/auth/plugin.js'
import { type Ids, uuidV7Ids } from './platform/clock.js'
import { type Db, ping } from './platform/db/index.js'
import {
  answerClientError,
  closeAfterDraining,
  MAX_HEADER_BYTES,
  MAX_URL_BYTES,
  SECURITY_HEADERS,
} from './platform/http/client-errors.js'
import { ApiError, toProblem } from './platform/http/errors.js'
import { bearerTokenCheck, METRICS_CHALLENGE, METRICS_UNAUTHORIZED, registerMetrics } from './platform/http/metrics.js'
import { Problem } from './platform/http/schemas.js'
import { responseSerializerCompiler } from './platform/http/serializer.js'
import { DOCS_CONFIGURATION, docsHeaders, registerWebInterface } from './platform/http/web.js'
import { REDACTED, redactingDestination, redactUrl } from './platform/log.js'
import type { Services } from './services.js'

export const API_PREFIX = '/api/public/v1'
const MAX_BODY_BYTES = 1024 * 1024

const PUBLIC_DOCUMENT_INFO = {
  title: 'Costwatch public API',
  version: 'v1',
  description:
    'Cost data, tenants, inventory, snapshot runs, anomalies, insights, reports, users and event markers of one ' +
    'organisation. Every operation takes an API key in the X-Api-Key header. Errors are application/problem+json ' +
    '(RFC 9457); lists are paged with page and pageSize (1 to 200) and carry a Link header.',
}
/** Built to type the web interface (`npm run generate:api`), not served. */
const WEB_DOCUMENT_INFO = {
  title: 'Costwatch web interface API',
  version: 'v1',
  description:
    'The public API under /api/app for a signed-in session (its cookie, and X-CSRF-Token on changes, instead of ' +
    "an API key), with the web interface's own routes.",
}

export interface AppDeps {
  db: Db
  config: Config
  ids?: Ids
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: NodeJS.WritableStream
  /** Every feature wired once (`createRuntime`), shared with the worker and the tests. */
  services: Services
  /** What the app serves: every feature unless a test says otherwise; each is given what it needs of `services`. */
  features?: readonly Feature<Services>[]
  /** The registry `/metrics` serves (the caller adds its own metrics, e.g. the runs'); a new one otherwise. */
  metrics?: Registry
  /** Where the built web interface is (`dist/web` by default). */
  webDir?: string
  /**
   * Which routes `app.swagger()` documents: the public API's (the served document, by default), or the web
   * interface's `/api/app` ones, its own routes included, from which `npm run generate:api` types the web interface.
   */
  openApiDocument?: 'public' | 'web'
}

/** Bodies are never coerced (`"5"` is not a number there); query and path parameters arrive as text and are. */
function validatorCompilers(schemas: TSchema[]) {
  const base: AjvOptions = {
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    addUsedSchema: false,
  }
  const body = new Ajv({ ...base, coerceTypes: false })
  const params = new Ajv({ ...base, coerceTypes: 'array' })
  for (const ajv of [body, params]) {
    addFormats.default(ajv)
    for (const s of schemas) ajv.addSchema(s)
  }
  return { body, params }
}

/** C0 controls and DEL: no identifier or search of this API holds one, and PostgreSQL refuses NUL in text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/

/**
 * A path or query validator that first refuses a control character in any value (a 400 naming each parameter), so
 * none reaches a store, on every route with parameters and on both databases.
 */
function refusingControlCharacters(validate: ValidateFunction): ValidateFunction {
  const check = ((data: unknown, context?: unknown) => {
    const refused = Object.entries(data ?? {}).filter(([, value]) =>
      [value].flat().some((v) => typeof v === 'string' && CONTROL_CHARACTER.test(v)),
    )
    if (refused.length === 0) {
      const valid = validate(data, context as never)
      check.errors = validate.errors
      return valid
    }
    check.errors = refused.map(([name]) => ({
      instancePath: `/${name}`,
      schemaPath: '#',
      keyword: 'controlCharacters',
      params: {},
      message: 'must not contain control characters',
    }))
    return false
  }) as ValidateFunction
  // Fastify hands ajv's functions their parent object (so defaults and coercion reach the request) by this sign.
  check.schemaEnv = validate.schemaEnv
  return check
}

function pathMatcher(url: string): RegExp {
  const pattern = url
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/:[A-Za-z0-9_]+/g, '[^/]+')
    .replace(/\*/g, '.*')
  return new RegExp(`^${pattern}/?$`)
}

/** What a client may send as X-Request-Id to have it kept. */
const REQUEST_ID = /^[\w.:-]{1,128}$/

/**
 * Request ids: a random prefix per process and a counter, so unique across processes and restarts. A UUID per
 * request cost ~1.5% of a kept list page's CPU, for an id nobody parses.
 */
function requestIdsOfThisProcess(): () => string {
  const prefix = randomBytes(8).toString('hex')
  let n = 0
  return () => `${prefix}-${(++n).toString(36)}`
}
const requestIds = requestIdsOfThisProcess()

/**
 * Behind an https public URL, browsers are told to use nothing else for a year (HSTS). Not for subdomains: the
 * service's host says nothing about its neighbours'.
 */
const HSTS = { 'Strict-Transport-Security': 'max-age=31536000' } as const

/**
 * Every error answer: problem+json with the trace id and the headers of any answer (the router's errors skip onSend),
 * HSTS among them when `hsts`.
 */
const problemSender = (hsts: boolean) => (req: FastifyRequest, reply: FastifyReply, err: unknown) => {
  const { headers, ...problem } = toProblem(err, req.url, String(req.id))
  if (hsts) reply.headers(HSTS)
  if (problem.status >= 500) req.log.error({ err }, 'request failed')
  // A refused body (Fastify closes the connection after it): let the client finish sending, so it reads the answer.
  if (problem.status === 413 || reply.getHeader('connection') === 'close') {
    reply.header('Connection', 'close')
    closeAfterDraining(req.raw)
  }
  return reply
    .headers({ ...SECURITY_HEADERS, 'X-Request-Id': String(req.id), ...headers })
    .code(problem.status)
    .type('application/problem+json')
    .send(problem)
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { db, config } = deps
  // Typed here, where the services meet the features: a feature needing what the services lack fails the type-check.
  const features: readonly Feature<Services>[] = deps.features ?? FEATURES
  /** Records registered once: they validate, serialise, and appear by name in the OpenAPI document. */
  const sharedSchemas: TSchema[] = [Problem, ...features.flatMap((feature) => feature.schemas ?? [])]
  const ids = deps.ids ?? uuidV7Ids
  const hsts = config.publicUrl.startsWith('https://')
  const sendProblem = problemSender(hsts)
  const logger: FastifyServerOptions['logger'] = {
    level: config.logLevel,
    redact: {
      paths: ['req.headers["x-api-key"]', 'req.headers.authorization', '*.clientSecret'],
      censor: REDACTED,
    },
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    // Then every whole line, messages and errors included, on its way out.
    stream: redactingDestination(deps.logStream),
  }
  const app = Fastify({
    logger,
    // The router's own errors (bad percent-encoding, an over-long path parameter) are problems like any other.
    frameworkErrors: (err, req, reply) => sendProblem(req, reply, err),
    // And so are the HTTP parser's (headers over Node's size limit), which come before any request exists.
    clientErrorHandler(this: FastifyInstance, err, socket) {
      answerClientError(err, socket, ids.uuid(), this.log)
    },
    bodyLimit: MAX_BODY_BYTES,
    // Room for a URL a little over MAX_URL_BYTES to reach the app and get its 414 (see client-errors.ts).
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : requestIds()
    },
    routerOptions: { ignoreTrailingSlash: true },
    // req.ip: the connection's address, or the client's in X-Forwarded-For when the connection is a trusted proxy's.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
  }).withTypeProvider<TypeBoxTypeProvider>()

  // Every operation with a body takes JSON; a text body is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain')
  const ajv = validatorCompilers(sharedSchemas)
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body'
      ? ajv.body.compile(schema)
      : httpPart === 'params' || httpPart === 'querystring'
        ? refusingControlCharacters(ajv.params.compile(schema))
        : ajv.params.compile(schema),
  )
  app.setSerializerCompiler(responseSerializerCompiler(sharedSchemas))
  for (const schema of sharedSchemas) app.addSchema(schema)

  // Known path, wrong method: 405 with Allow. Fastify has no notion of it, so keep the route table here.
  const routeTable: { matcher: RegExp; methods: Set<string> }[] = []
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    let entry = routeTable.find((r) => r.matcher.source === pathMatcher(route.url).source)
    if (!entry) {
      entry = { matcher: pathMatcher(route.url), methods: new Set() }
      routeTable.push(entry)
    }
    for (const m of methods) entry.methods.add(m)
  })

  app.setErrorHandler((err, req, reply) => sendProblem(req, reply, err))
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? ''
    const allowed = routeTable.find((r) => r.matcher.test(path))
    const error = allowed
      ? new ApiError(405, 'method-not-allowed', 'The method is not allowed on this path.', {
          detail: `${req.method} is not allowed; use ${[...allowed.methods].sort().join(', ')}.`,
          headers: { Allow: [...allowed.methods].sort().join(', ') },
        })
      : ApiError.notFound(`${path}`)
    return sendProblem(req, reply, error)
  })

  // An over-long URL is a 414 before anything reads it (synchronous: an async hook costs a promise a request).
  app.addHook('onRequest', (req, _reply, done) => {
    if (req.url.length <= MAX_URL_BYTES) return done()
    done(
      new ApiError(414, 'uri-too-long', 'The request URL is too long.', {
        detail: `The path and query string must stay under ${MAX_URL_BYTES / 1024} KB; send long input in a JSON body.`,
      }),
    )
  })

  // Synchronous (with `done`): an async hook costs a promise and a microtask turn on every response.
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('X-Content-Type-Options', 'nosniff')
    reply.header('X-Request-Id', String(req.id))
    if (hsts) reply.header('Strict-Transport-Security', HSTS['Strict-Transport-Security'])
    if (req.url.startsWith('/api/')) reply.header('Cache-Control', 'no-store')
    done(null, payload)
  })

  const metrics = registerMetrics(app, deps.metrics)

  const forWeb = deps.openApiDocument === 'web'
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: forWeb ? WEB_DOCUMENT_INFO : PUBLIC_DOCUMENT_INFO,
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
      security: [{ apiKey: [] }],
      tags: [
        { name: 'PublicApi', description: 'Operations of the public API specification.' },
        { name: 'Extensions', description: 'Additions to the specification.' },
        ...(forWeb ? [{ name: 'WebInterface', description: 'Routes of the web interface alone.' }] : []),
      ],
    },
    hideUntagged: true,
    // The web interface's API mirrors the public one for the session; it is not part of the public document, and
    // the web interface's document holds it alone.
    transform: ({ schema, url }) => ({
      schema: url.startsWith(`${APP_API_PREFIX}/`) === forWeb ? schema : { ...schema, hide: true },
      url,
    }),
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  })

  const { services } = deps
  await app.register(cookie)
  registerAuth(app, {
    verify: services.apiKeys.verify,
    sessions: {
      verify: services.sessions.verify,
      csrfMatches: services.sessions.csrfMatches,
      origin: new URL(config.publicUrl).origin,
      cookie: sessionCookieName(services.sessions.secureCookie),
    },
    organisationOfTenancy: services.tenantStore.organisationOf,
    failedAuthentication: services.authFailures.failed,
  })

  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    // Per key, after authentication; requests without a principal (health, docs) are not limited here (failed
    // authentications are, per address: see createAuthFailureLimiter).
    keyGenerator: (req) => req.principal?.actor.id ?? req.ip,
    allowList: (req) => !req.principal,
    errorResponseBuilder: (_req, context) =>
      ApiError.rateLimited(`This API key may make ${context.max} requests a minute; retry after ${context.after}.`),
  })

  await app.register(
    async (api) => {
      for (const feature of features) await feature.routes?.(api, services)
      api.get('/openapi.json', { schema: { hide: true }, config: { requires: 'none' } }, async () => app.swagger())
    },
    { prefix: API_PREFIX },
  )
  await app.register(
    async (api) => {
      for (const feature of features) await feature.routes?.(api, services)
      for (const feature of features) await feature.appRoutes?.(api, services)
    },
    { prefix: APP_API_PREFIX },
  )
  for (const feature of features) await feature.pages?.(app, services)

  // In a context of its own, so that its hook sets the reference's headers on its answers only.
  await app.register(async (docs) => {
    docs.addHook('onSend', (_req, reply, payload, done) => {
      reply.headers(docsHeaders(payload, reply.getHeader('content-type')))
      done(null, payload)
    })
    await docs.register(scalar, {
      routePrefix: '/docs',
      configuration: { ...DOCS_CONFIGURATION, url: `${API_PREFIX}/openapi.json` },
    })
  })

  registerWebInterface(app, deps.webDir)

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }))
  app.get('/readyz', { schema: { hide: true } }, async (req, reply) => {
    if (await ping(db)) return { status: 'ready' }
    return sendProblem(req, reply, new ApiError(503, 'not-ready', 'The database is not reachable.'))
  })
  // Only with a token: without one the API port serves no metrics (the worker's port serves its own).
  const { metricsToken } = config
  if (metricsToken !== null) {
    const authorised = bearerTokenCheck(metricsToken)
    app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
      if (!authorised(req.headers.authorization)) {
        const { type: _type, status, title, detail } = METRICS_UNAUTHORIZED
        const refused = new ApiError(status, 'unauthorized', title, { detail, headers: { ...METRICS_CHALLENGE } })
        // Counted as a failed authentication of the address, like a bad key: guessing the token is limited too.
        throw services.authFailures.failed(req.ip, refused)
      }
      return reply.type(metrics.contentType).send(await metrics.metrics())
    })
  }
  return app
}
