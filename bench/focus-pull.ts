/**
 * The snapshot of a FocusExport tenant pulling an AWS Data Exports estate from S3: BENCH_FOCUS_PULL_ROWS
 * (10,000,000) rows in the "FOCUS 1.2 with AWS columns" set over 20 monthly billing periods, once as gzip CSV and
 * once as Parquet (bench/focus-pull-estate.ts writes it, kept between runs), served by s3rver in this process. Each
 * format gets a fresh database and a tenant whose S3 location points at s3rver (`endpoint`, 127.0.0.1 allowed as
 * the tests allow it), and three pulls, each a snapshot run queued as the API queues it and done by the built
 * worker (`dist/worker.js`) in a child process, so that its peak RSS is the pull's own:
 * 1. the first pull: rows/s (target >= 50,000) and peak RSS (target < 300 MB), its costs checked per period
 *    against the estate's sums;
 * 2. a second pull with nothing changed: its time (target < 2 s), and that it wrote no cost row;
 * 3. one period restated (a new manifest naming new files): only that period replaced, every other period's
 *    stored version, cost rows and sum as they were; its time.
 *
 * Times are the worker's, from its first claim to the run's end; the child's whole life (Node starting, loading
 * the app, the pull, exiting) and its CPU time are printed beside them. BENCH_CPU_PROF=<dir> writes each child's
 * CPU profile there. BENCH_FOCUS_PULL_FORMATS (csv.gz,parquet) narrows the formats.
 */
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { S3Client } from '@aws-sdk/client-s3'
import type { Principal } from '../src/platform/auth/principal.js'
import { buildCommandLine, type ChildRun, runCommandLine } from './focus-import.js'
import {
  BUCKET,
  type Estate,
  estateFolder,
  FORMATS,
  type Format,
  keptEstate,
  PERIODS,
  prefixOf,
  publishManifest,
  RESTATED,
  s3rverFolder,
  writeEstate,
} from './focus-pull-estate.js'
import {
  BENCH_DIR,
  type BenchDatabase,
  type Benchmark,
  benchDatabases,
  fmt,
  heading,
  note,
  printTable,
  type Scope,
  withServices,
} from './lib.js'
import { intFromEnv } from './support.js'

const ROWS = intFromEnv('BENCH_FOCUS_PULL_ROWS', 10_000_000)
const SELECTED = (process.env.BENCH_FOCUS_PULL_FORMATS || FORMATS.join(',')).split(',').map((s) => {
  if (!(FORMATS as readonly string[]).includes(s))
    throw new Error(`BENCH_FOCUS_PULL_FORMATS takes ${FORMATS.join(' and/or ')}, got "${s}"`)
  return s as Format
})
const TARGET_ROWS_PER_SECOND = 50_000
const TARGET_RSS_MB = 300
const TARGET_UNCHANGED_MS = 2000
/** s3rver's fixed key pair. */
const KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

interface PeriodFigures {
  rows: number
  total: number
  /** The stored version: the run that wrote it, and its rows as the run counted them. */
  runId: string | null
  versionRows: number | null
}

interface RunView {
  id: string
  status: string
  stats: { costRows: number }
  error: { code: string; message: string } | null
  periods: { billingPeriod: string; files: string[]; rows: number; replaced: boolean }[]
}

interface Pull {
  run: RunView
  ms: number
  child: ChildRun
  stored: Map<string, PeriodFigures>
}

