/**
 * The Costwatch HTTP server as `costwatch serve` builds it (config from the environment, migrations, createRuntime),
 * in its own process for `npm run bench`. Sends `{ port }` over IPC once listening; exits on `'stop'`, on
 * SIGTERM/SIGINT, or when the parent goes away (the IPC channel closes).
 */
// Milliseconds since the process began, at each step of its start (the startup benchmark prints them).
const phases: Record<string, number> = {}
const { loadConfig } = await import('../src/config.js')
const { migrateToLatest, openDatabase } = await import('../src/platform/db/index.js')
const { createRuntime } = await import('../src/runtime.js')
phases.modules = performance.now()

if (!process.send) throw new Error('bench/server.ts runs as a child of bench/run.ts (it needs an IPC channel)')

const config = loadConfig(process.env)
const db = openDatabase(config.databaseUrl, { synchronous: config.sqliteSynchronous })
await migrateToLatest(db)
phases.migrated = performance.now()
const { app } = await createRuntime({ db, config })
phases.runtime = performance.now()
await app.listen({ host: '127.0.0.1', port: 0 })
phases.listening = performance.now()
const address = app.server.address()

let stopping = false
async function stop(): Promise<void> {
  if (stopping) return
  stopping = true
  const force = setTimeout(() => process.exit(1), 5_000)
  force.unref()
  try {
    await app.close()
    await db.close()
  } finally {
    // A normal exit, so --cpu-prof writes its profile.
    process.exit(0)
  }
}
process.on('message', (m) => {
  if (m === 'stop') void stop()
})
process.on('disconnect', () => void stop())
process.once('SIGTERM', () => void stop())
process.once('SIGINT', () => void stop())

process.send({ port: typeof address === 'object' && address ? address.port : 0, phases })
