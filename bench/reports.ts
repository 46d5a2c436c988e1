/**
 * A cost-by-resource report of 1,000,000 rows (BENCH_REPORT_ROWS) on SQLite: each format rendered in a process of
 * its own (bench/report-render.mjs, plain node on the compiled service), so each peak RSS is that format's alone,
 * then all three in one pass as a run does. Rows are read in keyset batches over daily_costs' key and the
 * renderers stream (the XLSX waits after each batch until the zip has taken its XML, see render/xlsx.ts): the
 * live heap stays near 30 MB whatever the rows; the PDF lists the largest 1,000 rows and
 * sums the others in one line. Target: peak RSS under 300 MB each, with the heap setting the README gives report
 * workers (--max-old-space-size=160: V8 otherwise lets garbage grow the heap lazily); the one-pass run is shown
 * with V8's default heap too. Beside them, the floor: the same batches read and discarded, no file written.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import Database from 'better-sqlite3'
import { costByDimension } from '../src/features/reports/kinds/cost-by-dimension.js'
import { reportSource } from '../src/features/reports/run.js'
import {
  BENCH_DIR,
  type Benchmark,
  benchTenant,
  fmt,
  printTable,
  REPO_DIR,
  sqliteDatabase,
  withServices,
} from './lib.js'
import { intFromEnv, secondsSince } from './support.js'

const TARGET_RSS_MB = 300
/** The heap cap the README gives processes that render large reports. */
const WORKER_HEAP = '--max-old-space-size=160'
const run = promisify(execFile)

interface Rendered {
  format: string
  heap?: string
  rows: number
  seconds: number
  peakRssMb: number
  bytes: number
}

