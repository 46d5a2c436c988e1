import { CompiledQuery, type Kysely, type RawBuilder, sql } from 'kysely'
import type { DailyCostRow } from '../../connectors/types.js'
import type { Database, DialectName } from '../../platform/db/index.js'
import { addDays, monthStart, previousMonthStart } from '../../platform/time.js'

/** The storage key of a cost row's resource: its lower-cased ARM id, or '' for the subscription's own charges. */
export function resourceKeyOf(armId: string | null): string {
  return armId ? armId.toLowerCase() : ''
}

export interface CostTotals {
  currency: string
  monthToDate: number
  previousMonth: number
  last30Days: number
}

const STAGING_COLUMNS = [
  'run_id',
  'tenant_id',
  'resource_key',
  'date',
  'meter_id',
  'subscription_id',
  'resource_group_key',
  'meter_name',
  'service_name',
  'cost',
  'currency',
] as const
/**
 * Rows per staging INSERT. On SQLite 100 rows x 11 parameters: the statement's text (~2.5 KB) stays small enough
 * for the statement cache, so it is compiled once, and the per-statement cost is spread over 100 rows. On
 * PostgreSQL 500, as before: each statement is a round trip.
 */
const STAGE_ROWS: Record<DialectName, number> = { sqlite: 100, postgres: 500 }
/**
 * Rows per staging transaction on SQLite: the write lock is held a quarter of a second at a time, never for a
 * whole collection, and a commit (with the WAL checkpoint it may start) comes every 50,000 rows rather than
 * every 100 (a simulated day of 20,000 resources, ~27,000 rows, is one transaction).
 */
const STAGE_TRANSACTION_ROWS = 50_000

/** `insert into cost_staging (...) values (?, ...), ...` for `rows` rows, in the dialect's placeholders. */
function stagingInsert(dialect: DialectName, rows: number): string {
  const width = STAGING_COLUMNS.length
  const tuples: string[] = []
  for (let r = 0; r < rows; r++) {
    const marks = STAGING_COLUMNS.map((_, c) => (dialect === 'postgres' ? `$${r * width + c + 1}` : '?'))
    tuples.push(`(${marks.join(',')})`)
  }
  return `insert into cost_staging (${STAGING_COLUMNS.join(', ')}) values ${tuples.join(',')}`
}

export function summaryWindows(today: string) {
  const start = monthStart(today)
  return {
    monthStart: start,
    previousMonthStart: previousMonthStart(today),
    previousMonthEnd: addDays(start, -1),
    last30Start: addDays(today, -29),
    today,
  }
}

/** The currency a tenant's amounts are shown in when it has no cost row to name one. */
const DEFAULT_CURRENCY = 'USD'

/**
 * The billing currency of each tenant: that of its most recent cost row (an index seek on tenant and date), else of
 * one of its subscriptions, else USD. What a record or chart with no cost row in its window is shown in.
 */
