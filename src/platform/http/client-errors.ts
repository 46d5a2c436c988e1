import { maxHeaderSize, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'

/** Headers of every answer, the ones written outside a Fastify reply included. */
export const SECURITY_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' } as const

/** How long a socket answered here may linger for the client to read the answer before it is closed for good. */
const LINGER_MS = 2_000

const PARSER_ERRORS: Record<string, { status: number; code: string; title: string; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'headers-too-large',
    title: 'The request headers are too large.',
    detail: `The request line and headers together must stay under ${Math.floor(maxHeaderSize / 1024)} KB; send long input in a JSON body.`,
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