/** `rows` resources in 100 groups, each with one cost row on 2026-03-01, written with one prepared statement. */
export function seed(file: string, tenantId: string, rows: number): void {
  const sqlite = new Database(file)
  const at = '2026-03-01T00:00:00.000Z'
  sqlite.transaction(() => {
    sqlite
      .prepare(
        `insert into subscriptions (tenant_id, subscription_id, display_name, state, currency, first_seen_at, last_seen_at)
         values (?, 'sub-bench', 'Bench', 'Enabled', 'USD', ?, ?)`,
      )
      .run(tenantId, at, at)
    const group = sqlite.prepare(
      `insert into resource_groups (id, tenant_id, subscription_id, name, name_lower, arm_id, location, tags, first_seen_at, last_seen_at)
       values (?, ?, 'sub-bench', ?, ?, ?, 'westeurope', '{}', ?, ?)`,
    )
    for (let g = 0; g < 100; g++)
      group.run(
        `00000000-0000-4000-8000-${String(g).padStart(12, '0')}`,
        tenantId,
        `rg-${g}`,
        `rg-${g}`,
        `/subscriptions/sub-bench/resourceGroups/rg-${g}`,
        at,
        at,
      )
    const resource = sqlite.prepare(
      `insert into resources (id, tenant_id, subscription_id, resource_group_id, resource_group_name, arm_id, arm_id_lower,
         name, resource_type, location, tags, sku, state, properties, first_seen_at, last_seen_at)
       values (?, ?, 'sub-bench', ?, ?, ?, ?, ?, 'Microsoft.Compute/virtualMachines', 'westeurope', '{"env":"prod"}', null, null, '{}', ?, ?)`,
    )
    const numberResource = sqlite.prepare('insert into cost_resources (tenant_id, resource_key) values (?, ?)')
    const cost = sqlite.prepare(
      `insert into daily_costs (month, resource_id, date, meter_id, subscription_id, resource_group_key, meter_name, service_name, cost, currency)
       values ('2026-03', ?, '2026-03-01', 'm', 'sub-bench', ?, null, 'Virtual Machines', ?, 'USD')`,
    )
    for (let i = 0; i < rows; i++) {
      const g = i % 100
      const name = `vm-${String(i).padStart(7, '0')}`
      const armId = `/subscriptions/sub-bench/resourceGroups/rg-${g}/providers/Microsoft.Compute/virtualMachines/${name}`
      resource.run(
        `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        tenantId,
        `00000000-0000-4000-8000-${String(g).padStart(12, '0')}`,
        `rg-${g}`,
        armId,
        armId.toLowerCase(),
        name,
        at,
        at,
      )
      const resourceId = numberResource.run(tenantId, armId.toLowerCase()).lastInsertRowid
      cost.run(resourceId, `rg-${g}`, ((i * 7919) % 100_000) / 100)
    }
  })()
  sqlite.close()
}

export const reportsBenchmark: Benchmark = {
  name: 'reports',
  description: 'a 1,000,000-row cost-by-resource report as CSV, XLSX and PDF: time and peak RSS of each',
  async run(scope) {
    const rows = intFromEnv('BENCH_REPORT_ROWS', 1_000_000)
    const database = sqliteDatabase(scope)
    const tenantId = await withServices(database, async (s) => {
      const { tenant } = await benchTenant(s, {
        organisation: 'Bench',
        ownerEmail: 'bench@example.test',
        tenant: 'Bench',
        cloudTenantId: 'bench.onmicrosoft.com',
      })
      return tenant.id
    })
    let started = performance.now()
    seed(database.url, tenantId, rows)
    process.stdout.write(
      `seeded ${fmt.int(rows)} resources with their cost rows in ${secondsSince(started).toFixed(1)} s\n`,
    )

    // The floor: the batches read and folded into rows, nothing rendered.
    const floor = await withServices(database, async (_s, { db }) => {
      const parsed = costByDimension.parse({ dimension: 'Resource', period: 'Last30Days' })
      if (!parsed.ok) throw new Error('bad parameters')
      const period = costByDimension.period(parsed.value, '2026-03-10')
      const data = costByDimension.produce(parsed.value, {
        tenancyIds: [tenantId],
        period,
        source: reportSource(db.kysely, db.dialect),
      })
      started = performance.now()
      let n = 0
      for await (const batch of data.rows) n += batch.length
      return { rows: n, seconds: secondsSince(started) }
    })

    // The service compiled as production runs it (under tsx the loader alone holds ~150 MB of RSS).
    const build = join(REPO_DIR, '.bench-build')
    scope.defer('remove the compiled service', () => rmSync(build, { recursive: true, force: true }))
    await run(process.execPath, [
      join(REPO_DIR, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(REPO_DIR, 'tsconfig.build.json'),
      '--outDir',
      build,
      '--sourceMap',
      'false',
    ])
    const results: Rendered[] = []
    const runs: [string, string[]][] = [
      ['csv', [WORKER_HEAP]],
      ['xlsx', [WORKER_HEAP]],
      ['pdf', [WORKER_HEAP]],
      ['all', [WORKER_HEAP]],
      ['all', []],
    ]
    for (const [format, flags] of runs) {
      const out = join(scope.tempDir(`report-${format}`), 'files')
      mkdirSync(out)
      const { stdout } = await run(
        process.execPath,
        [...flags, join(BENCH_DIR, 'report-render.mjs'), build, database.url, tenantId, format, out],
        { maxBuffer: 1 << 20 },
      )
      results.push({
        ...(JSON.parse(stdout.trim().split('\n').pop()!) as Rendered),
        heap: flags.length ? '160 MB' : 'default',
      })
    }
    printTable(
      ['format', 'heap', 'rows', 'seconds', 'rows/s', 'peak RSS', 'file size', `target RSS < ${TARGET_RSS_MB} MB`],
      [
        [
          'read only (floor)',
          '',
          fmt.int(floor.rows),
          floor.seconds.toFixed(1),
          fmt.int(floor.rows / floor.seconds),
          '',
          '',
          '',
        ],
        ...results.map((r) => [
          r.format === 'all' ? 'all three, one pass' : r.format,
          r.heap ?? '',
          fmt.int(r.rows),
          r.seconds.toFixed(1),
          fmt.int(r.rows / r.seconds),
          `${r.peakRssMb.toFixed(0)} MB`,
          `${(r.bytes / 1e6).toFixed(1)} MB`,
          r.heap === 'default' ? '(information)' : r.peakRssMb < TARGET_RSS_MB ? 'met' : 'MISSED',
        ]),
      ],
      [2, 3, 4, 5, 6],
    )
    const targeted = results.filter((r) => r.heap !== 'default')
    return { met: targeted.every((r) => r.peakRssMb < TARGET_RSS_MB && r.rows === rows) }
  },
}
