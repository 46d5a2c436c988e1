/**
 * The reference for `npm run bench`: a bare `node:http` server answering every request with fixed bytes
 * (BENCH_BARE_BODY_FILE) and content type (BENCH_BARE_CONTENT_TYPE), the most a Node server can do.
 * Same IPC protocol as bench/server.ts: `{ port }` once listening; exits on `'stop'` or when the parent goes.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

if (!process.send) throw new Error('bench/bare-server.ts runs as a child of bench/run.ts (it needs an IPC channel)')

const body = readFileSync(process.env.BENCH_BARE_BODY_FILE ?? '')
const headers = {
  'content-type': process.env.BENCH_BARE_CONTENT_TYPE ?? 'application/octet-stream',
  'content-length': String(body.length),
}
const server = createServer((_req, res) => {
  res.writeHead(200, headers)
  res.end(body)
})
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 })
})

const stop = () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
  setTimeout(() => process.exit(0), 2_000).unref()
}
process.on('message', (m) => {
  if (m === 'stop') stop()
})
process.on('disconnect', stop)
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
