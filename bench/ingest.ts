/**
 * The ingestion target of performance.md: rows per second of a simulated snapshot (20,000 resources x 400 days,
 * 10.9 million daily cost rows) through Costwatch's cost store, next to a raw better-sqlite3 prepared upsert
 * of the same rows in one transaction, in the same run: with their text resource ids (tenant and ARM id), as
 * performance.md measured its baseline, into a table of daily_costs' shape before its resources were numbered;
 * and, for information, into today's daily_costs (see RawTable).
 *
 * What is timed:
 * - Costwatch: exactly what a snapshot run does with its costs (src/features/snapshots/collect.ts): `stage()` of
 *   each batch the connector yields (one per day, each outside any transaction, as a run does while it collects),
 *   then the final transaction's `mergeStaged()` and `clearStaged()`, committed.
 * - Raw: one prepared `INSERT ... ON CONFLICT DO UPDATE` per row, all in one transaction, committed.
 * - Not timed: generating the rows. The connector's rows are generated once, before both, and kept in a compact
 *   columnar form (12 bytes a row; the memory it takes is printed); each day's batch becomes
 *   `DailyCostRow` objects again just before it is written, outside the timed part.
 *
 * BENCH_INGEST_RESOURCES (20000) and BENCH_INGEST_DAYS (400) shrink it for quick runs; BENCH_INGEST_ROUNDS (1)
 * repeats both, alternating, and compares the best of each; BENCH_INGEST_RAW_ORDER (key) is explained below.
 * PostgreSQL (when in BENCH_DATABASES) gets the Costwatch path only, for information, at BENCH_INGEST_PG_DAYS
 * (31, a snapshot run's longest window) days.
 */
import { randomUUID } from 'node:crypto'
import SqliteDatabase from 'better-sqlite3'
import { sql } from 'kysely'
import { loadConfig, sqliteFileOf } from '../src/config.js'
import { createSimulatedConnector } from '../src/connectors/simulated/index.js'
import type { DailyCostRow, TenantConnection } from '../src/connectors/types.js'
import { resourceKeyOf } from '../src/features/costs/keys.js'
import { rebuildSeries } from '../src/features/costs/rebuild.js'
import { currentResourceTags } from '../src/features/inventory/store.js'
import { systemClock } from '../src/platform/clock.js'
import { addDays } from '../src/platform/time.js'
import {
  type BenchDatabase,
  type Benchmark,
  fmt,
  heading,
  note,
  postgresDatabase,
  printTable,
  type Scope,
  SETTINGS,
  sqliteDatabase,
  withServices,
} from './lib.js'
import { intFromEnv, memoryNote, secondsSince } from './support.js'

const RESOURCES = intFromEnv('BENCH_INGEST_RESOURCES', 20_000)
const DAYS = intFromEnv('BENCH_INGEST_DAYS', 400)
const PG_DAYS = Math.min(DAYS, intFromEnv('BENCH_INGEST_PG_DAYS', 31))
/** Rounds of both measurements, alternating; the best of each is compared (the machine may be shared). */
const ROUNDS = intFromEnv('BENCH_INGEST_ROUNDS', 1)
/** The last day of the window: fixed, so every run writes the same rows. */
const LAST_DAY = '2026-02-28'
/** performance.md: Costwatch's upsert at least 50% of the raw prepared upsert of the same rows. */
const TARGET_RATIO = 0.5

// ---------------------------------------------------------------------------------------------------------------
// The rows, generated once

/** One day's batch: per row an index into `templates` (everything but date and cost) and the cost. */
interface ColumnarBatch {
  date: string
  template: Uint32Array
  cost: Float64Array
}

interface GeneratedRows {
  templates: Omit<DailyCostRow, 'date' | 'cost'>[]
  batches: ColumnarBatch[]
  rows: number
  /** Distinct (resource, date, meter) keys: what daily_costs must hold afterwards. */
  keys: number
  totalCost: number
}

