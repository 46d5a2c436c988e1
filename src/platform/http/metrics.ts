import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client'

/** A registry with the process's own metrics (memory, event loop, CPU), one per app or worker. */
export function processRegistry(): Registry {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  return registry
}

/** Request counts and latency by route, on the given registry (the process's own metrics on a new one). */
export function registerMetrics(app: FastifyInstance, registry = processRegistry()): Registry {
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  })
  // Synchronous (with `done`): an async hook costs a promise and a microtask turn on every response.
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched' // the pattern, so ids never explode the label set
    requests.inc({ method: req.method, route, status: String(reply.statusCode) })
    latency.observe({ method: req.method, route }, reply.elapsedTime / 1000)
    done()
  })
  return registry
}

/**
 * Whether an Authorization header carries `Bearer <token>`. Both sides are hashed first, so the comparison takes
 * the same time whatever the length or the first wrong character of what was sent.
 */
export function bearerTokenCheck(token: string): (authorization: string | undefined) => boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest()
  const expected = digest(token)
  return (authorization) => {
    const given = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1]
    return timingSafeEqual(digest(given ?? ''), expected) && given !== undefined
  }
}

/** The 401 of a `/metrics` asked without its token, as problem+json. */
export const METRICS_UNAUTHORIZED = {
  type: '/problems/unauthorized',
  title: 'A valid metrics token is required.',
  status: 401,
  detail: 'Send the token of COSTWATCH_METRICS_TOKEN in the Authorization header: Bearer <token>.',
} as const
export const METRICS_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="metrics"' } as const

/**
 * `GET /metrics` and `GET /healthz` of a process without the API (`costwatch worker`), on plain node:http.
 * Resolves with the server once it listens; its port is the one asked for, or the one chosen for port 0.
 */
export async function serveMetrics(
  registry: Registry,
  host: string,
  port: number,
  /** The bearer token `/metrics` takes, when there is one (COSTWATCH_METRICS_TOKEN). */
  token: string | null = null,
): Promise<Server> {
  const authorised = token === null ? () => true : bearerTokenCheck(token)
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end()
    } else if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok' }))
    } else if (path === '/metrics' && !authorised(req.headers.authorization)) {
      res
        .writeHead(401, { 'content-type': 'application/problem+json', ...METRICS_CHALLENGE })
        .end(JSON.stringify(METRICS_UNAUTHORIZED))
    } else if (path === '/metrics') {
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      )
    } else {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  return server
}