/** The tenant's cost rows and their sum per billing period (the month of their day), and its stored versions. */
async function storedFigures(database: BenchDatabase, tenantId: string): Promise<Map<string, PeriodFigures>> {
  return withServices(database, async (services, { db }) => {
    const days = await db.kysely
      .selectFrom('dailyCosts')
      .innerJoin('costResources', 'costResources.id', 'dailyCosts.resourceId')
      .where('costResources.tenantId', '=', tenantId)
      .select((eb) => ['date', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('cost').as('total')])
      .groupBy('date')
      .execute()
    const figures = new Map<string, PeriodFigures>()
    for (const d of days) {
      const period = String(d.date).slice(0, 7)
      const f = figures.get(period) ?? { rows: 0, total: 0, runId: null, versionRows: null }
      f.rows += Number(d.n)
      f.total += Number(d.total)
      figures.set(period, f)
    }
    for (const p of await services.costIngest.billingPeriods(tenantId)) {
      const f = figures.get(p.billingPeriod) ?? { rows: 0, total: 0, runId: null, versionRows: null }
      f.runId = p.runId
      f.versionRows = p.rows
      figures.set(p.billingPeriod, f)
    }
    return figures
  })
}

/** Queues a snapshot of the tenant as the API does, has the built worker do it in a child, and reads the result. */
async function pull(
  scope: Scope,
  dist: string,
  database: BenchDatabase,
  tenant: { id: string; principal: Principal },
): Promise<Pull> {
  const queued = await withServices(database, (services) =>
    services.snapshots.trigger(tenant.principal, tenant.id, false),
  )
  const child = await runCommandLine(scope, join(BENCH_DIR, 'focus-pull-worker.mjs'), [], {
    ...database.env,
    BENCH_PULL_DIST: dist,
    BENCH_PULL_RUN_ID: queued.id,
    BENCH_PULL_TENANT_ID: tenant.id,
  })
  if (child.code !== 0) throw new Error(`the worker failed (${child.code}):\n${child.stderr.slice(-2000)}`)
  const { ms } = JSON.parse(child.stdout) as { ms: number }
  const run = (await withServices(database, (services) => services.snapshots.get(tenant.id, queued.id))) as RunView
  if (run.status !== 'Succeeded') throw new Error(`the pull ended ${run.status}: ${JSON.stringify(run.error)}`)
  return { run, ms, child, stored: await storedFigures(database, tenant.id) }
}

const near = (a: number, b: number) => Math.abs(a - b) < 0.01
const mb = (run: ChildRun) => `${run.maxRssMb.toFixed(0)} MB`
const childNote = (run: ChildRun) =>
  `the worker's process: ${run.seconds.toFixed(1)} s from start to exit, ${run.cpuSeconds.toFixed(1)} s of CPU, ` +
  `peak RSS ${mb(run)}`