async function generate(resources: number, days: number): Promise<GeneratedRows> {
  const connector = createSimulatedConnector({ resourceCount: resources })
  const conn: TenantConnection = {
    tenantId: randomUUID(),
    cloudTenantId: 'bench-ingest.onmicrosoft.com',
    credentialType: 'ManagedIdentity',
    clientId: null,
    clientSecret: null,
    certificateThumbprint: null,
  }
  const window = { from: addDays(LAST_DAY, -(days - 1)), to: LAST_DAY }
  const templateIndex = new Map<string, number>()
  const templates: GeneratedRows['templates'] = []
  const batches: ColumnarBatch[] = []
  let rows = 0
  let keys = 0
  let totalCost = 0
  for await (const batch of connector.dailyCosts(conn, window, { clock: systemClock })) {
    const template = new Uint32Array(batch.length)
    const cost = new Float64Array(batch.length)
    const seen = new Set<string>()
    batch.forEach((r, i) => {
      const key = `${resourceKeyOf(r.resourceArmId)}\u0000${r.meterId}`
      let t = templateIndex.get(key)
      if (t === undefined) {
        t = templates.length
        // A literal, not `{ date, cost, ...rest } = r`: rest objects are dictionary-mode (see materialise).
        templates.push({
          subscriptionId: r.subscriptionId,
          resourceArmId: r.resourceArmId,
          resourceGroupName: r.resourceGroupName,
          meterId: r.meterId,
          meterName: r.meterName,
          chargeCategory: r.chargeCategory,
          chargeClass: r.chargeClass,
          serviceName: r.serviceName,
          currency: r.currency,
        })
        templateIndex.set(key, t)
      }
      const c = r.cost
      template[i] = t
      cost[i] = c
      totalCost += c
      if (!seen.has(key)) {
        seen.add(key)
        keys++
      }
    })
    batches.push({ date: batch[0]?.date ?? window.from, template, cost })
    rows += batch.length
  }
  return { templates, batches, rows, keys, totalCost }
}

/**
 * A batch as the connector yielded it: objects built as an object literal, as every connector builds its rows.
 * (Copies made with `{ ...template }` of a template made by `{ date, cost, ...rest } = row` are dictionary-mode
 * objects in V8, every property read a hash lookup: staging took 16.0 s instead of 5.9 s for 2.7 million of them.)
 */
function materialise(data: GeneratedRows, batch: ColumnarBatch): DailyCostRow[] {
  const out = new Array<DailyCostRow>(batch.template.length)
  for (let i = 0; i < out.length; i++) {
    const t = data.templates[batch.template[i]!]!
    out[i] = {
      date: batch.date,
      subscriptionId: t.subscriptionId,
      resourceArmId: t.resourceArmId,
      resourceGroupName: t.resourceGroupName,
      meterId: t.meterId,
      meterName: t.meterName,
      chargeCategory: t.chargeCategory,
      chargeClass: t.chargeClass,
      serviceName: t.serviceName,
      cost: batch.cost[i]!,
      currency: t.currency,
    }
  }
  return out
}

// ---------------------------------------------------------------------------------------------------------------
// The two ways of writing them

interface Timing {
  label: string
  /** Seconds of each timed phase, in order, and the CPU seconds of each. */
  phases: { name: string; seconds: number; cpuSeconds: number }[]
  seconds: number
  /**
   * CPU seconds of this process over the timed phases (SQLite runs in it, synchronously): on a shared machine the
   * wall clock also counts the time other processes held the cores, the CPU time does not.
   */
  cpuSeconds: number
}

/** CPU seconds (user and system) of this process since `start`, a `process.cpuUsage()`. */
function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1e6
}

