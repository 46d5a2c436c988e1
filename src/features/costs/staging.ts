import { CompiledQuery, type Kysely, type RawBuilder, sql } from 'kysely'
import type { CostRowKey, DailyCostRow, KeyedCostRows } from '../../connectors/types.js'
import { type Database, orderedSubquery, runningSum, STATEMENT_CACHE_MAX_SQL } from '../../platform/db/index.js'
import { ownCopy } from '../../platform/text.js'
import { runningTotalOnOrBefore } from './read/running.js'

/**
 * Writes `rows` (a SELECT of daily_costs' columns in its order, one row per key, `month` first: the date's
 * `YYYY-MM`) into daily_costs, each replacing what was stored for its key; returns how many rows were written.
 * What every merge of staged rows ends with; each row's resource is numbered in cost_resources before. Rows in
 * the key's order (month, resource, date) go in as appends to each month's part of it.
 */
export async function upsertDailyCosts(trx: Kysely<Database>, rows: RawBuilder<unknown>): Promise<number> {
  const result = await sql`
    insert into daily_costs (month, resource_id, date, meter_id, charge_category, charge_class, subscription_id,
      resource_group_key, meter_name, service_name, cost, currency, billing_period)
    ${rows}
    on conflict (month, resource_id, date, meter_id, charge_category, charge_class) do update set
      subscription_id = excluded.subscription_id, resource_group_key = excluded.resource_group_key,
      meter_name = excluded.meter_name, service_name = excluded.service_name,
      cost = excluded.cost, currency = excluded.currency, billing_period = excluded.billing_period`.execute(trx)
  return Number(result.numAffectedRows ?? 0n)
}

/** Staged rows held in memory: each one's key number, index of its day and cost, `length` of them in use. */
interface HeldRows {
  keys: Int32Array
  days: Int32Array
  costs: Float64Array
  length: number
}

function emptyHeldRows(): HeldRows {
  return { keys: new Int32Array(0), days: new Int32Array(0), costs: new Float64Array(0), length: 0 }
}

/** `held`, or a copy in larger arrays (twice as large, at least) when `more` rows do not fit. */
function withRoom(held: HeldRows, more: number): HeldRows {
  if (held.length + more <= held.keys.length) return held
  const size = Math.max(held.length + more, 2 * held.keys.length, 4096)
  const grown = {
    keys: new Int32Array(size),
    days: new Int32Array(size),
    costs: new Float64Array(size),
    length: held.length,
  }
  grown.keys.set(held.keys.subarray(0, held.length))
  grown.days.set(held.days.subarray(0, held.length))
  grown.costs.set(held.costs.subarray(0, held.length))
  return grown
}

/** `order` sorted by `bucketOf` (0 to buckets - 1), equal values in the order they had: a counting sort. */
function countingSort(order: Uint32Array, bucketOf: (i: number) => number, buckets: number): Uint32Array {
  const starts = new Uint32Array(buckets + 1)
  for (const i of order) starts[bucketOf(i) + 1]!++
  for (let b = 1; b <= buckets; b++) starts[b]! += starts[b - 1]!
  const sorted = new Uint32Array(order.length)
  for (const i of order) sorted[starts[bucketOf(i)]!++] = i
  return sorted
}

/**
 * INSERTs into a TEMP table of rows given one by one (`add`), as many a statement as keep its text short enough
 * to be compiled once (STATEMENT_CACHE_MAX_SQL: 8 columns, 400 rows); `done` writes the last ones.
 */
function batchedInsert(trx: Kysely<Database>, table: string, columns: readonly string[]) {
  const tuple = `(${columns.map(() => '?').join(',')})`
  const textOf = (rows: number) =>
    `insert into temp."${table}" (${columns.join(', ')}) values ${new Array(rows).fill(tuple).join(',')}`
  const perInsert = Math.min(500, Math.floor((STATEMENT_CACHE_MAX_SQL - textOf(0).length) / (tuple.length + 1)))
  const full = textOf(perInsert)
  let parameters: unknown[] = []
  const write = async () => {
    const rows = parameters.length / columns.length
    if (rows > 0) await trx.executeQuery(CompiledQuery.raw(rows === perInsert ? full : textOf(rows), parameters))
    parameters = []
  }
  return {
    async add(...row: unknown[]): Promise<void> {
      for (const value of row) parameters.push(value)
      if (parameters.length === perInsert * columns.length) await write()
    },
    done: write,
  }
}

/** A tenant and the days a merge covers. */
export interface CoveredDays {
  tenantId: string
  from: string
  to: string
}

/** What a merge wrote: cost rows, the days it covered per tenant, and the series it can sum itself. */
export interface Merged {
  rows: number
  ranges: CoveredDays[]
  /** Tenants whose days held no cost row before the merge, with the writers of their series (see freshSeries). */
  fresh?: FreshSeries[]
}

/** Writers of one tenant's series over days that held no cost row before a merge, from its staged rows. */
export interface FreshSeries extends CoveredDays {
  resourceSeries(trx: Kysely<Database>): Promise<void>
  /** The (subscription, group, service) series, from the staged rows too: a sort of two numbers per row. */
  groupSeries(trx: Kysely<Database>): Promise<void>
  /**
   * The running totals of the staged days, for a tenant that has none yet, or (`continued`) whose days all come
   * before them: each resource's then start from its last running total before the days.
   */
  appendRunningCosts(trx: Kysely<Database>, continued: boolean): Promise<void>
  /**
   * A SELECT of the (resource_id, currency) pairs of the staged rows: when the staged days come after every other,
   * every resource whose running totals they change (read from the staged keys, not from all of the tenant's
   * resource series).
   */
  stagedResources: RawBuilder<unknown>
}

