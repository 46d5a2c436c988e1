import type { TokenCredentialOptions } from '@azure/identity'
import type { Clock } from '../../platform/clock.js'
import { ConnectorError } from '../types.js'

/** The part of `fetch` the connector uses; the global `fetch` fits, and tests pass one that trusts their fake. */
export type Fetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<Response>

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>

export interface RetryPolicy {
  /** Retries after the first attempt, for 429, 5xx and network failures. */
  maxRetries: number
  /** First backoff when the provider names no wait; doubles per attempt up to `maxBackoffMs`. */
  baseDelayMs: number
  maxBackoffMs: number
  /** A provider asking for a longer pause than this fails the call as `throttled` (the run is retried later). */
  maxRetryWaitMs: number
}

export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 5,
  baseDelayMs: 1_000,
  maxBackoffMs: 30_000,
  maxRetryWaitMs: 120_000,
}

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', abort, { once: true })
    function done() {
      signal?.removeEventListener('abort', abort)
      resolve()
    }
    function abort() {
      clearTimeout(timer)
      reject(signal?.reason)
    }
  })

export interface ArmRequest {
  method: 'GET' | 'POST'
  url: string
  body?: unknown
  /** What the call does, for error messages: "listing subscriptions", "the Resource Graph query"... */
  what: string
  /** Answer null instead of failing when the target is gone (a VM deleted since the inventory). */
  missingIsNull?: boolean
}

export interface ArmClient {
  /** Sends one request with the tenant's token, retrying throttling and server errors; returns the parsed JSON (null for 204). */
  send(req: ArmRequest, signal?: AbortSignal): Promise<unknown>
  /** The ARM origin every follow-up link must stay on, so the token never leaves it. */
  readonly origin: string
}

export interface ArmClientDeps {
  armEndpoint: string
  fetch: Fetch
  sleep: Sleep
  clock: Clock
  retry: RetryPolicy
  token: (signal?: AbortSignal) => Promise<string>
}

const retryableStatuses = new Set([429, 500, 502, 503, 504])

export function createArmClient(deps: ArmClientDeps): ArmClient {
  const origin = new URL(deps.armEndpoint).origin
  return {
    origin,
    async send(req, signal) {
      if (new URL(req.url).origin !== origin) {
        throw new ConnectorError('provider_error', `Azure answered ${req.what} with a link outside ${origin}; refused.`)
      }
      for (let attempt = 0; ; attempt++) {
        const headers: Record<string, string> = {
          Authorization: `Bearer ${await deps.token(signal)}`,
          Accept: 'application/json',
        }
        if (req.body !== undefined) headers['Content-Type'] = 'application/json'
        const body = req.body === undefined ? undefined : JSON.stringify(req.body)
        let res: Response
        try {
          res = await deps.fetch(req.url, { method: req.method, headers, body, signal })
        } catch (err) {
          if (signal?.aborted) throw err
          if (attempt >= deps.retry.maxRetries) {
            throw new ConnectorError('unreachable', `Could not reach Azure for ${req.what}: ${reasonOf(err)}.`, true)
          }
          await deps.sleep(backoffMs(deps.retry, attempt), signal)
          continue
        }
        if (res.status === 204 || (res.status === 404 && req.missingIsNull)) {
          await res.body?.cancel()
          return null
        }
        if (res.ok) return parseJson(res, req.what)
        if (!retryableStatuses.has(res.status) || attempt >= deps.retry.maxRetries) throw await errorOf(res, req.what)
        const wait = retryAfterMs(res.headers, deps.clock) ?? backoffMs(deps.retry, attempt)
        if (wait > deps.retry.maxRetryWaitMs) throw await errorOf(res, req.what)
        await res.body?.cancel()
        await deps.sleep(wait, signal)
      }
    },
  }
}

export function backoffMs(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.baseDelayMs * 2 ** attempt, policy.maxBackoffMs)
}

/**
 * The longest wait any retry-after header asks for, in milliseconds. Cost Management throttles per QPU, entity,
 * tenant and client type, each with its own `x-ms-ratelimit-microsoft.costmanagement-*-retry-after` (seconds), and
 * a 429 may carry several: only the longest one lets the next attempt through. `Retry-After` is ARM's generic one.
 */
export function retryAfterMs(headers: Headers, clock: Clock): number | null {
  let longest: number | null = null
  const consider = (ms: number) => {
    if (Number.isFinite(ms) && ms >= 0) longest = Math.max(longest ?? 0, ms)
  }
  headers.forEach((value, name) => {
    const header = name.toLowerCase()
    if (header === 'retry-after-ms' || header === 'x-ms-retry-after-ms') consider(Number(value))
    else if (header === 'retry-after') consider(secondsOrDateMs(value, clock))
    else if (header.startsWith('x-ms-ratelimit-') && header.endsWith('retry-after')) consider(Number(value) * 1000)
  })
  return longest
}

