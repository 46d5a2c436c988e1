import type { LookupAddress } from 'node:dns'
import { lookup as dnsLookup } from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import { isIP, type LookupFunction, type Socket } from 'node:net'
import { addressRefusal, isAllowed, judgeForm, type ParsedTarget, parseAllowList } from './guard.js'
import {
  type OutboundClient,
  OutboundFailedError,
  OutboundRefusedError,
  type OutboundRequest,
  type OutboundResponse,
} from './types.js'

export interface OutboundClientOptions {
  /** CIDRs the client may reach although they are not public, over http too (config.outboundAllow). */
  allow: string[]
  /** Over the whole request: name resolution, connection, response and body. */
  timeoutMs?: number
  /** Bytes of the response body read at most; the rest is dropped and the response marked `truncated`. */
  maxResponseBytes?: number
  /** A name's addresses (all of them); node's resolver (getaddrinfo) by default. */
  resolve?: (hostname: string) => Promise<string[]>
  /** Certificate authorities trusted instead of the system's (tests serving https with their own certificate). */
  ca?: string | string[]
}

export const DEFAULT_TIMEOUT_MS = 15_000
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024

const defaultResolve = async (hostname: string) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address)

/**
 * The guarded client. A name is resolved once per request; every address it resolves to must pass the guard (one
 * that does not refuses the whole request, whatever the others are), and the connection is made to those checked
 * addresses only (a `lookup` that returns them), so a second, different answer of DNS is never used. TLS still
 * checks the certificate against the name. Connections are kept alive per host name and reused; a reused one is
 * checked again against the guard before each request is written.
 */
export function createOutboundClient(options: OutboundClientOptions): OutboundClient {
  const allow = parseAllowList(options.allow)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
  const resolve = options.resolve ?? defaultResolve
  // Idle kept-alive sockets are closed after 30 s; requests in flight are bounded by timeoutMs.
  const agents = {
    http: new http.Agent({ keepAlive: true, timeout: 30_000 }),
    https: new https.Agent({ keepAlive: true, timeout: 30_000, ...(options.ca ? { ca: options.ca } : {}) }),
  }

  async function send(request: OutboundRequest): Promise<OutboundResponse> {
    const started = performance.now()
    const form = judgeForm(request.url, allow)
    if ('refusal' in form) throw new OutboundRefusedError(form.refusal)
    const { target } = form
    const deadline = new AbortController()
    const timer = setTimeout(
      () =>
        deadline.abort(
          new OutboundFailedError('timeout', `No complete answer from ${target.host} within ${timeoutMs} ms`),
        ),
      timeoutMs,
    )
    const cancelled = () =>
      deadline.abort(new OutboundFailedError('network', `The request to ${target.host} was cancelled`))
    if (request.signal?.aborted) cancelled()
    request.signal?.addEventListener('abort', cancelled, { once: true })
    try {
      const addresses = await checkedAddresses(target, deadline.signal)
      const response = await exchange(target, addresses, request, deadline.signal)
      return { ...response, latencyMs: Math.round(performance.now() - started) }
    } finally {
      clearTimeout(timer)
      request.signal?.removeEventListener('abort', cancelled)
    }
  }

  /** The addresses to connect to, every one of them checked; a refusal when any is not allowed. */
  async function checkedAddresses(target: ParsedTarget, signal: AbortSignal): Promise<string[]> {
    let addresses: string[]
    if (target.literal) addresses = [target.host]
    else {
      try {
        addresses = await abortable(resolve(target.host), signal)
      } catch (err) {
        if (signal.aborted) throw signal.reason
        throw new OutboundFailedError('network', `Could not resolve ${target.host} (${errorCode(err)})`)
      }
      if (addresses.length === 0) throw new OutboundFailedError('network', `${target.host} resolves to no address`)
    }
    for (const address of addresses) {
      const refusal = addressRefusal(address, allow)
      if (refusal) throw new OutboundRefusedError(`${target.host} resolves to ${refusalTail(refusal, address)}`)
      if (!target.secure && !isAllowed(address, allow))
        throw new OutboundRefusedError(
          `http is allowed only to the networks of COSTWATCH_OUTBOUND_ALLOW; ${target.host} resolves to ${address}, which is not in them: use https`,
        )
    }
    return addresses
  }

  /** Verifies a socket's peer before the request is written on it (a new one, or one kept alive). */
  function peerRefusal(socket: Socket, target: ParsedTarget): string | null {
    const peer = socket.remoteAddress
    if (!peer) return `The connection to ${target.host} has no peer address`
    const refusal = addressRefusal(peer, allow)
    if (refusal) return `The connection to ${target.host} reached ${refusalTail(refusal, peer)}`
    if (!target.secure && !isAllowed(peer, allow))
      return `The connection to ${target.host} reached ${peer}, outside COSTWATCH_OUTBOUND_ALLOW, over http`
    return null
  }

  function exchange(
    target: ParsedTarget,
    addresses: string[],
    request: OutboundRequest,
    signal: AbortSignal,
  ): Promise<Omit<OutboundResponse, 'latencyMs'>> {
    return new Promise((resolvePromise, reject) => {
      if (signal.aborted) {
        reject(signal.reason)
        return
      }
      const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8')
      const headers: Record<string, string> = { 'user-agent': 'Costwatch', ...request.headers }
      if (body) headers['content-length'] = String(body.length)
      const entries: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }))
      const send = target.secure ? https.request : http.request
      let settled = false
      const fail = (err: Error) => {
        if (settled) return
        settled = true
        reject(err)
      }
      const req = send(
        target.url,
        {
          method: request.method,
          headers,
          agent: target.secure ? agents.https : agents.http,
          // The only addresses this request may connect to: those checked above (never a second DNS answer).
          lookup: checkedLookup(entries),
        },
        (res) => {
          const chunks: Buffer[] = []
          let size = 0
          let truncated = false
          const finish = () => {
            if (settled) return
            settled = true
            resolvePromise({
              status: res.statusCode ?? 0,
              headers: headersOf(res.headers),
              body: new TextDecoder().decode(Buffer.concat(chunks)),
              truncated,
            })
          }
          res.on('data', (chunk: Buffer) => {
            if (truncated) return
            const room = maxBytes - size
            if (chunk.length > room) {
              chunks.push(chunk.subarray(0, room))
              size = maxBytes
              truncated = true
              // Stop reading: the rest is never downloaded (the socket is not reused).
              finish()
              req.destroy()
              return
            }
            chunks.push(chunk)
            size += chunk.length
          })
          res.on('end', finish)
          res.on('aborted', () =>
            fail(new OutboundFailedError('network', `${target.host} closed the connection mid-answer`)),
          )
          res.on('error', (err) => fail(failure(err, target)))
        },
      )
      req.on('socket', (socket: Socket) => {
        const check = () => {
          const refusal = peerRefusal(socket, target)
          if (refusal) {
            fail(new OutboundRefusedError(refusal))
            req.destroy()
          }
        }
        // A kept-alive socket is connected already; a new one is checked once connected, before the request is written.
        if (socket.remoteAddress && !socket.connecting) check()
        else socket.once('connect', check)
      })
      req.on('error', (err) => fail(signal.aborted ? (signal.reason as Error) : failure(err, target)))
      const onAbort = () => {
        fail(signal.reason as Error)
        req.destroy()
      }
      signal.addEventListener('abort', onAbort, { once: true })
      req.on('close', () => signal.removeEventListener('abort', onAbort))
      req.end(body)
    })
  }

  return {
    send,
    refusalOf(url) {
      const form = judgeForm(url, allow)
      return 'refusal' in form ? form.refusal : null
    },
  }
}