async function pullFormat(
  scope: Scope,
  dist: string,
  database: BenchDatabase,
  estate: Estate,
  format: Format,
  s3: S3Client,
  endpoint: string,
): Promise<string[][]> {
  const periods = estate.formats[format].periods
  // The estate as first published, whatever an earlier run restated.
  for (const period of periods) await publishManifest(s3, format, period, 'exec-1')
  const tenant = await withServices(database, async (services) => {
    const { organisation, owner } = await services.organisations.create({
      name: 'Bench',
      ownerEmail: 'owner@bench.test',
      plan: 'enterprise',
    })
    const principal: Principal = {
      organisationId: organisation.id,
      actor: { type: 'User', id: owner.id, name: owner.email },
      isOwner: true,
      tenancyRoles: new Map(),
    }
    const created = await services.tenants.create(principal, {
      name: `AWS estate (${format})`,
      costSource: 'FocusExport',
      location: { type: 'S3', bucket: BUCKET, prefix: prefixOf(format), region: 'eu-west-1', ...KEY, endpoint },
    })
    return { id: created.id, principal }
  })
  const label = `${database.label}, ${format}`
  const rows: string[][] = []

  // 1. The first pull: every period.
  const first = await pull(scope, dist, database, tenant)
  const read = first.run.periods.reduce((sum, p) => sum + p.rows, 0)
  const wrong = periods.filter((p) => {
    const stored = first.stored.get(p.period)
    return !stored || !near(stored.total, p.totals['exec-1']) || stored.versionRows !== p.rows
  })
  const firstOk =
    first.run.periods.length === PERIODS && first.run.periods.every((p) => !p.replaced) && read === estate.rows
  const rate = read / (first.ms / 1000)
  note(
    `${label}, first pull: ${fmt.int(read)} rows of ${first.run.periods.length} periods in ${(first.ms / 1000).toFixed(1)} s, ` +
      `${fmt.int(first.run.stats.costRows)} cost rows written; ` +
      (wrong.length
        ? `PERIODS DIFFERENT FROM THE FILES: ${wrong.map((p) => p.period).join(', ')}`
        : 'every period sums as its files'),
  )
  note(`  ${childNote(first.child)}: ${fmt.int(read / first.child.cpuSeconds)} rows per CPU second`)
  rows.push([
    label,
    'first pull',
    `${(first.ms / 1000).toFixed(1)} s`,
    `${first.child.cpuSeconds.toFixed(1)} s`,
    `${fmt.int(rate)} rows/s`,
    mb(first.child),
    firstOk && wrong.length === 0 ? `${PERIODS} periods, sums as the files` : 'WRONG',
    `>= ${fmt.int(TARGET_ROWS_PER_SECOND)} rows/s, < ${TARGET_RSS_MB} MB`,
    rate >= TARGET_ROWS_PER_SECOND && first.child.maxRssMb < TARGET_RSS_MB && firstOk && wrong.length === 0
      ? 'met'
      : 'MISSED',
  ])

  // 2. Nothing changed: nothing read, nothing written.
  const second = await pull(scope, dist, database, tenant)
  const untouched = (before: Map<string, PeriodFigures>, after: Map<string, PeriodFigures>, except?: string) =>
    [...before].every(([period, b]) => {
      if (period === except) return true
      const a = after.get(period)
      return a && a.rows === b.rows && a.total === b.total && a.runId === b.runId
    })
  const secondOk =
    second.run.periods.length === 0 && second.run.stats.costRows === 0 && untouched(first.stored, second.stored)
  note(
    `${label}, unchanged pull: ${fmt.ms(second.ms)}, ${second.run.periods.length} periods, ` +
      `${second.run.stats.costRows} cost rows written; ${childNote(second.child)}`,
  )
  rows.push([
    label,
    'unchanged',
    fmt.ms(second.ms),
    `${second.child.cpuSeconds.toFixed(1)} s`,
    '',
    mb(second.child),
    secondOk ? 'no cost row written' : 'WROTE COSTS',
    `< ${TARGET_UNCHANGED_MS / 1000} s`,
    second.ms < TARGET_UNCHANGED_MS && secondOk ? 'met' : 'MISSED',
  ])

  // 3. One period restated: a new version's files, named by a new manifest.
  const restated = periods.find((p) => p.period === RESTATED)!
  await publishManifest(s3, format, restated, 'exec-2')
  const third = await pull(scope, dist, database, tenant)
  const after = third.stored.get(RESTATED)
  const onlyIt =
    third.run.periods.length === 1 && third.run.periods[0]!.billingPeriod === RESTATED && third.run.periods[0]!.replaced
  const replacedOk = !!after && near(after.total, restated.totals['exec-2']) && after.runId === third.run.id
  const othersOk = untouched(first.stored, third.stored, RESTATED)
  note(
    `${label}, ${RESTATED} restated: ${(third.ms / 1000).toFixed(1)} s; periods of the run: ` +
      `${third.run.periods.map((p) => `${p.billingPeriod} (${fmt.int(p.rows)} rows, replaced: ${p.replaced})`).join(', ')}; ` +
      `its sum ${after?.total.toFixed(2)} (the new files: ${restated.totals['exec-2'].toFixed(2)}, before: ` +
      `${restated.totals['exec-1'].toFixed(2)}); the ${PERIODS - 1} others: ${othersOk ? 'rows, sums and versions as before' : 'CHANGED'}`,
  )
  note(`  ${childNote(third.child)}`)
  rows.push([
    label,
    `${RESTATED} restated`,
    `${(third.ms / 1000).toFixed(1)} s`,
    `${third.child.cpuSeconds.toFixed(1)} s`,
    `${fmt.int(restated.rows / (third.ms / 1000))} rows/s`,
    mb(third.child),
    onlyIt && replacedOk && othersOk ? `only ${RESTATED} rewritten` : 'WRONG',
    'only that period',
    onlyIt && replacedOk && othersOk ? 'met' : 'MISSED',
  ])
  return rows
}