/**
 * Staged rows a stage holds in memory (16 MB), beyond which they go to its TEMP table. A pull's billing period
 * fits (the focus-pull benchmark's 10-million-row estate has 500,000 per period); a deep collection of thousands
 * of resources over 400 days (bench/ingest.ts) does not, and keeps the memory it had.
 */
export const MEMORY_ROWS = 1 << 20

/**
 * The most days a merge's resource series are written resource by resource (see sortedSums): the series' B-tree,
 * date first, then takes each row at one of as many places as there are days, and with two months of them their
 * pages stay in the merge's page cache (SORT_CACHE_KIB). 1,500 resources x 400 days, so written, took 12.5 s
 * instead of 1.9 s sorted by day.
 */
const SERIES_FRONT_DAYS = 62

/** Staged rows from which a merge sorts in pieces of SORT_CACHE_KIB (see withMergeCache). */
const SORT_CACHE_FROM_ROWS = 100_000
export const SORT_CACHE_KIB = 4 * 1024

/**
 * Where a run's cost rows wait on SQLite until its final transaction moves them into daily_costs: this process's
 * memory, then (past MEMORY_ROWS) tables of the connection's own TEMP database, one set per staging key, in a
 * compact form.
 *
 * - Each distinct key (tenant, resource, meter, charge category and class, and what describes it: subscription,
 *   group, meter and service names, currency) is held once, in this process's memory while rows arrive and in a
 *   keys table at the merge; a staged row is only (key number, date, cost), 3 values instead of 13.
 * - TEMP tables are never written to the WAL, never checkpointed into the database file and take no lock of it:
 *   staging no longer holds the write lock at all, and a finished run's rows go with a DROP TABLE.
 * - The merge sums those small rows per key and day in (resource number, date, key) order once (see sortedSums)
 *   and joins each sum to its key: the sort that orders the rows into daily_costs' primary key no longer carries
 *   the long ARM paths of every row.
 *
 * bench/ingest.ts, 1,500 resources x 400 days (821,000 rows), SQLite: staging took 5.0 s and the merge's upsert
 * 6.0 s with a staging table in the database file (rows of 13 values, a run_id index); now 1.5 s and 3.0 s.
 *
 * Staged rows belong to the process that staged them, which is also the one that merges them (a snapshot run's
 * worker, an import's command line). A process that dies loses them with its TEMP database; its run is retried
 * from the start, as before, when every attempt's staged rows were cleared first.
 */