/** Costwatch's cost store, as a snapshot run calls it; checks what landed in daily_costs. */
async function costwatchIngest(database: BenchDatabase, data: GeneratedRows, days: number): Promise<Timing> {
  return withServices(database, async (services, { db }) => {
    const costs = services.costIngest
    const tenantId = randomUUID()
    const runId = randomUUID()
    const stagingKey = `${runId}:1`
    await costs.clearStaged(runId)
    let stageMs = 0
    let stageCpu = 0
    for (const batch of data.batches.slice(0, days)) {
      const rows = materialise(data, batch)
      const started = performance.now()
      const cpu = process.cpuUsage()
      await costs.stage(stagingKey, tenantId, rows)
      stageCpu += cpuSince(cpu)
      stageMs += performance.now() - started
    }
    // The final transaction of a snapshot run, its two cost statements timed apart; the rest is the commit. The
    // merge rewrites the daily series of the run's window too, as a snapshot run's does.
    const window = { tenantId, from: data.batches[0]!.date, to: data.batches[days - 1]!.date }
    const started = performance.now()
    const cpu = process.cpuUsage()
    let mergeMs = 0
    let clearMs = 0
    let mergeCpu = 0
    let clearCpu = 0
    const merged = await db.kysely.transaction().execute(async (trx) => {
      let at = performance.now()
      let atCpu = process.cpuUsage()
      const n = await costs.mergeStaged(trx, stagingKey, window)
      mergeMs = performance.now() - at
      mergeCpu = cpuSince(atCpu)
      at = performance.now()
      atCpu = process.cpuUsage()
      await costs.clearStaged(runId, trx)
      clearMs = performance.now() - at
      clearCpu = cpuSince(atCpu)
      return n
    })
    const commitMs = performance.now() - started - mergeMs - clearMs
    const commitCpu = cpuSince(cpu) - mergeCpu - clearCpu

    const check = await sql<{ n: number; total: number }>`
      select count(*) as n, sum(cost) as total from daily_costs join cost_resources on cost_resources.id = resource_id
      where tenant_id = ${tenantId}`.execute(db.kysely)
    // Staged rows wait in cost_staging on PostgreSQL, in the connection's TEMP tables on SQLite: none must be left.
    const left = await sql<{ n: number }>`select (select count(*) from cost_staging) + ${
      database.dialect === 'sqlite' ? sql`(select count(*) from temp.sqlite_master where type = 'table')` : sql`0`
    } as n`.execute(db.kysely)
    const expected = days === data.batches.length ? data.keys : null
    const got = Number(check.rows[0]!.n)
    if (expected !== null && got !== expected) throw new Error(`daily_costs holds ${got} rows, expected ${expected}`)
    if (merged !== got) note(`(mergeStaged reported ${merged} rows for ${got} stored)`)
    if (Number(left.rows[0]!.n) !== 0) throw new Error('the staged rows were not cleared')
    const series = await sql<{ total: number }>`
      select sum(cost) as total from cost_series where tenant_id = ${tenantId} and level = 'tenant'`.execute(db.kysely)
    const drift = Math.abs(Number(series.rows[0]!.total) - Number(check.rows[0]!.total))
    if (drift > 1e-6 * Math.abs(Number(check.rows[0]!.total))) throw new Error('the tenant series is not its rows sum')
    // What the series part of the merge costs, on its own: the same rewrite again, untimed above.
    // (A rewrite of series already written, as a re-collection of the window does: it also deletes the old ones
    // and starts the running totals from their bases, which a tenant's first costs skip.)
    const seriesStarted = performance.now()
    const seriesCpu = process.cpuUsage()
    await db.kysely
      .transaction()
      .execute((trx) => rebuildSeries(trx, currentResourceTags, tenantId, window.from, window.to))
    note(
      `rewriting the daily series of the window again, alone, as a re-collection would: ` +
        `${secondsSince(seriesStarted).toFixed(1)} s (CPU ${cpuSince(seriesCpu).toFixed(1)} s)`,
    )
    return {
      label: `Costwatch (${database.label})`,
      phases: [
        { name: 'stage', seconds: stageMs / 1000, cpuSeconds: stageCpu },
        { name: 'merge', seconds: mergeMs / 1000, cpuSeconds: mergeCpu },
        { name: 'clear', seconds: clearMs / 1000, cpuSeconds: clearCpu },
        { name: 'commit', seconds: commitMs / 1000, cpuSeconds: commitCpu },
      ],
      seconds: (stageMs + mergeMs + clearMs + commitMs) / 1000,
      cpuSeconds: stageCpu + mergeCpu + clearCpu + commitCpu,
    }
  })
}

/**
 * The order the raw upsert writes the rows in: `key` (default), sorted by daily_costs' primary key
 * (resource, date, meter), the fastest order for SQLite's B-trees and so the strict baseline; `connector`, day
 * after day as the connector yields them, where each day's rows land on pages scattered over the whole primary
 * key index (measured here at 100 days: 22,600 rows/s against ~135,000 in key order, and worse as it grows).
 */
const RAW_ORDER = process.env.BENCH_INGEST_RAW_ORDER || 'key'
if (RAW_ORDER !== 'key' && RAW_ORDER !== 'connector') {
  throw new Error(`BENCH_INGEST_RAW_ORDER takes key or connector, got "${RAW_ORDER}"`)
}