/** A `lookup` that answers with the checked addresses whatever name it is asked for. */
function checkedLookup(entries: LookupAddress[]): LookupFunction {
  return (_hostname, opts, callback) => {
    const first = entries[0] as LookupAddress
    if (opts.all) (callback as (err: null, addresses: LookupAddress[]) => void)(null, entries)
    else callback(null, first.address, first.family)
  }
}

/** "10.0.0.1 is a private address" → "10.0.0.1, a private address, which is not allowed". */
function refusalTail(refusal: string, address: string): string {
  return `${address}, ${refusal.slice(`${address} is `.length)}, which is not allowed`
}

function headersOf(raw: http.IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}

function errorCode(err: unknown): string {
  const code = (err as { code?: unknown }).code
  return typeof code === 'string' ? code : err instanceof Error ? err.message : String(err)
}

/** A sentence of what went wrong, from node's error code: never the URL (its path or query may be a credential). */
function failure(err: Error, target: ParsedTarget): Error {
  if (err instanceof OutboundFailedError || err instanceof OutboundRefusedError) return err
  const code = errorCode(err)
  if (code === 'HPE_HEADER_OVERFLOW')
    return new OutboundFailedError('too_large', `${target.host} answered with headers over the size limit`)
  const tls = code.startsWith('ERR_TLS') || code.includes('CERT') || code.includes('SSL')
  return new OutboundFailedError(
    'network',
    tls ? `TLS with ${target.host} failed (${code}: ${err.message})` : `Request to ${target.host} failed (${code})`,
  )
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    if (signal.aborted) {
      reject(signal.reason)
      return
    }
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolvePromise(value)
      },
      (err) => {
        signal.removeEventListener('abort', onAbort)
        reject(err)
      },
    )
  })
}
