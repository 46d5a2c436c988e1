/**
 * A webhook receiver for `npm run bench -- alerts`, in a process of its own so that its arrival times are not
 * delayed by the benchmark's own work: it notes when each request arrived (its `webhook-id`, or `-`) and answers
 * 204 after BENCH_RECEIVER_DELAY_MS (0: at once). `GET /__arrivals?from=N` returns the arrivals from the N-th on,
 * as `[[webhookId, epochMs], ...]`. Same IPC protocol as bench/bare-server.ts.
 */
import { createServer } from 'node:http'

if (!process.send) throw new Error('bench/alerts-receiver.ts runs as a child of bench/run.ts (it needs an IPC channel)')

const delayMs = Number(process.env.BENCH_RECEIVER_DELAY_MS || 0)
const arrivals: Array<[string, number]> = []
const server = createServer((req, res) => {
  const at = Date.now()
  if (req.url?.startsWith('/__arrivals')) {
    const from = Number(new URL(req.url, 'http://x').searchParams.get('from') ?? 0)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(arrivals.slice(from)))
    return
  }
  const id = req.headers['webhook-id']
  arrivals.push([typeof id === 'string' ? id : '-', at])
  // Read the body (as a real receiver would), then answer.
  req.resume()
  req.on('end', () => {
    const answer = () => {
      res.writeHead(204)
      res.end()
    }
    if (delayMs > 0) setTimeout(answer, delayMs)
    else answer()
  })
})
server.keepAliveTimeout = 30_000
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