function secondsOrDateMs(value: string, clock: Clock): number {
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? Number.NaN : Math.max(0, at - clock.now().getTime())
}

async function parseJson(res: Response, what: string): Promise<unknown> {
  const text = await res.text()
  if (text === '') return null
  try {
    return JSON.parse(text)
  } catch {
    throw new ConnectorError(
      'provider_error',
      `Azure answered ${what} with a body that is not JSON (HTTP ${res.status}).`,
    )
  }
}

/** ARM errors are `{ error: { code, message } }`; the message names the missing permission, which helps the user. */
async function errorOf(res: Response, what: string): Promise<ConnectorError> {
  const detail = await armErrorDetail(res)
  const suffix = detail ? `: ${detail}` : ''
  switch (res.status) {
    case 401:
      return new ConnectorError('auth_failed', `Azure rejected the access token for ${what} (HTTP 401)${suffix}.`)
    case 403:
      return new ConnectorError(
        'forbidden',
        `The identity is not allowed ${what} (HTTP 403)${suffix}. It needs Reader and Cost Management Reader on the subscriptions.`,
      )
    case 429:
      return new ConnectorError(
        'throttled',
        `Azure kept throttling ${what} (HTTP 429)${suffix}; the run can be retried later.`,
        true,
      )
    default: {
      const retryable = res.status >= 500
      return new ConnectorError('provider_error', `Azure failed ${what} (HTTP ${res.status})${suffix}.`, retryable)
    }
  }
}

async function armErrorDetail(res: Response): Promise<string> {
  const text = await res.text().catch(() => '')
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }
    const code = typeof body.error?.code === 'string' ? body.error.code : ''
    const message = typeof body.error?.message === 'string' ? body.error.message : ''
    return clip(withoutTokens([code, message].filter(Boolean).join(': ')))
  } catch {
    return ''
  }
}

/** Provider text goes into run errors users read: drop anything shaped like a JWT, just in case it is echoed. */
export function withoutTokens(text: string): string {
  return text.replace(/eyJ[\w-]*\.[\w-]+\.[\w-]*/g, '[token]')
}

function clip(text: string, max = 400): string {
  return text.length > max ? `${text.slice(0, max)}...` : text
}

function reasonOf(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } })?.cause?.code
  if (typeof cause === 'string') return cause
  return err instanceof Error ? clip(withoutTokens(err.message), 200) : 'unknown error'
}

type HttpClient = NonNullable<TokenCredentialOptions['httpClient']>
type PipelineResponse = Awaited<ReturnType<HttpClient['sendRequest']>>
type HttpHeaders = PipelineResponse['headers']

/**
 * Lets @azure/identity send its token requests through the connector's `fetch`, so one transport (and, in tests,
 * one trusted fake) carries every call. Identity only sends form or empty bodies.
 */
export function fetchHttpClient(fetch: Fetch): HttpClient {
  return {
    async sendRequest(request) {
      if (request.body !== undefined && request.body !== null && typeof request.body !== 'string') {
        throw new Error('The Azure token client sent a body this transport does not support.')
      }
      const signal = timeoutSignal(request.abortSignal, request.timeout)
      const res = await fetch(request.url, {
        method: request.method,
        headers: request.headers.toJSON(),
        body: request.body ?? undefined,
        signal,
      })
      return { request, status: res.status, headers: httpHeadersOf(res.headers), bodyAsText: await res.text() }
    },
  }
}

type PipelineRequest = Parameters<HttpClient['sendRequest']>[0]

function timeoutSignal(like: PipelineRequest['abortSignal'], timeoutMs: number): AbortSignal | undefined {
  const signal = like === undefined || like instanceof AbortSignal ? like : abortSignalOf(like)
  if (!timeoutMs) return signal
  const timeout = AbortSignal.timeout(timeoutMs)
  return signal ? AbortSignal.any([signal, timeout]) : timeout
}

/** The SDK types its signal loosely (`AbortSignalLike`); fetch wants a real one. */
function abortSignalOf(like: NonNullable<PipelineRequest['abortSignal']>): AbortSignal {
  const controller = new AbortController()
  if (like.aborted) controller.abort()
  else like.addEventListener('abort', () => controller.abort(), { once: true })
  return controller.signal
}

function httpHeadersOf(headers: Headers): HttpHeaders {
  const map = new Map<string, string>()
  headers.forEach((value, name) => {
    map.set(name.toLowerCase(), value)
  })
  return {
    get: (name) => map.get(name.toLowerCase()),
    has: (name) => map.has(name.toLowerCase()),
    set: (name, value) => {
      map.set(name.toLowerCase(), String(value))
    },
    delete: (name) => {
      map.delete(name.toLowerCase())
    },
    toJSON: () => Object.fromEntries(map),
    [Symbol.iterator]: () => map.entries(),
  }
}
