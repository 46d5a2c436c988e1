import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A request the receiver took: its headers and raw body. */
export interface ReceivedHook {
  headers: IncomingHttpHeaders
  body: string
}

/**
 * A webhook receiver on 127.0.0.1 (reached through COSTWATCH_OUTBOUND_ALLOW), answering 204 to every request and
 * keeping what it received, in order.
 */
export async function webhookReceiver(): Promise<{
  url: (path?: string) => string
  received: ReceivedHook[]
  /** The bodies received, parsed as JSON. */
  events<T = { type: string; data: Record<string, unknown> }>(): T[]
  close(): Promise<void>
}> {
  const received: ReceivedHook[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      received.push({ headers: req.headers, body })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: (path = '/hooks') => `http://127.0.0.1:${port}${path}`,
    received,
    events: <T>() => received.map((r) => JSON.parse(r.body) as T),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