export function createTempStaging(
  db: Kysely<Database>,
  options: { sortCacheFromRows?: number; memoryRows?: number } = {},
) {
  const sortCacheFromRows = options.sortCacheFromRows ?? SORT_CACHE_FROM_ROWS
  const memoryRows = options.memoryRows ?? MEMORY_ROWS
  interface CostKey {
    id: number
    tenantId: string
    resourceKey: string
    meterId: string
    chargeCategory: string
    chargeClass: string
    subscriptionId: string
    resourceGroupKey: string
    /** The group as the key's first row spelled it. */
    resourceGroupName: string | null
    meterName: string | null
    serviceName: string
    currency: string
    billingPeriod: string
    /** The first and last day of its staged rows. */
    from: string
    to: string
  }
  interface Stage {
    table: string
    keysTable: string
    /** The staged rows summed per key and day in the running totals' order, at the merge (see sortedSums). */
    sortedTable: string
    /** Their sums per day and group rank (see sortedSums). */
    groupSumsTable: string
    /**
     * Whether the sums carry, on the first of each resource's day (of a running rank), its cost that day and its
     * running total over the staged days, and on the first of each series' day the series' cost: rows sorted in
     * memory do (see sortedSums).
     */
    daysSummed: boolean
    /** tenant -> ARM id as written ('' for none) -> meter -> its keys (charge category, class, description). */
    keys: Map<string, Map<string, Map<string, CostKey[]>>>
    /** The key of each key object of keyed rows (stageKeyed), found once per object. */
    keysByReference: Map<CostRowKey, CostKey>
    keyCount: number
    /** Whether some cost key came with two descriptions (see keyOf). */
    describedTwice: boolean
    /** Whether some cost key came in two billing periods, its description otherwise the same (see keyOf). */
    inTwoPeriods: boolean
    /** Per tenant, the first and last day staged. */
    days: Map<string, { from: string; to: string }>
    rows: number
    /**
     * The staged rows while they fit in MEMORY_ROWS, in the order they came; null once they went to `table`
     * (see stageRows). Each holds the index of its day in `dates`.
     */
    held: HeldRows | null
    dates: string[]
    dateIndex: Map<string, number>
    /** Dropped inside a transaction that may yet roll back: dropped again (if still there) by the next clear. */
    cleared: boolean
  }
  const stages = new Map<string, Stage>()
  let nextTable = 0

  const lowerCased = new Map<string, string>()
  /** A lower-cased ARM id or group name, remembered: each recurs once a day for every day of a run. */
  function lowerCase(text: string): string {
    let lower = lowerCased.get(text)
    if (lower === undefined) {
      if (lowerCased.size >= 100_000) lowerCased.clear()
      lower = ownCopy(text.toLowerCase())
      lowerCased.set(ownCopy(text), lower)
    }
    return lower
  }

  function stageOf(stagingKey: string): Stage {
    let stage = stages.get(stagingKey)
    if (stage === undefined || stage.cleared) {
      const n = nextTable++
      stage = {
        table: `staged_costs_${n}`,
        keysTable: `staged_cost_keys_${n}`,
        sortedTable: `staged_cost_sums_${n}`,
        groupSumsTable: `staged_group_sums_${n}`,
        daysSummed: false,
        keys: new Map(),
        keysByReference: new Map(),
        keyCount: 0,
        describedTwice: false,
        inTwoPeriods: false,
        days: new Map(),
        rows: 0,
        held: emptyHeldRows(),
        dates: [],
        dateIndex: new Map(),
        cleared: false,
      }
      stages.set(stagingKey, stage)
    }
    return stage
  }

  /**
   * The key of a row: its cost key and what describes it. Rows of one cost key that describe it differently
   * (a meter renamed, a billing currency changed during the run's window) are keys of their own, so each day keeps
   * its own description; the merge then sums them per day as a GROUP BY with max() would.
   */
  function keyOf(stage: Stage, tenantId: string, row: CostRowKey): CostKey {
    let byResource = stage.keys.get(tenantId)
    if (byResource === undefined) {
      byResource = new Map()
      stage.keys.set(tenantId, byResource)
    }
    // What is kept for the whole run is an own copy: a row read from a file may hold views of its chunk of text.
    const armId = row.resourceArmId ?? ''
    let byMeter = byResource.get(armId)
    if (byMeter === undefined) {
      byMeter = new Map()
      byResource.set(ownCopy(armId), byMeter)
    }
    let keys = byMeter.get(row.meterId)
    if (keys === undefined) {
      keys = []
      byMeter.set(ownCopy(row.meterId), keys)
    }
    const chargeClass = row.chargeClass ?? ''
    // The group as the key keeps it (lower-cased), looked up only for a spelling other than the key's own.
    const groupKey = () => (row.resourceGroupName === null ? '' : lowerCase(row.resourceGroupName))
    const billingPeriod = row.billingPeriod ?? ''
    for (const key of keys) {
      if (key.chargeCategory !== row.chargeCategory || key.chargeClass !== chargeClass) continue
      const described =
        key.subscriptionId === row.subscriptionId &&
        (key.resourceGroupName === row.resourceGroupName || key.resourceGroupKey === groupKey()) &&
        key.meterName === row.meterName &&
        key.serviceName === row.serviceName &&
        key.currency === row.currency
      if (described && key.billingPeriod === billingPeriod) return key
      // A cost key in each billing period (an import of several months) is described once per period, on days of
      // its own: the merge checks that their days do not meet (see periodsMeet).
      if (described) stage.inTwoPeriods = true
      else stage.describedTwice = true
    }
    const id = stage.keyCount++
    const key: CostKey = {
      id,
      tenantId,
      resourceKey: row.resourceArmId ? lowerCase(row.resourceArmId) : '',
      meterId: ownCopy(row.meterId),
      chargeCategory: row.chargeCategory,
      chargeClass,
      subscriptionId: ownCopy(row.subscriptionId),
      resourceGroupKey: groupKey(),
      resourceGroupName: row.resourceGroupName === null ? null : ownCopy(row.resourceGroupName),
      meterName: row.meterName === null ? null : ownCopy(row.meterName),
      serviceName: ownCopy(row.serviceName),
      currency: ownCopy(row.currency),
      billingPeriod,
      from: '',
      to: '',
    }
    keys.push(key)
    return key
  }

  /**
   * Whether two keys of one cost key, in two billing periods, have rows on a same day (a correction billed in a
   * later period, dated in an earlier one): then their rows must be summed per cost key and day, as for a key
   * described twice.
   */
  function periodsMeet(stage: Stage): boolean {
    for (const byResource of stage.keys.values())
      for (const byMeter of byResource.values())
        for (const keys of byMeter.values()) {
          if (keys.length < 2) continue
          const spans = new Map<string, CostKey[]>()
          for (const key of keys) {
            const charge = `${key.chargeCategory}\u0000${key.chargeClass}`
            const same = spans.get(charge)
            if (same === undefined) spans.set(charge, [key])
            else same.push(key)
          }
          for (const same of spans.values()) {
            if (same.length < 2) continue
            const sorted = same.filter((k) => k.from !== '').sort((a, b) => a.from.localeCompare(b.from))
            for (let i = 1; i < sorted.length; i++) if (sorted[i]!.from <= sorted[i - 1]!.to) return true
          }
        }
    return false
  }

  /** Each key's ranks (see the ranks in merge), by key number, and the greatest of each. */
  async function ranksOf(trx: Kysely<Database>, stage: Stage) {
    const rows = await sql<{ id: number; runningRank: number; seriesRank: number; groupRank: number }>`
      select id, running_rank, series_rank, group_rank from ${sql.id(stage.keysTable)}`.execute(trx)
    const ranks = {
      running: new Int32Array(stage.keyCount),
      series: new Int32Array(stage.keyCount),
      group: new Int32Array(stage.keyCount),
      most: { running: 0, series: 0, group: 0 },
    }
    for (const r of rows.rows) {
      ranks.running[r.id] = r.runningRank
      ranks.series[r.id] = r.seriesRank
      ranks.group[r.id] = r.groupRank
      ranks.most.running = Math.max(ranks.most.running, r.runningRank)
      ranks.most.series = Math.max(ranks.most.series, r.seriesRank)
      ranks.most.group = Math.max(ranks.most.group, r.groupRank)
    }
    return ranks
  }

  /**
   * The held rows' indexes in (running rank, day, series rank, key) order, and the days in order: `byDate` their
   * indexes in `stage.dates` by date, `dayRank` each one's place in it.
   */
  function heldInOrder(stage: Stage, held: HeldRows, ranks: Awaited<ReturnType<typeof ranksOf>>) {
    // Days compare as text, as SQLite compares them (ISO dates: byte order is date order).
    const byDate = stage.dates.map((_, i) => i).sort((a, b) => (stage.dates[a]! < stage.dates[b]! ? -1 : 1))
    const dayRank = new Int32Array(byDate.length)
    for (const [rank, day] of byDate.entries()) dayRank[day] = rank
    let order: Uint32Array = new Uint32Array(held.length)
    for (let i = 0; i < order.length; i++) order[i] = i
    // Least significant first: each sort keeps the order of the one before among equals.
    order = countingSort(order, (i) => held.keys[i]!, stage.keyCount)
    order = countingSort(order, (i) => ranks.series[held.keys[i]!]!, ranks.most.series + 1)
    order = countingSort(order, (i) => dayRank[held.days[i]!]!, byDate.length)
    order = countingSort(order, (i) => ranks.running[held.keys[i]!]!, ranks.most.running + 1)
    return { order, dayRank, byDate }
  }

  /**
   * Sums the staged rows per key and day into the stage's sorted table, in the order of its key: (running rank,
   * day, key), i.e. resource by resource, each resource's days in order. The cost rows' upsert and the running
   * totals then read the sums in their order, where each sorted the staged rows for itself, and the cost rows go
   * into daily_costs (month, resource, date, ...) as appends to each month's part of it.
   *
   * Rows held in memory are sorted there (four counting sorts, a few milliseconds for 200,000 rows) and written
   * in that order. Walking them in that order also gives each resource's cost and running total per day and each
   * series' cost per day, kept on the first sum of each (see daysSummed), and each group's cost per
   * day (a few hundred sums, in a table of their own). Rows in the stage's table are sorted by SQLite, which gives
   * the sums and the groups' alone.
   *
   * The focus-pull benchmark's 2-million-row pull (10 merges of 200,000 rows), statement times before and now:
   * cost rows 7.2 -> 4.1 s, running totals 8.8 -> 3.3 s, resource series 7.1 -> 6.4 s, group series
   * 2.3 -> 0.06 s, the staged rows' INSERTs 2.7 s -> the sums' 4.7 s. The pull, in pairs with the code before:
   * 47.2 and 48.8 s against 53.3 and 55.3 s. The same sums sorted by SQLite from the staged rows (tried first):
   * the sort cost what the cost rows and running totals gained.
   */
  async function sortedSums(trx: Kysely<Database>, stage: Stage): Promise<void> {
    const sums = sql.id(stage.sortedTable)
    const groupSums = sql.id(stage.groupSumsTable)
    const keys = sql.id(stage.keysTable)
    await sql`drop table if exists ${sums}`.execute(trx)
    await sql`drop table if exists ${groupSums}`.execute(trx)
    await sql`create temp table ${sums} (running_rank integer not null, date text not null, key_id integer not null,
      series_rank integer not null, cost real not null, series_cost real, day_cost real, day_running real,
      primary key (running_rank, date, key_id)) without rowid`.execute(trx)
    await sql`create temp table ${groupSums} (date text not null, group_rank integer not null,
      key_id integer not null, cost real not null, primary key (date, group_rank)) without rowid`.execute(trx)
    const held = stage.held
    stage.daysSummed = false
    if (held === null) {
      await sql`
        insert into ${sums} (running_rank, date, key_id, series_rank, cost)
        select r.running_rank, s.date, s.key_id, r.series_rank, sum(s.cost)
        from ${sql.id(stage.table)} s join ${keys} r on r.id = s.key_id
        group by r.running_rank, s.date, s.key_id`.execute(trx)
      await sql`
        insert into ${groupSums} (date, group_rank, key_id, cost)
        select s.date, r.group_rank, min(s.key_id), sum(s.cost)
        from ${sql.id(stage.table)} s join ${keys} r on r.id = s.key_id
        group by s.date, r.group_rank`.execute(trx)
      return
    }
    const ranks = await ranksOf(trx, stage)
    const { running, series, group } = ranks
    const { order, dayRank, byDate } = heldInOrder(stage, held, ranks)
    const groupRanks = ranks.most.group
    const sumsInsert = batchedInsert(trx, stage.sortedTable, [
      'running_rank',
      'date',
      'key_id',
      'series_rank',
      'cost',
      'series_cost',
      'day_cost',
      'day_running',
    ])
    // Per (day, group rank): the group's cost that day and its first key.
    const groupCells = new Map<number, { cost: number; key: number }>()
    /** Where the run of rows from `at` on for which `same(row)` holds ends, and their cost. */
    const runOf = (at: number, same: (row: number) => boolean) => {
      let end = at
      let cost = 0
      for (; end < order.length && same(order[end]!); end++) cost += held.costs[order[end]!]!
      return { end, cost }
    }
    // The rows of one resource's day (of one running rank) are next to each other now, in them each series' rows,
    // and in those each key's.
    let runningOf = -1
    let runningCost = 0
    for (let at = 0; at < order.length; ) {
      const day = held.days[order[at]!]!
      const rank = running[held.keys[order[at]!]!]!
      const ofDay = runOf(at, (row) => held.days[row] === day && running[held.keys[row]!] === rank)
      runningCost = rank === runningOf ? runningCost + ofDay.cost : ofDay.cost
      runningOf = rank
      let firstOfDay = true
      while (at < ofDay.end) {
        const ofSeries = series[held.keys[order[at]!]!]!
        const seriesRun = runOf(at, (row) => held.days[row] === day && series[held.keys[row]!] === ofSeries)
        let firstOfSeries = true
        while (at < seriesRun.end) {
          const key = held.keys[order[at]!]!
          const keyRun = runOf(at, (row) => held.days[row] === day && held.keys[row] === key)
          at = keyRun.end
          await sumsInsert.add(
            rank,
            stage.dates[day],
            key,
            ofSeries,
            keyRun.cost,
            firstOfSeries ? seriesRun.cost : null,
            firstOfDay ? ofDay.cost : null,
            firstOfDay ? runningCost : null,
          )
          firstOfSeries = false
          firstOfDay = false
          const cell = dayRank[day]! * (groupRanks + 1) + group[key]!
          const sum = groupCells.get(cell)
          if (sum === undefined) groupCells.set(cell, { cost: keyRun.cost, key })
          else {
            sum.cost += keyRun.cost
            if (key < sum.key) sum.key = key
          }
        }
      }
    }
    await sumsInsert.done()
    const groupInsert = batchedInsert(trx, stage.groupSumsTable, ['date', 'group_rank', 'key_id', 'cost'])
    for (const cell of [...groupCells.keys()].sort((a, b) => a - b)) {
      const sum = groupCells.get(cell)!
      const rank = cell % (groupRanks + 1)
      await groupInsert.add(stage.dates[byDate[(cell - rank) / (groupRanks + 1)]!], rank, sum.key, sum.cost)
    }
    await groupInsert.done()
    stage.daysSummed = true
  }

  /**
   * The resource series and the running totals of days that held no cost row before the merge, summed from the
   * staged rows (their sums per key and day, see sortedSums): the sorts carry a rank and a day instead of the
   * resource's ARM path, its service and currency (bench/ingest.ts, 821,000 rows: the resource series took 2.1 s
   * from daily_costs, 1.8 s from the staged rows; the running totals of a tenant's first costs 2.2 s from the
   * resource series, 1.7 s from them: most of the time is writing the rows, not sorting them). What they write is
   * what rebuildSeries would, from the same rows.
   */
  function freshSeries(stage: Stage, range: CoveredDays): FreshSeries {
    const keys = sql.id(stage.keysTable)
    const sums = sql.id(stage.sortedTable)
    // A tenant's ranks are one span of them (see the ranks in merge): a range of the sums' key.
    const tenantRanks = (rank: RawBuilder<unknown>, of: RawBuilder<unknown>) =>
      sql`${of} between (select min(${rank}) from ${keys} where tenant_id = ${range.tenantId})
        and (select max(${rank}) from ${keys} where tenant_id = ${range.tenantId})`
    const ofDays = (date: RawBuilder<unknown>) => sql`${date} >= ${range.from} and ${date} <= ${range.to}`
    const ofRange = sql`${tenantRanks(sql`running_rank`, sql`o.running_rank`)} and ${ofDays(sql`o.date`)}`
    return {
      ...range,
      stagedResources: sql`select distinct resource_id, currency from ${keys} where tenant_id = ${range.tenantId}`,
      async resourceSeries(trx) {
        // Each series' cost on each day beside its first key: resource by resource when the sums hold them,
        // else summed per day and series rank (sorted by day: the series' order).
        const series =
          stage.daysSummed && stage.dates.length <= SERIES_FRONT_DAYS
            ? sql`(select o.date, o.key_id, o.series_cost as cost from ${sums} o
              where o.series_cost is not null and ${ofRange}) g`
            : sql`(select o.date, o.series_rank, min(o.key_id) as key_id, sum(o.cost) as cost from ${sums} o
              where ${ofRange}
              group by o.date, o.series_rank) g`
        await sql`
          insert into resource_cost_series (tenant_id, date, resource_id, service_name, charge_category, currency,
            subscription_id, resource_group_key, cost)
          select ${range.tenantId}, g.date, k.resource_id, k.service_name, k.charge_category, k.currency,
            k.subscription_id, k.resource_group_key, g.cost
          from ${series} cross join ${keys} k on k.id = g.key_id`.execute(trx)
      },
      async groupSeries(trx) {
        await sql`
          insert into group_cost_series (tenant_id, date, subscription_id, resource_group_key, service_name,
            charge_category, currency, cost)
          select ${range.tenantId}, g.date, k.subscription_id, k.resource_group_key, k.service_name,
            k.charge_category, k.currency, g.cost
          from ${sql.id(stage.groupSumsTable)} g cross join ${keys} k on k.id = g.key_id
          where ${tenantRanks(sql`group_rank`, sql`g.group_rank`)} and ${ofDays(sql`g.date`)}`.execute(trx)
      },
      async appendRunningCosts(trx, continued) {
        // Each resource's last running total before the days, looked up once per resource into a table of its
        // own: looked up per resource day (beside each sum), it was 1.3 s of every 200,000 rows pulled.
        const bases = sql.id(`${stage.keysTable}_bases`)
        if (continued) {
          await sql`drop table if exists ${bases}`.execute(trx)
          await sql`create temp table ${bases} (running_rank integer primary key, base double precision not null)`.execute(
            trx,
          )
          await sql`
            insert into ${bases} (running_rank, base)
            select k.running_rank,
              coalesce(${runningTotalOnOrBefore(sql`k.resource_id`, sql`k.currency`, range.from, false)}, 0)
            from ${keys} k
            where k.id in (select min(id) from ${keys} where tenant_id = ${range.tenantId} group by running_rank)`.execute(
            trx,
          )
        }
        const insert = sql`insert into resource_running_costs (month, resource_id, currency, date, running_cost, cost)`
        const base = continued ? sql` + b.base` : sql``
        const withBase = (of: RawBuilder<unknown>) =>
          continued ? sql` cross join ${bases} b on b.running_rank = ${of}.running_rank` : sql``
        // The sums' running totals over the staged days hold for the range when it has every staged day of the
        // tenant (the range is the run's window, or those days).
        const staged = stage.days.get(range.tenantId)
        if (stage.daysSummed && staged !== undefined && staged.from >= range.from && staged.to <= range.to)
          await sql`${insert}
            select substr(o.date, 1, 7), k.resource_id, k.currency, o.date, o.day_running${base}, o.day_cost
            from ${sums} o cross join ${keys} k on k.id = o.key_id${withBase(sql`o`)}
            where o.day_cost is not null and ${ofRange}`.execute(trx)
        else {
          // Each resource's days in order, which is the sums' own order (no sort): `cross join` keeps them the
          // outer loop (see runningSum).
          const running = runningSum(trx, [sql`g.running_rank`], sql`g.date`, sql`g.cost`)
          await sql`${insert}
            select substr(g.date, 1, 7), k.resource_id, k.currency, g.date, ${running}${base}, g.cost
            from (
              select o.running_rank, o.date, min(o.key_id) as key_id, sum(o.cost) as cost
              from ${sums} o
              where ${ofRange}
              group by o.running_rank, o.date
              ${orderedSubquery(trx, [sql`o.running_rank`, sql`o.date`])}
            ) g cross join ${keys} k on k.id = g.key_id${withBase(sql`g`)}`.execute(trx)
        }
        if (continued) await sql`drop table ${bases}`.execute(trx)
      },
    }
  }

  /** Runs `work` in the executor's transaction, or in one of its own (of the TEMP database alone, see above). */
  const inTransaction = async (executor: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<void>) =>
    executor.isTransaction ? work(executor) : executor.transaction().execute(work)

  /** Writes `count` rows into the stage's table, the i-th given by `rowAt(i)` as its key number, day and cost. */
  async function insertIntoTable(
    trx: Kysely<Database>,
    stage: Stage,
    count: number,
    rowAt: (i: number) => [number, string, number],
  ): Promise<void> {
    const insert = batchedInsert(trx, stage.table, ['key_id', 'date', 'cost'])
    for (let i = 0; i < count; i++) await insert.add(...rowAt(i))
    await insert.done()
  }

  /** Moves the rows a stage holds in memory into its table, which takes every later row (see stageRows). */
  async function moveToTable(executor: Kysely<Database>, stage: Stage): Promise<void> {
    const held = stage.held
    if (held === null) return
    await inTransaction(executor, async (trx) => {
      await sql`create temp table ${sql.id(stage.table)} (key_id integer not null, date text not null,
        cost real not null)`.execute(trx)
      await insertIntoTable(trx, stage, held.length, (i) => [
        held.keys[i]!,
        stage.dates[held.days[i]!]!,
        held.costs[i]!,
      ])
    })
    stage.held = null
  }

  /**
   * Stages `count` rows, the i-th read through `rows(stage)`: its key, day and cost. While the stage's rows fit in
   * MEMORY_ROWS, they are held in this process's memory, 16 bytes each, and sorted there at the merge (see
   * sortedSums); beyond, in the stage's table: one transaction of the TEMP database (the database file is not
   * locked) for the whole batch.
   */
  async function stageRows(
    stagingKey: string,
    tenantId: string,
    count: number,
    executor: Kysely<Database>,
    rows: (stage: Stage) => { keyAt(i: number): CostKey; dateAt(i: number): string; costAt(i: number): number },
  ): Promise<void> {
    if (count === 0) return
    const stage = stageOf(stagingKey)
    const { keyAt, dateAt, costAt } = rows(stage)
    let days = stage.days.get(tenantId)
    if (days === undefined) {
      days = { from: dateAt(0), to: dateAt(0) }
      stage.days.set(tenantId, days)
    }
    const span = days
    /** The i-th row's key, with its days and the tenant's widened to its day. */
    const noted = (i: number): CostKey => {
      const date = dateAt(i)
      const key = keyAt(i)
      if (key.from === '' || date < key.from) key.from = date
      if (date > key.to) key.to = date
      if (date < span.from) span.from = date
      if (date > span.to) span.to = date
      return key
    }
    if (stage.held !== null && stage.held.length + count <= memoryRows) {
      const held = withRoom(stage.held, count)
      stage.held = held
      for (let i = 0; i < count; i++) {
        const at = held.length++
        held.keys[at] = noted(i).id
        held.days[at] = dayIndexOf(stage, dateAt(i))
        held.costs[at] = costAt(i)
      }
    } else {
      await moveToTable(executor, stage)
      await inTransaction(executor, (trx) =>
        insertIntoTable(trx, stage, count, (i) => [noted(i).id, dateAt(i), costAt(i)]),
      )
    }
    stage.rows += count
  }

  /** The index of `date` in the stage's days, added at its first row. */
  function dayIndexOf(stage: Stage, date: string): number {
    let index = stage.dateIndex.get(date)
    if (index === undefined) {
      index = stage.dates.length
      stage.dates.push(ownCopy(date))
      stage.dateIndex.set(stage.dates[index]!, index)
    }
    return index
  }

  return {
    /** Stages cost rows as a connector yields them (see stageRows). */
    async stage(
      stagingKey: string,
      tenantId: string,
      rows: readonly DailyCostRow[],
      executor: Kysely<Database> = db,
    ): Promise<void> {
      await stageRows(stagingKey, tenantId, rows.length, executor, (stage) => ({
        keyAt: (i) => keyOf(stage, tenantId, rows[i]!),
        dateAt: (i) => rows[i]!.date,
        costAt: (i) => rows[i]!.cost,
      }))
    },

    /** Stages keyed rows (a FOCUS import's): each key object is looked up once, then found by reference. */
    async stageKeyed(
      stagingKey: string,
      tenantId: string,
      rows: KeyedCostRows,
      executor: Kysely<Database> = db,
    ): Promise<void> {
      await stageRows(stagingKey, tenantId, rows.costs.length, executor, (stage) => ({
        keyAt: (i) => {
          const row = rows.keys[i]!
          let key = stage.keysByReference.get(row)
          if (key === undefined || key.tenantId !== tenantId) {
            key = keyOf(stage, tenantId, row)
            stage.keysByReference.set(row, key)
          }
          return key
        },
        dateAt: (i) => rows.dates[i]!,
        costAt: (i) => rows.costs[i]!,
      }))
    },

    /**
     * Moves the staged rows of `stagingKey` into daily_costs (inside the caller's transaction): rows of one key
     * and day summed, replacing what was stored for that key and day. Returns the rows written, the days covered
     * per tenant (`covered`, else the first and last day staged of each) and, for the tenants whose days held no
     * cost row before, the writers of their series from the staged rows.
     */
    async merge(trx: Kysely<Database>, stagingKey: string, covered?: CoveredDays): Promise<Merged> {
      const stage = stages.get(stagingKey)
      if (stage === undefined || stage.rows === 0) return { rows: 0, ranges: covered ? [covered] : [] }
      const ranges = covered ? [covered] : [...stage.days].map(([tenantId, days]) => ({ tenantId, ...days }))
      // Whether each tenant's days held no cost row before this merge (its tenant series, kept with its cost rows,
      // has none of them): then its series of those days are sums of the staged rows alone, and are summed from
      // them (see freshSeries).
      const fresh: CoveredDays[] = []
      for (const range of ranges) {
        const stored = await sql`select 1 from cost_series where tenant_id = ${range.tenantId} and level = 'tenant'
          and date >= ${range.from} and date <= ${range.to} limit 1`.execute(trx)
        if (stored.rows.length === 0) fresh.push(range)
      }
      const keys = sql.id(stage.keysTable)
      await sql`create temp table ${keys} (id integer primary key, tenant_id text not null,
        resource_key text not null, meter_id text not null, charge_category text not null,
        charge_class text not null, subscription_id text not null, resource_group_key text not null,
        meter_name text, service_name text not null, currency text not null, billing_period text not null,
        resource_id integer,
        series_rank integer, running_rank integer, group_rank integer)`.execute(trx)
      const keysInsert = batchedInsert(trx, stage.keysTable, [
        'id',
        'tenant_id',
        'resource_key',
        'meter_id',
        'charge_category',
        'charge_class',
        'subscription_id',
        'resource_group_key',
        'meter_name',
        'service_name',
        'currency',
        'billing_period',
      ])
      const all: CostKey[] = []
      for (const byResource of stage.keys.values())
        for (const byMeter of byResource.values()) for (const charges of byMeter.values()) all.push(...charges)
      for (const k of all)
        await keysInsert.add(
          k.id,
          k.tenantId,
          k.resourceKey,
          k.meterId,
          k.chargeCategory,
          k.chargeClass,
          k.subscriptionId,
          k.resourceGroupKey,
          k.meterName,
          k.serviceName,
          k.currency,
          k.billingPeriod,
        )
      await keysInsert.done()
      // The number of each resource (see cost_resources), new ones numbered in the order of their keys.
      await sql`
        insert into cost_resources (tenant_id, resource_key)
        select distinct tenant_id, resource_key from ${keys} where true order by tenant_id, resource_key
        on conflict (tenant_id, resource_key) do nothing`.execute(trx)
      await sql`
        update ${keys} set resource_id = (select c.id from cost_resources c
          where c.tenant_id = ${keys}.tenant_id and c.resource_key = ${keys}.resource_key)`.execute(trx)
      // Each key's place, as a number, in the order of the resource series' key (resource, service, charge
      // category, currency), of the running totals' (resource, currency) and of the group series' (subscription,
      // group, service, charge category, currency): what the rows are sorted by. The last two after the tenant,
      // so that a tenant's ranks are one span of them.
      await sql`
        update ${keys} set series_rank = ranked.series_rank, running_rank = ranked.running_rank,
          group_rank = ranked.group_rank
        from (
          select id,
            dense_rank() over (order by resource_id, service_name, charge_category, currency) as series_rank,
            dense_rank() over (order by tenant_id, resource_id, currency) as running_rank,
            dense_rank() over (order by tenant_id, subscription_id, resource_group_key, service_name,
              charge_category, currency) as group_rank
          from ${keys}
        ) ranked
        where ${keys}.id = ranked.id`.execute(trx)
      // When some cost key came with two descriptions, its rows are grouped by the cost key and day with the
      // greater of each value, as the text columns sorted in full (slower: only such runs pay for it). Otherwise
      // the staged rows are summed per key and day once, in the running totals' order (see sortedSums), and every
      // later statement reads those sums in that order. `where true` tells SQLite's parser that ON CONFLICT is
      // the upsert, not a join's ON.
      const sumPerCostKey = stage.describedTwice || (stage.inTwoPeriods && periodsMeet(stage))
      const grouped = sumPerCostKey
        ? sql`
            select substr(s.date, 1, 7), k.resource_id, s.date, k.meter_id, k.charge_category, k.charge_class,
              max(k.subscription_id) as subscription_id, max(k.resource_group_key) as resource_group_key,
              max(k.meter_name) as meter_name, max(k.service_name) as service_name, sum(s.cost) as cost,
              max(k.currency) as currency, max(k.billing_period) as billing_period
            from ${sql.id(stage.table)} s join ${keys} k on k.id = s.key_id
            where true
            group by substr(s.date, 1, 7), k.resource_id, s.date, k.meter_id, k.charge_category, k.charge_class`
        : sql`
            select substr(o.date, 1, 7), k.resource_id, o.date, k.meter_id, k.charge_category, k.charge_class,
              k.subscription_id, k.resource_group_key, k.meter_name, k.service_name, o.cost, k.currency,
              k.billing_period
            from ${sql.id(stage.sortedTable)} o cross join ${keys} k on k.id = o.key_id
            where true`
      if (sumPerCostKey) await moveToTable(trx, stage)
      else await sortedSums(trx, stage)
      const rows = await upsertDailyCosts(trx, grouped)
      // A resource series is keyed by (resource, service, charge category, currency) and also says the resource's
      // subscription and group on each day: keys of one series that disagree on those (a resource moved to
      // another group during the days) are summed from daily_costs, day by day, as every other merge's are.
      const movedResource = await sql`select 1 from ${keys} group by series_rank
        having min(subscription_id) <> max(subscription_id) or min(resource_group_key) <> max(resource_group_key)
        limit 1`.execute(trx)
      if (sumPerCostKey || movedResource.rows.length > 0) return { rows, ranges }
      return { rows, ranges, fresh: fresh.map((range) => freshSeries(stage, range)) }
    },

    /**
     * Runs `work` (a merge of `stagingKey` and the series it rewrites) with a page cache of SORT_CACHE_KIB when
     * SORT_CACHE_FROM_ROWS or more rows are staged, then gives the connection its own back. The merge's sorts take
     * pieces of the cache's size (never under 250 pages), each sorted on its own and then merged, by the
     * connection's sort threads (`pragma threads`) beside it: pieces smaller than the default 16 MB are shared
     * between the threads and fit the processor's caches, and the B-trees' appends lose nothing by it.
     * The FOCUS benchmark's 553,000 rows: the cost rows' upsert 1.41 -> 1.0-1.2 s, resource series 0.93 ->
     * 0.80-0.89 s, running totals 1.16 -> 0.93-1.04 s. bench/ingest.ts, same hour, against the 16 MB default:
     * 1,500 resources x 400 days (821,000 rows), merge 5.4-5.5 s -> 4.8-5.2 s; against the 64 MB these merges had
     * from 2 million rows: 4,000 x 400 (2.2 million), 14.9-16.5 s -> 12.8-13.5 s; 20,000 x 400 (10.9 million),
     * 84.8 s and 85.6 s, 55.0% and 54.2% of the raw upsert's rate (one run each), without holding 64 MB.
     * A smaller merge keeps the connection's own cache: nothing there is worth a pragma.
     */
    async withMergeCache<T>(trx: Kysely<Database>, stagingKey: string, work: () => Promise<T>): Promise<T> {
      if ((stages.get(stagingKey)?.rows ?? 0) < sortCacheFromRows) return work()
      const before = await sql<{ size: number }>`select cache_size as size from pragma_cache_size()`.execute(trx)
      await sql.raw(`pragma cache_size = -${SORT_CACHE_KIB}`).execute(trx)
      try {
        return await work()
      } finally {
        await sql.raw(`pragma cache_size = ${Number(before.rows[0]!.size)}`).execute(trx)
      }
    },

    /**
     * Drops the staged rows of every attempt of a run (`{runId}:{attempt}`) this process holds, and the tables of
     * earlier runs dropped inside a transaction (should it have rolled back, they are still there).
     */
    async clear(runId: string, executor: Kysely<Database> = db): Promise<void> {
      for (const [stagingKey, stage] of stages) {
        if (!stage.cleared && !stagingKey.startsWith(`${runId}:`)) continue
        await sql`drop table if exists ${sql.id(stage.table)}`.execute(executor)
        await sql`drop table if exists ${sql.id(stage.keysTable)}`.execute(executor)
        await sql`drop table if exists ${sql.id(stage.sortedTable)}`.execute(executor)
        await sql`drop table if exists ${sql.id(stage.groupSumsTable)}`.execute(executor)
        if (executor.isTransaction) {
          stage.cleared = true
          stage.keys = new Map()
          stage.keysByReference = new Map()
          stage.describedTwice = false
          stage.inTwoPeriods = false
          stage.days = new Map()
          stage.rows = 0
          stage.held = null
        } else stages.delete(stagingKey)
      }
    },
  }
}
export type TempStaging = ReturnType<typeof createTempStaging>