export async function billingCurrencies(db: Kysely<Database>, tenantIds: string[]): Promise<Map<string, string>> {
  if (tenantIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('tenants as t')
    .select((eb) => [
      't.id',
      eb.fn
        .coalesce(
          eb
            .selectFrom('dailyCosts as d')
            .select('d.currency')
            .whereRef('d.tenantId', '=', 't.id')
            .orderBy('d.date', 'desc')
            .limit(1),
          eb
            .selectFrom('subscriptions as s')
            .select('s.currency')
            .whereRef('s.tenantId', '=', 't.id')
            .orderBy('s.lastSeenAt', 'desc')
            .orderBy('s.subscriptionId')
            .limit(1),
        )
        .as('currency'),
    ])
    .where('t.id', 'in', tenantIds)
    .execute()
  const currencies = new Map(tenantIds.map((id) => [id, DEFAULT_CURRENCY]))
  for (const r of rows) if (r.currency) currencies.set(r.id, r.currency)
  return currencies
}

/**
 * Of rows summed per currency, the currency a record is shown in: the one of its most recent day (a billing
 * currency changes rarely, and then the new one is what the next invoice is in). Amounts are never added across
 * currencies, nor converted: rows in another currency are left out of a record's totals.
 */
export function currencyOfLatest(groups: readonly { currency: string; lastDate: string }[]): string | undefined {
  let best: { currency: string; lastDate: string } | undefined
  for (const g of groups) {
    if (!best || g.lastDate > best.lastDate || (g.lastDate === best.lastDate && g.currency < best.currency)) best = g
  }
  return best?.currency
}

export function createCostStore(db: Kysely<Database>, dialect: DialectName) {
  /**
   * The three cost totals of each key (a tenant, subscription, group or resource) over its recent days, in the
   * currency of its latest rows; a key without rows in the window gets zeros in its tenant's billing currency.
   */
  async function summarise(
    key: RawBuilder<string>,
    keys: string[],
    today: string,
    tenantOf: (key: string) => string,
    tenantId?: string,
  ) {
    const totals = new Map<string, CostTotals>()
    if (keys.length === 0) return totals
    const w = summaryWindows(today)
    const from = w.previousMonthStart < w.last30Start ? w.previousMonthStart : w.last30Start
    const sumBetween = (start: string, end: string) =>
      sql<number>`sum(case when date >= ${start} and date <= ${end} then cost else 0 end)`
    const rows = await db
      .selectFrom('dailyCosts')
      .select((eb) => [
        key.as('key'),
        'currency',
        eb.fn.max('date').as('lastDate'),
        sumBetween(w.monthStart, w.today).as('monthToDate'),
        sumBetween(w.previousMonthStart, w.previousMonthEnd).as('previousMonth'),
        sumBetween(w.last30Start, w.today).as('last30Days'),
      ])
      .$if(tenantId !== undefined, (qb) => qb.where('tenantId', '=', tenantId!))
      .where(key, 'in', keys)
      .where('date', '>=', from)
      .where('date', '<=', w.today)
      .groupBy([key, 'currency'])
      .execute()
    const byKey = new Map<string, typeof rows>()
    for (const r of rows) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r])
    for (const [k, groups] of byKey) {
      const currency = currencyOfLatest(groups)
      const r = groups.find((g) => g.currency === currency)!
      totals.set(k, {
        currency: r.currency,
        monthToDate: roundMoney(Number(r.monthToDate)),
        previousMonth: roundMoney(Number(r.previousMonth)),
        last30Days: roundMoney(Number(r.last30Days)),
      })
    }
    const missing = keys.filter((k) => !totals.has(k))
    if (missing.length) {
      const currencies = await billingCurrencies(db, [...new Set(missing.map(tenantOf))])
      for (const k of missing) {
        const currency = currencies.get(tenantOf(k)) ?? DEFAULT_CURRENCY
        totals.set(k, { currency, monthToDate: 0, previousMonth: 0, last30Days: 0 })
      }
    }
    return totals
  }

  const perInsert = STAGE_ROWS[dialect]
  const fullInsert = stagingInsert(dialect, perInsert)

  async function insertStaged(
    trx: Kysely<Database>,
    stagingKey: string,
    tenantId: string,
    rows: readonly DailyCostRow[],
  ): Promise<void> {
    for (let i = 0; i < rows.length; i += perInsert) {
      const n = Math.min(perInsert, rows.length - i)
      const parameters: unknown[] = new Array(n * STAGING_COLUMNS.length)
      let p = 0
      for (let j = i; j < i + n; j++) {
        const r = rows[j]!
        parameters[p++] = stagingKey
        parameters[p++] = tenantId
        parameters[p++] = resourceKeyOf(r.resourceArmId)
        parameters[p++] = r.date
        parameters[p++] = r.meterId
        parameters[p++] = r.subscriptionId
        parameters[p++] = (r.resourceGroupName ?? '').toLowerCase()
        parameters[p++] = r.meterName
        parameters[p++] = r.serviceName
        parameters[p++] = r.cost
        parameters[p++] = r.currency
      }
      await trx.executeQuery(CompiledQuery.raw(n === perInsert ? fullInsert : stagingInsert(dialect, n), parameters))
    }
  }

  return {
    /**
     * Staged rows of one attempt of a run; nothing reads them until `mergeStaged`. Outside a transaction, SQLite
     * commits every STAGE_TRANSACTION_ROWS rows (a run collecting for minutes never blocks other writers long).
     *
     * The INSERTs are written as SQL text with parameters, not built with Kysely: building and compiling a
     * 500-row Kysely insert (and the CamelCasePlugin's pass over its 5,500 values), then one commit per INSERT,
     * made staging 14 µs a row (bench/ingest.ts at 100 days: 38.7 s for 2.7 million rows); now 6.6 µs at 20 days
     * and 9.5 µs at 400 days, mostly SQLite's own work (building the parameters was 1.3 s of 4.8 s in a CPU
     * profile at 20 days). The parameters go in the order of STAGING_COLUMNS.
     */
    async stage(
      stagingKey: string,
      tenantId: string,
      rows: readonly DailyCostRow[],
      trx: Kysely<Database> = db,
    ): Promise<void> {
      if (dialect === 'sqlite' && !trx.isTransaction && rows.length > perInsert) {
        for (let i = 0; i < rows.length; i += STAGE_TRANSACTION_ROWS) {
          const part = rows.slice(i, i + STAGE_TRANSACTION_ROWS)
          await trx.transaction().execute((t) => insertStaged(t, stagingKey, tenantId, part))
        }
        return
      }
      await insertStaged(trx, stagingKey, tenantId, rows)
    },

    /**
     * Forgets staged rows of every attempt of a run (a retry starts clean; a finished run leaves nothing).
     *
     * On SQLite, inside a transaction that has already written (the final transaction of a run or an import),
     * when no other run has rows staged (the usual case), the whole table is emptied with a bare DELETE, which
     * SQLite does by freeing the table's pages rather than deleting millions of rows one by one and rewriting every
     * page of the table and its index into the WAL: on bench/ingest.ts at 20 days (543,000 rows), clear 0.6 s and
     * commit 1.6 s became 0.2 s and 1.1 s. That transaction holds the write lock, so no other process can stage a
     * row between the check and the DELETE (were it a read transaction overtaken by another writer, SQLite would
     * refuse the DELETE with SQLITE_BUSY_SNAPSHOT rather than delete rows it did not see).
     */
    async clearStaged(runId: string, trx: Kysely<Database> = db): Promise<void> {
      if (dialect === 'postgres') {
        await trx.deleteFrom('costStaging').where('runId', 'like', `${runId}:%`).execute()
        return
      }
      // SQLite's LIKE is case-insensitive, so it cannot use the run_id index and reads every staged row; the same
      // prefix as a range of run_id (';' follows ':', and SQLite compares text byte by byte) can.
      const from = `${runId}:`
      const to = `${runId};`
      if (trx.isTransaction) {
        const before = await trx.selectFrom('costStaging').select('runId').where('runId', '<', from).limit(1).execute()
        const after = await trx.selectFrom('costStaging').select('runId').where('runId', '>=', to).limit(1).execute()
        if (before.length === 0 && after.length === 0) {
          await trx.deleteFrom('costStaging').execute()
          return
        }
      }
      await trx.deleteFrom('costStaging').where('runId', '>=', from).where('runId', '<', to).execute()
    },

    /**
     * Moves one attempt's staged rows into daily_costs in one statement: rows of the same key are summed
     * first, then replace what was stored for that (resource, date, meter), so a re-run never double counts.
     * Returns how many cost rows were written.
     *
     * One statement over the whole run, not one per day: the GROUP BY sorts the rows into daily_costs' key order
     * (resource, date, meter), so they go in as appends to its primary key. Day after day, each day's rows land on
     * pages scattered over that index: at 100 days (2.7 million rows) a raw prepared upsert in that order ran at
     * 22,600 rows/s (bench/ingest.ts, BENCH_INGEST_RAW_ORDER=connector), slower than this whole path, and an upsert
     * of similar rows in key order at ~135,000; the gap grows with the table.
     */
    async mergeStaged(trx: Kysely<Database>, stagingKey: string): Promise<number> {
      const result = await sql`
        insert into daily_costs (tenant_id, resource_key, date, meter_id, subscription_id, resource_group_key,
          meter_name, service_name, cost, currency)
        select tenant_id, resource_key, date, meter_id, max(subscription_id), max(resource_group_key),
          max(meter_name), max(service_name), sum(cost), max(currency)
        from cost_staging where run_id = ${stagingKey}
        group by tenant_id, resource_key, date, meter_id
        on conflict (tenant_id, resource_key, date, meter_id) do update set
          subscription_id = excluded.subscription_id, resource_group_key = excluded.resource_group_key,
          meter_name = excluded.meter_name, service_name = excluded.service_name,
          cost = excluded.cost, currency = excluded.currency`.execute(trx)
      return Number(result.numAffectedRows ?? 0n)
    },

    /** Month to date, previous month and last 30 days of each tenant, in one pass over its recent days. */
    tenantTotals: (tenantIds: string[], today: string) =>
      summarise(sql<string>`tenant_id`, tenantIds, today, (id) => id),

    /**
     * The same totals per subscription, resource group (`{subscriptionId}/{group name lower-cased}`) or resource
     * (lower-cased ARM id) of one tenant, for a page of records at once.
     */
    totalsBy: (tenantId: string, by: 'subscription' | 'resourceGroup' | 'resource', keys: string[], today: string) =>
      summarise(
        by === 'subscription'
          ? sql<string>`subscription_id`
          : by === 'resource'
            ? sql<string>`resource_key`
            : sql<string>`subscription_id || '/' || resource_group_key`,
        keys,
        today,
        () => tenantId,
        tenantId,
      ),
  }
}
export type CostStore = ReturnType<typeof createCostStore>