/** s3rver on `directory` in a child process of its own (bench/focus-pull-s3rver.mjs); its port. */
async function startS3rver(scope: Scope, directory: string): Promise<number> {
  const child = spawn(process.execPath, [join(BENCH_DIR, 'focus-pull-s3rver.mjs')], {
    env: { ...process.env, BENCH_S3RVER_DIR: directory, BENCH_S3RVER_BUCKET: BUCKET },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  scope.defer(`stop s3rver (pid ${child.pid})`, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((done) => child.once('exit', done))
    if (child.connected) child.send('stop')
    else child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(timer)
  })
  return new Promise<number>((resolvePort, reject) => {
    child.once('message', (m) => resolvePort((m as { port: number }).port))
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before listening`)))
    child.once('error', reject)
  })
}

export const focusPullBenchmark: Benchmark = {
  name: 'focus-pull',
  description: `snapshot of a FocusExport tenant pulling ${fmt.int(ROWS)} rows of AWS FOCUS exports from S3 (s3rver)`,
  async run(scope) {
    heading(
      `FOCUS pull of ${fmt.int(ROWS)} rows in ${PERIODS} billing periods from S3 (targets: first pull >= ` +
        `${fmt.int(TARGET_ROWS_PER_SECOND)} rows/s with a peak RSS < ${TARGET_RSS_MB} MB; unchanged pull < ` +
        `${TARGET_UNCHANGED_MS / 1000} s; a restatement rewrites only its period)`,
    )
    const port = await startS3rver(scope, s3rverFolder(ROWS))
    const endpoint = `http://127.0.0.1:${port}`
    const s3 = new S3Client({ region: 'eu-west-1', endpoint, forcePathStyle: true, credentials: KEY })
    scope.defer('close the S3 client', () => s3.destroy())

    let estate = keptEstate(ROWS)
    if (estate)
      note(
        `The estate kept from an earlier run in ${dirname(estate.directory)} (written in ${estate.generatedSeconds.toFixed(0)} s)`,
      )
    else {
      note(`Writing the estate into ${estateFolder(ROWS)} (kept for the next run; not timed):`)
      estate = await writeEstate(s3, ROWS, note)
    }
    for (const format of SELECTED) {
      const f = estate.formats[format]
      note(`  ${format}: ${fmt.int(estate.rows)} rows in ${f.files} files, ${(f.bytes / 2 ** 20).toFixed(0)} MB`)
    }
    const main = await buildCommandLine(scope)
    const rows: string[][] = []
    for (const db of benchDatabases()) {
      for (const format of SELECTED) {
        // A database of its own per format: the daily schedule sees no other tenant.
        const part = scope.child()
        try {
          const database = await db.open(part)
          const env = { ...database.env, COSTWATCH_OUTBOUND_ALLOW: '127.0.0.1/32' }
          rows.push(...(await pullFormat(part, dirname(main), { ...database, env }, estate, format, s3, endpoint)))
        } finally {
          await part.close()
        }
      }
    }
    printTable(
      ['database, format', 'pull', 'time', 'CPU time', 'rate', 'peak RSS', 'check', 'target', ''],
      rows,
      [2, 3, 4, 5],
    )
    // The targets are SQLite's; PostgreSQL's figures are printed for information.
    return { met: rows.every((r) => !r[0]!.startsWith('SQLite') || r.at(-1) === 'met') }
  },
}
