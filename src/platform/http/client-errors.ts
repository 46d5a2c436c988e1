import { type IncomingMessage, STATUS_CODES } from 'node:http'
import { Socket } from 'node:net'
import type { Duplex } from 'node:stream'

/**
 * Node's limit on a request line and its headers (its default is 16 KB): long enough that a URL over
 * MAX_URL_BYTES reaches the app and gets a 414 problem, instead of a parser error.
 */
export const MAX_HEADER_BYTES = 64 * 1024
/** The longest request target (path and query) answered; the common limit of proxies (nginx's 8 KB buffers). */
export const MAX_URL_BYTES = 8 * 1024

/** Headers of every answer, the ones written outside a Fastify reply included. */
export const SECURITY_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' } as const

/** How long a socket answered here may linger for the client to read the answer before it is closed for good. */
const LINGER_MS = 2_000
/** How much of a refused body is read and dropped, after the answer, before its connection is cut anyway. */
const DRAIN_MAX_BYTES = 8 * 1024 * 1024

const PARSER_ERRORS: Record<string, { status: number; code: string; title: string; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'headers-too-large',
    title: 'The request headers are too large.',
    detail: `The request line and headers together must stay under ${MAX_HEADER_BYTES / 1024} KB; send long input in a JSON body.`,
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'request-timeout',
    title: 'The request took too long to arrive.',
    detail: 'The request was not received in time; send it again.',
  },
}
const MALFORMED = {
  status: 400,
  code: 'bad-request',
  title: 'The request is malformed.',
  detail: 'The HTTP request could not be parsed.',
}

const answered = new WeakSet<Duplex>()

/**
 * Node's HTTP parser refuses a request (headers over its size limit, a malformed request line) before there is a
 * request or a reply: answer it with problem+json on the bare socket. Node (and Fastify's default) destroy the
 * socket right after writing, and the client, still sending the rest of its headers, may then see a reset instead
 * of the answer; so close our side gently, drain what the client still sends, and destroy after a short linger.
 * Never logs the error object: its `rawPacket` holds the request's headers, API key included.
 */
export function answerClientError(
  err: Error & { code?: string },
  socket: Duplex,
  traceId: string,
  log: { info(o: object, m: string): void },
): void {
  if (err.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return
  answered.add(socket)
  const { status, ...kind } = PARSER_ERRORS[err.code ?? ''] ?? MALFORMED
  log.info({ traceId, code: err.code, status }, 'request refused by the HTTP parser')
  const body = JSON.stringify({
    type: `/problems/${kind.code}`,
    title: kind.title,
    status,
    detail: kind.detail,
    traceId,
  })
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/problem+json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
    `X-Request-Id: ${traceId}`,
  ]
  if (!socket.writable) {
    socket.destroy()
    return
  }
  socket.on('data', () => {})
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`)
  setTimeout(() => socket.destroy(), LINGER_MS).unref()
}

const draining = new WeakSet<Socket>()

/**
 * An answer with `Connection: close` to a request whose body is still arriving (a 413, a 415): Node destroys the
 * socket as soon as the answer is written (`destroySoon`), and the client, still sending, may then get a reset
 * before it reads the answer. Instead, close our side after the answer and read (and drop) what the client still
 * sends, up to DRAIN_MAX_BYTES and LINGER_MS, then destroy the socket.
 */
export function closeAfterDraining(req: IncomingMessage): void {
  const socket = req.socket
  // Not a real connection (an injected request), or one already draining.
  if (!(socket instanceof Socket) || draining.has(socket) || req.complete) return
  draining.add(socket)
  socket.destroySoon = function drainThenDestroy(this: Socket) {
    const stop = () => this.destroy()
    this.end()
    if (req.complete) return void this.once('finish', stop)
    let received = 0
    req.on('data', (chunk: Buffer) => {
      received += chunk.length
      if (received > DRAIN_MAX_BYTES) stop()
    })
    req.once('end', () => (this.writableFinished ? stop() : this.once('finish', stop)))
    req.resume()
    setTimeout(stop, LINGER_MS).unref()
  }
}