/** Money in responses: cents are what people read; sums of many float rows carry noise past that. */
export function roundMoney(value: number): number {
  return Math.round(value * 100) / 100
}

/** Which cost rows a chart covers. */
export type SeriesFilter =
  | { kind: 'tenant' }
  | { kind: 'subscription'; subscriptionId: string }
  | { kind: 'resourceGroup'; subscriptionId: string; groupKey: string }
  | { kind: 'resource'; resourceKey: string }

export type SeriesGrouping = 'service' | 'resourceGroup' | 'resource' | null

/** Daily sums of a chart scope, optionally split by service, group or resource (tags are split by the caller). */
export function createSeriesQueries(db: Kysely<Database>) {
  return {
    async daily(
      tenantId: string,
      filter: SeriesFilter,
      from: string,
      to: string,
      grouping: SeriesGrouping | 'resourceKey',
    ) {
      const key =
        grouping === 'service'
          ? sql<string>`service_name`
          : grouping === 'resourceGroup'
            ? sql<string>`subscription_id || '/' || resource_group_key`
            : grouping === 'resource' || grouping === 'resourceKey'
              ? sql<string>`resource_key`
              : sql<string>`''`
      const rows = await db
        .selectFrom('dailyCosts')
        .select((eb) => ['date', key.as('key'), 'currency', eb.fn.sum<number>('cost').as('cost')])
        .where('tenantId', '=', tenantId)
        .where('date', '>=', from)
        .where('date', '<=', to)
        .$if(filter.kind === 'subscription', (qb) =>
          qb.where('subscriptionId', '=', (filter as { subscriptionId: string }).subscriptionId),
        )
        .$if(filter.kind === 'resourceGroup', (qb) =>
          qb
            .where('subscriptionId', '=', (filter as { subscriptionId: string }).subscriptionId)
            .where('resourceGroupKey', '=', (filter as { groupKey: string }).groupKey),
        )
        .$if(filter.kind === 'resource', (qb) =>
          qb.where('resourceKey', '=', (filter as { resourceKey: string }).resourceKey),
        )
        // PostgreSQL refuses a constant in GROUP BY, so an ungrouped series groups by date alone. Never summed
        // across currencies: each currency is a row of its own.
        .$if(grouping === null, (qb) => qb.groupBy(['date', 'currency']))
        .$if(grouping !== null, (qb) => qb.groupBy(['date', key, 'currency']))
        .execute()
      return rows.map((r) => ({ date: r.date, key: r.key, cost: Number(r.cost), currency: r.currency }))
    },

    /** The tenant's billing currency (see billingCurrencies): what a chart with no cost row is shown in. */
    async billingCurrency(tenantId: string): Promise<string> {
      return (await billingCurrencies(db, [tenantId])).get(tenantId) ?? DEFAULT_CURRENCY
    },
  }
}