/** Calls `row` for every generated row in primary-key order: resource key, then date, then meter id. */
function inKeyOrder(data: GeneratedRows, row: (template: number, date: string, cost: number) => void): void {
  const days = data.batches.length
  const costs = new Float64Array(data.templates.length * days).fill(Number.NaN)
  data.batches.forEach((b, d) => {
    for (let i = 0; i < b.template.length; i++) costs[b.template[i]! * days + d] = b.cost[i]!
  })
  const keyOf = (t: number) => resourceKeyOf(data.templates[t]!.resourceArmId)
  const order = data.templates.map((_, t) => t)
  const keys = order.map(keyOf)
  order.sort((a, b) => {
    const ka = keys[a]!
    const kb = keys[b]!
    if (ka !== kb) return ka < kb ? -1 : 1
    const ma = data.templates[a]!.meterId
    const mb = data.templates[b]!.meterId
    return ma < mb ? -1 : ma > mb ? 1 : 0
  })
  for (let start = 0; start < order.length; ) {
    let end = start + 1
    while (end < order.length && keys[order[end]!] === keys[order[start]!]) end++
    for (let d = 0; d < days; d++) {
      for (let k = start; k < end; k++) {
        const t = order[k]!
        const cost = costs[t * days + d]!
        if (!Number.isNaN(cost)) row(t, data.batches[d]!.date, cost)
      }
    }
    start = end
  }
}

/**
 * The tables a raw upsert writes:
 * - `text-ids`, the target's baseline (performance.md measured it "with text resource ids"): the rows as the
 *   connector gives them, keyed by tenant and lower-cased ARM id, into a table of daily_costs' shape before its
 *   resources were numbered (migration 0023), made in the same database, 16 KB pages;
 * - `numbered`, for information: into today's daily_costs, keyed by the resource's number, the resources numbered
 *   beforehand and found in a map (not timed), which Costwatch's merge does within its time.
 */
type RawTable = 'text-ids' | 'numbered'

/** A raw prepared upsert per row into daily_costs or its shape with text ids (see RawTable), in one transaction. */
async function rawIngest(database: BenchDatabase, data: GeneratedRows, table: RawTable): Promise<Timing> {
  await withServices(database, async () => {}) // the same migrations: the same table and indexes
  const raw = new SqliteDatabase(sqliteFileOf(database.url))
  try {
    // As openDatabase() sets them.
    raw.pragma('journal_mode = WAL')
    raw.pragma(`synchronous = ${loadConfig(database.env).sqliteSynchronous}`) // COSTWATCH_SQLITE_SYNCHRONOUS
    const tenantId = randomUUID()
    const columns = `date, meter_id, charge_category, charge_class, subscription_id, resource_group_key, meter_name,
      service_name, cost, currency`
    const update = `subscription_id = excluded.subscription_id, resource_group_key = excluded.resource_group_key,
      meter_name = excluded.meter_name, service_name = excluded.service_name, cost = excluded.cost,
      currency = excluded.currency`
    // The resources numbered first, in key order, as a merge numbers them (for `numbered`; not timed).
    const resourceIds = new Map<string, number>()
    let upsert: SqliteDatabase.Statement
    if (table === 'text-ids') {
      raw.exec(`create table raw_daily_costs (tenant_id text not null, resource_key text not null, date text not null,
        meter_id text not null, charge_category text not null, charge_class text not null,
        subscription_id text not null, resource_group_key text not null, meter_name text, service_name text not null,
        cost real not null, currency text not null,
        primary key (tenant_id, resource_key, date, meter_id, charge_category, charge_class)) without rowid`)
      upsert = raw.prepare(`insert into raw_daily_costs (tenant_id, resource_key, ${columns})
        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        on conflict (tenant_id, resource_key, date, meter_id, charge_category, charge_class) do update set ${update}`)
    } else {
      upsert = raw.prepare(`insert into daily_costs (month, resource_id, ${columns})
        values (substr(?, 1, 7), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        on conflict (month, resource_id, date, meter_id, charge_category, charge_class) do update set ${update}`)
      const numberResource = raw.prepare('insert into cost_resources (tenant_id, resource_key) values (?, ?)')
      for (const key of [...new Set(data.templates.map((t) => resourceKeyOf(t.resourceArmId)))].sort())
        resourceIds.set(key, Number(numberResource.run(tenantId, key).lastInsertRowid))
    }
    // Both write the same values after the resource's, written out twice: folding them made an array per row,
    // which the measured loop would pay for.
    const write =
      table === 'text-ids'
        ? (r: Omit<DailyCostRow, 'date' | 'cost'>, date: string, cost: number) =>
            upsert.run(
              tenantId,
              resourceKeyOf(r.resourceArmId),
              date,
              r.meterId,
              r.chargeCategory,
              r.chargeClass ?? '',
              r.subscriptionId,
              (r.resourceGroupName ?? '').toLowerCase(),
              r.meterName,
              r.serviceName,
              cost,
              r.currency,
            )
        : (r: Omit<DailyCostRow, 'date' | 'cost'>, date: string, cost: number) =>
            // The date twice: for the month, then itself (better-sqlite3 takes no numbered parameter twice).
            upsert.run(
              date,
              resourceIds.get(resourceKeyOf(r.resourceArmId)),
              date,
              r.meterId,
              r.chargeCategory,
              r.chargeClass ?? '',
              r.subscriptionId,
              (r.resourceGroupName ?? '').toLowerCase(),
              r.meterName,
              r.serviceName,
              cost,
              r.currency,
            )
    let ms = 0
    let cpuSeconds = 0
    if (RAW_ORDER === 'key') {
      // The rows in key order, as [template, day, cost] triples, so that sorting is not timed either.
      const ordered: { template: Uint32Array; day: string[]; cost: Float64Array } = {
        template: new Uint32Array(data.rows),
        day: new Array<string>(data.rows),
        cost: new Float64Array(data.rows),
      }
      let n = 0
      inKeyOrder(data, (t, date, cost) => {
        ordered.template[n] = t
        ordered.day[n] = date
        ordered.cost[n++] = cost
      })
      const started = performance.now()
      const cpu = process.cpuUsage()
      raw.exec('begin')
      for (let i = 0; i < n; i++) write(data.templates[ordered.template[i]!]!, ordered.day[i]!, ordered.cost[i]!)
      raw.exec('commit')
      ms = performance.now() - started
      cpuSeconds = cpuSince(cpu)
    } else {
      const cpu = process.cpuUsage()
      raw.exec('begin')
      for (const batch of data.batches) {
        const started = performance.now()
        for (let i = 0; i < batch.template.length; i++) {
          write(data.templates[batch.template[i]!]!, batch.date, batch.cost[i]!)
        }
        ms += performance.now() - started
      }
      const started = performance.now()
      raw.exec('commit')
      ms += performance.now() - started
      cpuSeconds = cpuSince(cpu)
    }
    const stored = table === 'text-ids' ? 'raw_daily_costs' : 'daily_costs'
    const got = (raw.prepare(`select count(*) as n from ${stored}`).get() as { n: number }).n
    if (got !== data.keys) throw new Error(`raw daily_costs holds ${got} rows, expected ${data.keys}`)
    return {
      label: `raw better-sqlite3, ${table}, ${RAW_ORDER} order (SQLite)`,
      phases: [{ name: 'upsert+commit', seconds: ms / 1000, cpuSeconds }],
      seconds: ms / 1000,
      cpuSeconds,
    }
  } finally {
    raw.close()
  }
}

