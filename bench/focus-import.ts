/**
 * `costwatch import focus` of a realistic FOCUS estate: 1,000 resources x 400 days (about 544,000 rows, 96
 * columns, 1.4 KB a row: 750 MB of CSV in 14 monthly gzip files, as an Azure FocusCost export is split), through
 * the real command line in a child process, so that its peak RSS is its own. Targets: at least 50,000 rows/s and
 * a peak RSS under 300 MB, whatever the size: BENCH_FOCUS_SCALES (1,3) repeats it with 3x the resources, where
 * the RSS must stay the same.
 *
 * What is timed: the built command line (`dist/main.js`, what `costwatch` runs) from start to exit: Node
 * starting, the import, the final transaction. Not timed: building it, writing the files
 * (test/support/focus-export.ts) and creating the tenant. The RSS of the command line doing nothing (`--help`) is
 * printed beside it: the app's modules are part of every figure. BENCH_CPU_PROF=<dir> writes the child's CPU
 * profile there.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { sql } from 'kysely'
import { writeFocusExport } from '../test/support/focus-export.js'
import {
  BENCH_DIR,
  type BenchDatabase,
  type Benchmark,
  benchDatabases,
  benchTenant,
  fmt,
  heading,
  note,
  printTable,
  REPO_DIR,
  type Scope,
  withServices,
} from './lib.js'
import { intFromEnv, secondsSince } from './support.js'

const RESOURCES = intFromEnv('BENCH_FOCUS_RESOURCES', 1000)
const DAYS = intFromEnv('BENCH_FOCUS_DAYS', 400)
const SCALES = (process.env.BENCH_FOCUS_SCALES || '1,3').split(',').map((s) => {
  const n = Number(s)
  if (!Number.isInteger(n) || n <= 0) throw new Error(`BENCH_FOCUS_SCALES takes positive integers, got "${s}"`)
  return n
})
const LAST_DAY = '2026-02-28'
const TARGET_ROWS_PER_SECOND = 50_000
const TARGET_RSS_MB = 300

export interface ChildRun {
  code: number | null
  seconds: number
  maxRssMb: number
  /** User + system CPU seconds of the child. */
  cpuSeconds: number
  stdout: string
  stderr: string
}

/**
 * The command line as a user runs it (`costwatch`, the package's `dist/main.js`), built with tsc into a temporary
 * folder (not timed), beside a link to node_modules. Through tsx the same command takes 90 MB more before it reads
 * a row (its compiler and the sources it compiled).
 */
export async function buildCommandLine(scope: Scope): Promise<string> {
  const dir = scope.tempDir('build')
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  symlinkSync(join(REPO_DIR, 'node_modules'), join(dir, 'node_modules'))
  const tsc = join(REPO_DIR, 'node_modules', 'typescript', 'bin', 'tsc')
  const built = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', join(dir, 'dist')], {
    cwd: REPO_DIR,
    encoding: 'utf8',
  })
  if (built.status !== 0) throw new Error(`tsc failed:\n${built.stdout}${built.stderr}`)
  return join(dir, 'dist', 'main.js')
}

