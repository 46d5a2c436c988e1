/**
 * The worker of the focus-pull benchmark, in a process of its own: the built worker (`dist/worker.js`, what
 * `costwatch worker` runs) on the benchmark's database, doing runs until the snapshot run BENCH_PULL_RUN_ID is
 * done. Prints `{ ms, status }` as JSON: milliseconds from its first claim to the run's end. Plain JavaScript, so it
 * loads the built code without tsx (whose compiler would be part of the peak RSS).
 */
const dist = process.env.BENCH_PULL_DIST
const runId = process.env.BENCH_PULL_RUN_ID
const tenantId = process.env.BENCH_PULL_TENANT_ID
if (!dist || !runId || !tenantId)
  throw new Error('BENCH_PULL_DIST, BENCH_PULL_RUN_ID and BENCH_PULL_TENANT_ID are needed')

const { loadConfig } = await import(`${dist}/config.js`)
const { openDatabase } = await import(`${dist}/platform/db/index.js`)
const { createServices } = await import(`${dist}/services.js`)
const { systemClock, uuidV7Ids } = await import(`${dist}/platform/clock.js`)
const { createCollectionWorker } = await import(`${dist}/worker.js`)

const config = loadConfig(process.env)
// As `costwatch worker` opens it (main.ts).
const db = openDatabase(config.databaseUrl, { synchronous: config.sqliteSynchronous, checkpointInBackground: true })
const services = createServices({ db, config, clock: systemClock, ids: uuidV7Ids })
const worker = createCollectionWorker({
  db,
  config,
  services,
  clock: systemClock,
  ids: uuidV7Ids,
  log: (level, message, err) => process.stderr.write(`worker ${level}: ${message} ${err ?? ''}\n`),
})
const started = performance.now()
let run = await services.snapshots.get(tenantId, runId)
// Another run claimed first (a daily one of another tenant) is done too; then this one's turn comes.
while (run.status === 'Queued' || run.status === 'Running') {
  if (!(await worker.runOnce())) await new Promise((resolve) => setTimeout(resolve, 100))
  run = await services.snapshots.get(tenantId, runId)
}
const ms = performance.now() - started
await db.close()
process.stdout.write(JSON.stringify({ ms, status: run.status }))
