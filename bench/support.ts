/**
 * Helpers of the ingest and events benchmarks that bench/lib.ts does not have (lib.ts is shared with the list
 * benchmark and edited by its owners; what is added here may move there later).
 */
import type autocannon from 'autocannon'
import { type Measurement, measureWith, SETTINGS } from './lib.js'

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

export async function measureRequests(url: string, requests: CannonRequest[]): Promise<Measurement> {
  return measureWith({ url, requests, connections: SETTINGS.connections })
}