// ---------------------------------------------------------------------------------------------------------------

/** Runs `work` on a fresh SQLite file that is removed right after (a full-size database takes several GB). */
async function onFreshSqlite<T>(scope: Scope, work: (database: BenchDatabase) => Promise<T>): Promise<T> {
  const part = scope.child()
  try {
    return await work(sqliteDatabase(part))
  } finally {
    await part.close()
  }
}

export const ingestBenchmark: Benchmark = {
  name: 'ingest',
  description: `daily cost rows of a simulated snapshot (${fmt.int(RESOURCES)} resources x ${DAYS} days), Costwatch vs raw better-sqlite3`,
  async run(scope: Scope) {
    heading(`Generating the rows: simulated connector, ${fmt.int(RESOURCES)} resources, ${DAYS} days up to ${LAST_DAY}`)
    let started = performance.now()
    const data = await generate(RESOURCES, DAYS)
    note(
      `${fmt.int(data.rows)} rows (${fmt.int(data.keys)} distinct keys) in ${secondsSince(started).toFixed(1)} s, ` +
        `not timed below; held columnar: ${memoryNote()}`,
    )

    const results: { timing: Timing; rows: number; days: number }[] = []
    const best = {
      costwatch: Number.POSITIVE_INFINITY,
      raw: Number.POSITIVE_INFINITY,
      numbered: Number.POSITIVE_INFINITY,
    }
    const bestCpu = { costwatch: Number.POSITIVE_INFINITY, raw: Number.POSITIVE_INFINITY }
    for (let round = 1; round <= ROUNDS; round++) {
      const of = ROUNDS > 1 ? ` (round ${round} of ${ROUNDS})` : ''
      heading(`SQLite: Costwatch cost store: stage each day, then merge + clear in one transaction${of}`)
      started = performance.now()
      const costwatch = await onFreshSqlite(scope, (database) => costwatchIngest(database, data, DAYS))
      results.push({ timing: costwatch, rows: data.rows, days: DAYS })
      best.costwatch = Math.min(best.costwatch, costwatch.seconds)
      bestCpu.costwatch = Math.min(bestCpu.costwatch, costwatch.cpuSeconds)
      note(`done in ${secondsSince(started).toFixed(1)} s wall clock (with the untimed work)`)

      heading(`SQLite: raw better-sqlite3 prepared upsert in ${RAW_ORDER} order, text ids, one transaction${of}`)
      started = performance.now()
      const raw = await onFreshSqlite(scope, (database) => rawIngest(database, data, 'text-ids'))
      results.push({ timing: raw, rows: data.rows, days: DAYS })
      best.raw = Math.min(best.raw, raw.seconds)
      bestCpu.raw = Math.min(bestCpu.raw, raw.cpuSeconds)
      note(`done in ${secondsSince(started).toFixed(1)} s wall clock (with the untimed work)`)

      heading(`SQLite: raw upsert into today's daily_costs (numbered resources), for information${of}`)
      started = performance.now()
      const numbered = await onFreshSqlite(scope, (database) => rawIngest(database, data, 'numbered'))
      results.push({ timing: numbered, rows: data.rows, days: DAYS })
      best.numbered = Math.min(best.numbered, numbered.seconds)
      note(`done in ${secondsSince(started).toFixed(1)} s wall clock (with the untimed work)`)
    }

    if (SETTINGS.databases.includes('postgres')) {
      const pgRows = data.batches.slice(0, PG_DAYS).reduce((n, b) => n + b.template.length, 0)
      heading(`PostgreSQL: Costwatch cost store, the first ${PG_DAYS} days (${fmt.int(pgRows)} rows), for information`)
      const part = scope.child()
      try {
        started = performance.now()
        const pg = await costwatchIngest(await postgresDatabase(part), data, PG_DAYS)
        results.push({ timing: pg, rows: pgRows, days: PG_DAYS })
        note(`done in ${secondsSince(started).toFixed(1)} s wall clock`)
      } finally {
        await part.close()
      }
    }

    const rawRate = data.rows / best.raw
    heading('Ingestion of daily cost rows: Costwatch vs raw better-sqlite3 upsert (row generation not timed)')
    printTable(
      ['path', 'days', 'rows', 'timed phases', 'seconds', 'rows/s', 'of raw', 'CPU s', 'of raw (CPU)'],
      results.map(({ timing, rows, days }) => {
        const rate = rows / timing.seconds
        return [
          timing.label,
          String(days),
          fmt.int(rows),
          timing.phases.map((p) => `${p.name} ${p.seconds.toFixed(1)} s (CPU ${p.cpuSeconds.toFixed(1)})`).join(', '),
          timing.seconds.toFixed(1),
          fmt.int(rate),
          timing.label === 'Costwatch (SQLite)' ? fmt.pct(rate / rawRate) : '',
          timing.cpuSeconds.toFixed(1),
          timing.label === 'Costwatch (SQLite)' ? fmt.pct(bestCpu.raw / timing.cpuSeconds) : '',
        ]
      }),
      [1, 2, 4, 5, 6, 7, 8],
    )
    const ratio = best.raw / best.costwatch
    const met = ratio >= TARGET_RATIO
    note(
      `\nTarget (performance.md): Costwatch's upsert at least ${fmt.pct(TARGET_RATIO)} of the raw prepared upsert ` +
        `of the same rows, on SQLite: ${fmt.int(data.rows / best.costwatch)} against ${fmt.int(rawRate)} rows/s` +
        `${ROUNDS > 1 ? ` (best of ${ROUNDS} rounds each)` : ''}, ${fmt.pct(ratio)}: ${met ? 'MET' : 'NOT MET'}. ` +
        `By CPU time (what the wall clock would be on cores of its own): ${fmt.pct(bestCpu.raw / bestCpu.costwatch)}. ` +
        `Against the raw upsert into today's daily_costs, whose rows name resources by number (${fmt.int(data.rows / best.numbered)} rows/s), ` +
        `${fmt.pct(best.numbered / best.costwatch)}, for information.`,
    )
    return { met }
  },
}