/** What one resource cost over a period, per service and currency (a report's raw material). */
export interface ResourceServiceCost {
  resourceKey: string
  subscriptionId: string
  resourceGroupKey: string
  serviceName: string
  currency: string
  cost: number
}

/** What a report shows of a resource beside its costs. */
export interface ResourceFacts {
  name: string
  resourceType: string
  resourceGroupName: string
  tags: Record<string, string>
}

/**
 * Cost rows read per batch: a batch's range ends at the resource key this many rows on. Small on purpose: a
 * batch's objects then die young; at 20,000 they outlived the young generation and a 1,000,000-row report went
 * through 350 MB of RSS only reading, against 160 MB at 2,000 (bench/reports.ts).
 */
const REPORT_BATCH_ROWS = 2_000

/**
 * A tenant's costs over [from, to] per resource, service and currency, in batches that follow daily_costs' key
 * (tenant_id, resource_key, ...), every charge summed. Each batch is a range of resource keys: its upper bound is
 * the key found `batchRows` cost rows further along the index, so every query is an index range scan on both
 * dialects, a resource is never split between batches, and neither the result nor a driver cursor is held open.
 * Each batch comes with the inventory facts (name, type, group, tags) of its resources, read by the same range.
 */
export async function* resourceCostBatches(
  db: Kysely<Database>,
  tenantId: string,
  from: string,
  to: string,
  batchRows = REPORT_BATCH_ROWS,
): AsyncGenerator<{ costs: ResourceServiceCost[]; facts: Map<string, ResourceFacts> }> {
  let after: string | null = null
  for (;;) {
    const bound: { resourceKey: string } | undefined = await db
      .selectFrom('dailyCosts')
      .select('resourceKey')
      .where('tenantId', '=', tenantId)
      .$if(after !== null, (qb) => qb.where('resourceKey', '>', after!))
      .orderBy('tenantId')
      .orderBy('resourceKey')
      .limit(1)
      .offset(batchRows)
      .executeTakeFirst()
    const upTo: string | null = bound?.resourceKey ?? null
    const rows = await db
      .selectFrom('dailyCosts')
      .select((eb) => [
        'resourceKey',
        'serviceName',
        'currency',
        eb.fn.max('subscriptionId').as('subscriptionId'),
        eb.fn.max('resourceGroupKey').as('resourceGroupKey'),
        eb.fn.sum<number>('cost').as('cost'),
      ])
      .where('tenantId', '=', tenantId)
      .$if(after !== null, (qb) => qb.where('resourceKey', '>', after!))
      .$if(upTo !== null, (qb) => qb.where('resourceKey', '<=', upTo!))
      .where('date', '>=', from)
      .where('date', '<=', to)
      .groupBy(['resourceKey', 'serviceName', 'currency'])
      .orderBy('resourceKey')
      .orderBy('serviceName')
      .orderBy('currency')
      .execute()
    const facts = new Map<string, ResourceFacts>()
    if (rows.length > 0) {
      const inventory = await db
        .selectFrom('resources')
        .select(['armIdLower', 'name', 'resourceType', 'resourceGroupName', 'tags'])
        .where('tenantId', '=', tenantId)
        .where('armIdLower', '>=', rows[0]!.resourceKey)
        .where('armIdLower', '<=', rows[rows.length - 1]!.resourceKey)
        .execute()
      for (const r of inventory)
        facts.set(r.armIdLower, {
          name: r.name,
          resourceType: r.resourceType,
          resourceGroupName: r.resourceGroupName,
          tags: JSON.parse(r.tags) as Record<string, string>,
        })
      yield {
        costs: rows.map((r) => ({
          resourceKey: r.resourceKey,
          subscriptionId: String(r.subscriptionId),
          resourceGroupKey: String(r.resourceGroupKey),
          serviceName: r.serviceName,
          currency: r.currency,
          cost: Number(r.cost),
        })),
        facts,
      }
    }
    if (upTo === null) return
    after = upTo
  }
}
