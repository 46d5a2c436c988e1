/**
 * Helpers of the ingest and events benchmarks that bench/lib.ts does not have (lib.ts is shared with the list
 * benchmark and edited by its owners; what is added here may move there later).
 */
import autocannon from 'autocannon'
import { type Measurement, SETTINGS } from './lib.js'

/** A positive integer from the environment, or `fallback` when unset or empty. */
export function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`)
  return n
}

/** Seconds since `started` (a `performance.now()`), for wall-clock phases. */
export function secondsSince(started: number): number {
  return (performance.now() - started) / 1000
}

/** Megabytes of the process's resident set and V8 heap now, for notes on what the data costs in memory. */
export function memoryNote(): string {
  const { rss, heapUsed } = process.memoryUsage()
  return `RSS ${Math.round(rss / 2 ** 20)} MB, heap ${Math.round(heapUsed / 2 ** 20)} MB`
}

/** Runs `fn`, returns its result and how long it took in milliseconds. */
export async function timed<T>(fn: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const started = performance.now()
  const value = await fn()
  return { value, ms: performance.now() - started }
}

/** One autocannon request description (`requests` option): path, method, body, headers, `setupRequest`. */
export type CannonRequest = NonNullable<autocannon.Options['requests']>[number]

function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolveRun, reject) => {
    autocannon(options, (err, result) => (err ? reject(err) : resolveRun(result)))
  })
}

/**
 * Like lib.ts's `measure()`, for requests that change on every call (autocannon's `requests` with a
 * `setupRequest`, e.g. a fresh Idempotency-Key): warm-up (discarded), then SETTINGS.seconds from
 * SETTINGS.connections connections. Throws if any response is not a 2xx or any request fails.
 */
export async function measureRequests(url: string, requests: CannonRequest[]): Promise<Measurement> {
  const base: autocannon.Options = { url, requests, connections: SETTINGS.connections }
  if (SETTINGS.warmupSeconds > 0) await cannon({ ...base, duration: SETTINGS.warmupSeconds })
  const result = await cannon({ ...base, duration: SETTINGS.seconds })
  const failures = result.non2xx + result.errors + result.timeouts
  if (failures > 0) {
    throw new Error(
      `${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors, ${result.timeouts} timeouts ` +
        `of ${result.requests.total}`,
    )
  }
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures,
  }
}