/** Runs the built command line and measures it. */
export async function runCommandLine(
  scope: Scope,
  main: string,
  args: string[],
  env: Record<string, string>,
): Promise<ChildRun> {
  const rssFile = join(scope.tempDir('rss'), 'max-rss')
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', '--cpu-prof-dir', resolve(process.env.BENCH_CPU_PROF)]
    : []
  const started = performance.now()
  const child = spawn(
    process.execPath,
    [...profile, '--import', pathToFileURL(join(BENCH_DIR, 'max-rss.mjs')).href, main, ...args],
    {
      cwd: REPO_DIR,
      env: { ...process.env, ...env, BENCH_MAX_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  scope.defer(`stop the command line (pid ${child.pid})`, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => {
    stdout += d
  })
  child.stderr.on('data', (d) => {
    stderr += d
  })
  const code = await new Promise<number | null>((done, fail) => {
    child.on('error', fail)
    child.on('close', done)
  })
  const seconds = secondsSince(started)
  // No figures when it did not exit normally (a signal, or V8 aborting out of heap): say how it ended.
  if (!existsSync(rssFile))
    throw new Error(
      `${main} ended by ${child.signalCode ?? `code ${code}`} after ${seconds.toFixed(0)} s, ` +
        `without its figures:\n${stderr.slice(-2000)}`,
    )
  const maxRssMb = Number(readFileSync(rssFile, 'utf8')) / 2 ** 20
  const cpuSeconds = Number(readFileSync(`${rssFile}.cpu`, 'utf8'))
  return { code, seconds, maxRssMb, cpuSeconds, stdout, stderr }
}

async function importOnce(scope: Scope, main: string, database: BenchDatabase, scale: number): Promise<string[]> {
  const resources = RESOURCES * scale
  const dir = scope.tempDir('focus')
  const generating = performance.now()
  const focus = await writeFocusExport(dir, { resources, days: DAYS, lastDay: LAST_DAY, gzip: true })
  const bytes = focus.files.reduce((sum, f) => sum + readFileSync(f).length, 0)
  note(
    `${database.label}, ${fmt.int(resources)} resources x ${DAYS} days: ${fmt.int(focus.rows)} rows in ` +
      `${focus.files.length} gzip files (${(bytes / 2 ** 20).toFixed(0)} MB), written in ` +
      `${secondsSince(generating).toFixed(1)} s (not timed)`,
  )
  const tenantId = await withServices(database, async (services) => {
    const { tenant } = await benchTenant(services, {
      organisation: 'Bench',
      ownerEmail: 'owner@bench.test',
      tenant: 'FOCUS estate',
      cloudTenantId: `bench-focus-${scale}.onmicrosoft.com`,
    })
    return tenant.id
  })

  const run = await runCommandLine(
    scope,
    main,
    ['import', 'focus', '--tenant', tenantId, ...focus.files, '--json'],
    database.env,
  )
  if (run.code !== 0) throw new Error(`the import failed (${run.code}):\n${run.stderr.slice(-2000)}`)
  const out = JSON.parse(run.stdout) as { rowsRead: number; totalCost: number; run: { stats: { costRows: number } } }
  const stored = await withServices(database, async (_s, { db }) => {
    const r = await sql<{ n: number; total: number }>`
      select count(*) as n, sum(cost) as total from daily_costs join cost_resources on cost_resources.id = resource_id
      where tenant_id = ${tenantId}`.execute(db.kysely)
    return { rows: Number(r.rows[0]!.n), total: Number(r.rows[0]!.total) }
  })
  const totalOk = Math.abs(stored.total - focus.totalCost) < 0.01 && stored.rows === focus.costRows
  note(
    `  imported ${fmt.int(out.rowsRead)} rows into ${fmt.int(stored.rows)} cost rows, total ${stored.total.toFixed(2)} ` +
      `(the files: ${focus.totalCost.toFixed(2)}) ${totalOk ? 'as expected' : 'DIFFERENT FROM THE FILES'}`,
  )
  const rate = out.rowsRead / run.seconds
  // Where the time goes: the last progress line (at the end of the last file) gives the reading rate; what follows
  // it is the final transaction (inventory, moving the staged costs into place) and the exit.
  const lastProgress = run.stderr.trim().split('\n').at(-1) ?? ''
  const readingRate = Number(/, (\d+) rows\/s$/.exec(lastProgress)?.[1] ?? Number.NaN)
  const readingSeconds = out.rowsRead / readingRate
  note(`  its last progress line: ${lastProgress}`)
  note(
    `  reading, checking and staging: ${readingSeconds.toFixed(1)} s; startup, final transaction and exit: ` +
      `${(run.seconds - readingSeconds).toFixed(1)} s`,
  )
  return [
    database.label,
    `${scale}x`,
    fmt.int(out.rowsRead),
    `${run.seconds.toFixed(1)} s`,
    `${run.cpuSeconds.toFixed(1)} s`,
    fmt.int(rate),
    fmt.int(out.rowsRead / run.cpuSeconds),
    `${run.maxRssMb.toFixed(0)} MB`,
    rate >= TARGET_ROWS_PER_SECOND && run.maxRssMb < TARGET_RSS_MB && totalOk ? 'met' : 'MISSED',
  ]
}

export const focusImportBenchmark: Benchmark = {
  name: 'focus-import',
  description: `costwatch import focus of ${RESOURCES} resources x ${DAYS} days of gzip FOCUS files: rows/s and peak RSS`,
  async run(scope) {
    heading(
      `FOCUS import through the command line (targets: >= ${fmt.int(TARGET_ROWS_PER_SECOND)} rows/s, peak RSS < ${TARGET_RSS_MB} MB)`,
    )
    const main = await buildCommandLine(scope)
    const rows: string[][] = []
    let met = true
    for (const db of benchDatabases()) {
      const database = await db.open(scope)
      if (rows.length === 0) {
        const idle = await runCommandLine(scope, main, ['--help'], database.env)
        note(
          `The command line doing nothing (--help): peak RSS ${idle.maxRssMb.toFixed(0)} MB, ${idle.seconds.toFixed(1)} s`,
        )
      }
      for (const scale of SCALES) {
        const part = scope.child()
        const row = await importOnce(part, main, database, scale).finally(() => part.close())
        rows.push(row)
        // The targets are SQLite's; PostgreSQL's figures are printed for information.
        if (database.dialect === 'sqlite' && row.at(-1) !== 'met') met = false
      }
    }
    printTable(
      ['database', 'size', 'rows', 'time', 'CPU time', 'rows/s', 'rows per CPU s', 'peak RSS', 'target'],
      rows,
      [2, 3, 4, 5, 6, 7],
    )
    return { met }
  },
}
