import { CompiledQuery, type Kysely, type RawBuilder, SqliteAdapter, sql } from 'kysely'
import { type DailyCostRow, type KeyedCostRows, toDailyCostRows } from '../../connectors/types.js'
import { chunk } from '../../platform/chunk.js'
import type { Database, DialectName } from '../../platform/db/index.js'
import { roundMoney } from '../../platform/money.js'
import { addDays, dayCount, dayDiff, monthStart, previousMonthStart } from '../../platform/time.js'
import { type CoveredDays, createTempStaging, type FreshSeries, type Merged, upsertDailyCosts } from './staging.js'

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
  'charge_category',
  'charge_class',
  'subscription_id',
  'resource_group_key',
  'meter_name',
  'service_name',
  'cost',
  'currency',
] as const
/** Rows per staging INSERT on PostgreSQL: each statement is a round trip. */
const STAGE_ROWS = 500

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
 * The billing currency of each tenant: that of its most recent cost row (a seek into its daily series), else of
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
            .selectFrom('costSeries as c')
            .select('c.currency')
            .whereRef('c.tenantId', '=', 't.id')
            .where('c.level', '=', 'tenant')
            .orderBy('c.date', 'desc')
            .orderBy('c.currency')
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

/** One scope's daily usage cost: see usageSeries. */
export interface UsageSeries {
  scopeKey: string
  /**
   * The scope one level up, for drivers: '' (the tenant) for a subscription, the subscription of a resource group,
   * the `{subscriptionId}/{group}` of a resource; null for the tenant and for services.
   */
  parent: string | null
  currency: string
  /** `costs[i]` is the usage cost of day `from + i`. */
  costs: Float64Array
}

/** Levels of cost_series; resources and (group, service) pairs have tables of their own. */
export type SeriesLevel = 'tenant' | 'subscription' | 'resourceGroup' | 'service'

/**
 * Rewrites every daily series of one tenant over [from, to] from daily_costs: deletes the days, then sums them
 * again, finest first (resources from the cost rows, (group, service) pairs from resources, the rest from those
 * pairs, the tenant from its subscriptions). Run inside the transaction that wrote the cost rows, so a series
 * always equals the sum of its rows: a re-collected day replaces its series, never adds to them.
 *
 * A recompute of the run's days rather than deltas applied to the old values: it needs no read of the rows being
 * replaced, and no error can accumulate over repeated runs (a delta of floating-point sums drifts). Its price is
 * one pass over the window's cost rows, which the merge has just brought into cache (bench/ingest.ts times it).
 */
export async function rebuildSeries(
  trx: Kysely<Database>,
  tenantId: string,
  from: string,
  to: string,
  fresh?: FreshSeries,
) {
  const range = sql`tenant_id = ${tenantId} and date >= ${from} and date <= ${to}`
  await sql`delete from resource_cost_series where ${range}`.execute(trx)
  await sql`delete from group_cost_series where ${range}`.execute(trx)
  await sql`delete from cost_series where level in ('tenant', 'subscription', 'resourceGroup', 'service') and ${range}`.execute(
    trx,
  )
  if (fresh) await fresh.resourceSeries(trx)
  else {
    // The tenant's cost rows of those days: one range of daily_costs' key (resource, date) per resource of the
    // tenant, each numbered in cost_resources (a merge numbers its resources before it writes their rows).
    await sql`
      insert into resource_cost_series (tenant_id, date, resource_id, service_name, charge_category, currency,
        subscription_id, resource_group_key, cost)
      select ${tenantId}, date, resource_id, service_name, charge_category, currency, max(subscription_id),
        max(resource_group_key), sum(cost)
      from daily_costs
      where resource_id in (select id from cost_resources where tenant_id = ${tenantId})
        and date >= ${from} and date <= ${to}
      group by date, resource_id, service_name, charge_category, currency`.execute(trx)
  }
  await sql`
    insert into group_cost_series (tenant_id, date, subscription_id, resource_group_key, service_name,
      charge_category, currency, cost)
    select ${tenantId}, date, subscription_id, resource_group_key, service_name, charge_category, currency, sum(cost)
    from resource_cost_series where ${range}
    group by date, subscription_id, resource_group_key, service_name, charge_category, currency`.execute(trx)
  await sql`
    insert into cost_series (tenant_id, level, date, scope_key, charge_category, currency, cost)
    select tenant_id, 'resourceGroup', date, subscription_id || '/' || resource_group_key, charge_category,
      currency, sum(cost)
    from group_cost_series where ${range}
    group by tenant_id, date, subscription_id, resource_group_key, charge_category, currency`.execute(trx)
  await sql`
    insert into cost_series (tenant_id, level, date, scope_key, charge_category, currency, cost)
    select tenant_id, 'service', date, service_name, charge_category, currency, sum(cost)
    from group_cost_series where ${range}
    group by tenant_id, date, service_name, charge_category, currency`.execute(trx)
  await sql`
    insert into cost_series (tenant_id, level, date, scope_key, charge_category, currency, cost)
    select tenant_id, 'subscription', date, subscription_id, charge_category, currency, sum(cost)
    from group_cost_series where ${range}
    group by tenant_id, date, subscription_id, charge_category, currency`.execute(trx)
  await sql`
    insert into cost_series (tenant_id, level, date, scope_key, charge_category, currency, cost)
    select tenant_id, 'tenant', date, '', charge_category, currency, sum(cost)
    from cost_series where level = 'subscription' and ${range}
    group by tenant_id, date, charge_category, currency`.execute(trx)
  await rebuildRunningCosts(trx, tenantId, from, fresh)
  await rebuildTagSeries(trx, tenantId, from, to)
}

/**
 * Rewrites the tag series of [from, to] from the resource series and the resources' tags. The tags are read
 * from the inventory and compared with those the series were last summed with (resource_tags): a tag key whose
 * value changed on any resource (or that appeared or went) has its series rewritten over every day, since a
 * chart groups all days by the tags a resource has now. Runs after the inventory is synced, in the same
 * transaction (a snapshot run and an import sync it just before merging their costs).
 */
async function rebuildTagSeries(trx: Kysely<Database>, tenantId: string, from: string, to: string) {
  const eachTag =
    trx.getExecutor().adapter instanceof SqliteAdapter ? sql`json_each(r.tags)` : sql`jsonb_each_text(r.tags::jsonb)`
  // A resource with a key in two spellings counts under the smaller value, as charts always grouped it.
  const current = sql`select r.arm_id_lower as resource_key, lower(j.key) as tag_key, min(j.value) as tag_value
    from resources r cross join ${eachTag} j where r.tenant_id = ${tenantId}
    group by r.arm_id_lower, lower(j.key)`
  const stored = sql`select resource_key, tag_key, tag_value from resource_tags where tenant_id = ${tenantId}`
  const changed = (
    await sql<{ tagKey: string }>`
      select distinct tag_key as "tagKey" from (
        select * from (${current} except ${stored}) added
        union all
        select * from (${stored} except ${current}) removed
      ) differences`.execute(trx)
  ).rows.map((r) => r.tagKey)
  const changedKeys = sql.join(changed)
  if (changed.length) {
    await sql`delete from resource_tags where tenant_id = ${tenantId} and tag_key in (${changedKeys})`.execute(trx)
    await sql`
      insert into resource_tags (tenant_id, resource_key, tag_key, tag_value)
      select ${tenantId}, resource_key, tag_key, tag_value from (${current}) tags
      where tag_key in (${changedKeys})`.execute(trx)
    await sql`delete from tag_cost_series where tenant_id = ${tenantId} and tag_key in (${changedKeys})`.execute(trx)
  }
  await sql`delete from tag_cost_series where tenant_id = ${tenantId} and date >= ${from} and date <= ${to}`.execute(
    trx,
  )
  // A tenant without tags (costs imported without an inventory) has nothing to sum: no join of every resource day.
  const tagged = await sql`select 1 from resource_tags where tenant_id = ${tenantId} limit 1`.execute(trx)
  if (tagged.rows.length === 0) return
  await withTagSets(trx, tenantId, async ({ sets, tags, fewSets }) => {
    // With few sets, each set's days are summed first, then each set's sums added to each of its tags; with
    // about as many sets as resources, that first sum would only add a sort, and each resource day is joined to
    // its tags directly.
    const insertSums = (days: RawBuilder<unknown>, ofTags: RawBuilder<unknown>) =>
      fewSets
        ? sql`
            insert into tag_cost_series (tenant_id, tag_key, date, tag_value, currency, cost)
            select ${tenantId}, t.tag_key, g.date, t.tag_value, g.currency, sum(g.cost)
            from (
              select m.tag_set, s.date, s.currency, sum(s.cost) as cost
              from resource_cost_series s join ${sets} m on m.resource_id = s.resource_id
              where s.tenant_id = ${tenantId} and ${days}
              group by m.tag_set, s.date, s.currency
            ) g join ${tags} t on t.tag_set = g.tag_set
            where ${ofTags}
            group by t.tag_key, g.date, t.tag_value, g.currency`
        : sql`
            insert into tag_cost_series (tenant_id, tag_key, date, tag_value, currency, cost)
            select ${tenantId}, t.tag_key, s.date, t.tag_value, s.currency, sum(s.cost)
            from resource_cost_series s
            join ${sets} m on m.resource_id = s.resource_id
            join ${tags} t on t.tag_set = m.tag_set
            where s.tenant_id = ${tenantId} and ${days} and ${ofTags}
            group by t.tag_key, s.date, t.tag_value, s.currency`
    await insertSums(sql`s.date >= ${from} and s.date <= ${to}`, sql`true`).execute(trx)
    if (changed.length) {
      await insertSums(sql`(s.date < ${from} or s.date > ${to})`, sql`t.tag_key in (${changedKeys})`).execute(trx)
    }
  })
}

/**
 * Runs `work` with the tenant's resources numbered by the set of tags they have (`sets`: resource_id, tag_set)
 * and each set's tags (`tags`: tag_set, tag_key, tag_value), in TEMP tables dropped after it. The tag series sum
 * resources with the same tags together first, and only then once per tag: an estate tags its resources with a
 * few combinations (81 among the 1,000 resources of bench/focus-import.ts), so the join that multiplies each day
 * by the tags is over the sets' days, not the resources'. There, 400 days of tag series took 1.96 s joined per
 * resource, 0.43 s per tag set. `fewSets` says whether there are at most half as many sets as resources: with a
 * tag of its own on every resource, summing per set first was 20% slower than the join per resource.
 */
async function withTagSets(
  trx: Kysely<Database>,
  tenantId: string,
  work: (tables: { sets: RawBuilder<unknown>; tags: RawBuilder<unknown>; fewSets: boolean }) => Promise<void>,
) {
  const rows = await sql<{ resourceId: number; tagKey: string; tagValue: string }>`
    select c.id as "resourceId", t.tag_key as "tagKey", t.tag_value as "tagValue"
    from resource_tags t join cost_resources c on c.tenant_id = t.tenant_id and c.resource_key = t.resource_key
    where t.tenant_id = ${tenantId} order by c.id, t.tag_key`.execute(trx)
  const tagsOf = new Map<number, [string, string][]>()
  for (const r of rows.rows) {
    const id = Number(r.resourceId)
    let tags = tagsOf.get(id)
    if (!tags) {
      tags = []
      tagsOf.set(id, tags)
    }
    tags.push([r.tagKey, r.tagValue])
  }
  const setOf = new Map<string, number>()
  const sets: number[][] = []
  const tags: [number, string, string][] = []
  for (const [resourceId, resourceTags] of tagsOf) {
    const identity = JSON.stringify(resourceTags)
    let set = setOf.get(identity)
    if (set === undefined) {
      set = setOf.size
      setOf.set(identity, set)
      for (const [key, value] of resourceTags) tags.push([set, key, value])
    }
    sets.push([resourceId, set])
  }
  const id = trx.getExecutor().adapter instanceof SqliteAdapter ? sql`integer` : sql`bigint`
  const setsTable = sql.table('temp_tag_sets')
  const tagsTable = sql.table('temp_tag_set_tags')
  await sql`drop table if exists ${setsTable}`.execute(trx)
  await sql`drop table if exists ${tagsTable}`.execute(trx)
  await sql`create temp table ${setsTable} (resource_id ${id} primary key, tag_set integer not null)`.execute(trx)
  await sql`create temp table ${tagsTable} (tag_set integer not null, tag_key text not null,
    tag_value text not null, primary key (tag_set, tag_key))`.execute(trx)
  await insertRows(trx, setsTable, sets)
  await insertRows(trx, tagsTable, tags)
  await work({ sets: setsTable, tags: tagsTable, fewSets: setOf.size * 2 <= sets.length })
  await sql`drop table ${setsTable}`.execute(trx)
  await sql`drop table ${tagsTable}`.execute(trx)
}

/** Inserts rows of values into a table, 500 rows a statement. */
async function insertRows(trx: Kysely<Database>, table: RawBuilder<unknown>, rows: readonly unknown[][]) {
  for (const part of chunk(rows, 500)) {
    await sql`insert into ${table} values ${sql.join(part.map((row) => sql`(${sql.join(row)})`))}`.execute(trx)
  }
}

/**
 * Rewrites the running totals of every resource with cost on or after `from` (a changed day shifts every later
 * running total, so they are rewritten up to the last day, not just to the run's end): each starts again from its
 * last running total before `from`, then adds its days from the resource series. Each row keeps its day's cost
 * too (every category), what a chart by resource draws for its largest resources. Then the summary row of each
 * of those resources (see resource_cost_totals).
 */
async function rebuildRunningCosts(trx: Kysely<Database>, tenantId: string, from: string, fresh?: FreshSeries) {
  let touched = sql`select distinct resource_id, currency from resource_cost_series
    where tenant_id = ${tenantId} and date >= ${from}`
  // A tenant has running totals when it has their summaries (both are written for the same resources).
  const any = await sql`select 1 from resource_cost_totals where tenant_id = ${tenantId} limit 1`.execute(trx)
  if (any.rows.length === 0 && fresh) {
    await fresh.firstRunningCosts(trx)
    // The summaries below then need no pass over the resource series to find their resources (20,000 x 400
    // days: 12.6 s of the merge).
    touched = fresh.stagedResources
  } else if (any.rows.length === 0) {
    // A tenant's first costs: nothing to delete and no total before `from`, so one window sum over the grouped
    // days, which come out of the GROUP BY in the window's order (no second sort, no union of bases): 1.8 s of CPU
    // instead of 2.8 s for 400,000 resource days.
    await sql`
      insert into resource_running_costs (resource_id, currency, date, running_cost, cost)
      select resource_id, currency, date,
        sum(sum(cost)) over (partition by resource_id, currency order by date), sum(cost)
      from resource_cost_series where tenant_id = ${tenantId} and date >= ${from}
      group by resource_id, currency, date`.execute(trx)
  } else {
    await sql`
      delete from resource_running_costs
      where (resource_id, currency) in (${touched}) and date >= ${from}`.execute(trx)
    // Each touched resource's running total before `from` goes in as a row dated '' (sorting before every day), so
    // one window sum over its partition adds it to the days that follow; a join of the bases to the days made
    // SQLite rescan the bases for every day row.
    await sql`
      insert into resource_running_costs (resource_id, currency, date, running_cost, cost)
      select resource_id, currency, date, running, cost from (
        select resource_id, currency, date, cost,
          sum(cost) over (partition by resource_id, currency order by date) as running
        from (
          select resource_id, currency, date, sum(cost) as cost from resource_cost_series
          where tenant_id = ${tenantId} and date >= ${from}
          group by resource_id, currency, date
          union all
          select k.resource_id, k.currency, '' as date, coalesce((
            select r.running_cost from resource_running_costs r
            where r.resource_id = k.resource_id and r.currency = k.currency and r.date < ${from}
            order by r.date desc limit 1
          ), 0) as cost
          from (${touched}) k
        ) days
      ) running_days
      where date <> ''`.execute(trx)
    await sql`
      delete from resource_cost_totals
      where tenant_id = ${tenantId} and (resource_id, currency) in (${touched})`.execute(trx)
  }
  // Three seeks per resource on the running totals' key, not a read of all its days.
  const sameResource = (alias: string) =>
    sql`r.resource_id = ${sql.raw(alias)}.resource_id and r.currency = ${sql.raw(alias)}.currency`
  await sql`
    insert into resource_cost_totals (tenant_id, currency, resource_key, resource_id, first_date, last_date,
      running_cost)
    select ${tenantId}, k.currency, ${keyOfResource('k')}, k.resource_id, k.first_date, k.last_date, (
      select r.running_cost from resource_running_costs r where ${sameResource('k')} and r.date = k.last_date
    ) from (
      select t.resource_id, t.currency,
        (select min(r.date) from resource_running_costs r where ${sameResource('t')}) as first_date,
        (select max(r.date) from resource_running_costs r where ${sameResource('t')}) as last_date
      from (${touched}) t
    ) k`.execute(trx)
}

export function createCostStore(db: Kysely<Database>, dialect: DialectName) {
  /**
   * The three cost totals of each key (a tenant, subscription, group or resource) over its recent days, in the
   * currency of its latest rows; a key without rows in the window gets zeros in its tenant's billing currency.
   * Read from `table` (a daily series, or daily_costs for resources: one range of its key per resource) where
   * `where` holds and `key` is one of `keys`.
   */
  async function summarise(
    table: RawBuilder<unknown>,
    key: RawBuilder<string>,
    where: RawBuilder<unknown>,
    keys: string[],
    today: string,
    tenantOf: (key: string) => string,
  ) {
    const totals = new Map<string, CostTotals>()
    if (keys.length === 0) return totals
    const w = summaryWindows(today)
    const from = w.previousMonthStart < w.last30Start ? w.previousMonthStart : w.last30Start
    const sumBetween = (start: string, end: string) =>
      sql<number>`sum(case when date >= ${start} and date <= ${end} then cost else 0 end)`
    const { rows } = await sql<{
      key: string
      currency: string
      lastDate: string
      monthToDate: number
      previousMonth: number
      last30Days: number
    }>`
      select ${key} as key, currency, max(date) as "lastDate",
        ${sumBetween(w.monthStart, w.today)} as "monthToDate",
        ${sumBetween(w.previousMonthStart, w.previousMonthEnd)} as "previousMonth",
        ${sumBetween(w.last30Start, w.today)} as "last30Days"
      from ${table}
      where ${where} and ${key} in (${sql.join(keys)}) and date >= ${from} and date <= ${w.today}
      group by ${key}, currency`.execute(db)
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

  // SQLite stages in the connection's TEMP database (see staging.ts); PostgreSQL in the cost_staging table.
  const tempStaging = dialect === 'sqlite' ? createTempStaging(db) : null
  const perInsert = STAGE_ROWS
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
        parameters[p++] = r.chargeCategory
        parameters[p++] = r.chargeClass ?? ''
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

  /** mergeStaged's work: the cost rows, then the series of the days they cover. */
  async function merge(trx: Kysely<Database>, stagingKey: string, covered?: CoveredDays): Promise<number> {
    let merged: Merged
    if (tempStaging) merged = await tempStaging.merge(trx, stagingKey, covered)
    else {
      // The number of each resource (see cost_resources), new ones numbered in the order of their keys.
      await sql`
        insert into cost_resources (tenant_id, resource_key)
        select distinct tenant_id, resource_key from cost_staging where run_id = ${stagingKey}
        order by tenant_id, resource_key
        on conflict (tenant_id, resource_key) do nothing`.execute(trx)
      const rows = await upsertDailyCosts(
        trx,
        sql`
          select c.id, s.date, s.meter_id, s.charge_category, s.charge_class, max(s.subscription_id),
            max(s.resource_group_key), max(s.meter_name), max(s.service_name), sum(s.cost), max(s.currency)
          from cost_staging s join cost_resources c on c.tenant_id = s.tenant_id and c.resource_key = s.resource_key
          where s.run_id = ${stagingKey}
          group by c.id, s.date, s.meter_id, s.charge_category, s.charge_class`,
      )
      const ranges = covered
        ? [covered]
        : (
            await sql<CoveredDays>`
              select tenant_id as "tenantId", min(date) as "from", max(date) as "to" from cost_staging
              where run_id = ${stagingKey} group by tenant_id`.execute(trx)
          ).rows
      merged = { rows, ranges }
    }
    for (const range of merged.ranges) {
      const fresh = merged.fresh?.find((f) => f.tenantId === range.tenantId)
      await rebuildSeries(trx, range.tenantId, range.from, range.to, fresh)
    }
    return merged.rows
  }

  return {
    /**
     * Staged rows of one attempt of a run; nothing reads them until `mergeStaged`. On SQLite they go to the
     * connection's TEMP database (see staging.ts), taking no lock of the database file; on PostgreSQL to the
     * cost_staging table, in multi-row INSERTs written as SQL text with parameters (building a 500-row Kysely
     * insert, with the CamelCasePlugin's pass over its values, cost more than running it). The parameters go in
     * the order of STAGING_COLUMNS.
     */
    async stage(
      stagingKey: string,
      tenantId: string,
      rows: readonly DailyCostRow[],
      trx: Kysely<Database> = db,
    ): Promise<void> {
      if (tempStaging) return tempStaging.stage(stagingKey, tenantId, rows, trx)
      await insertStaged(trx, stagingKey, tenantId, rows)
    },

    /** `stage` of keyed rows (a FOCUS import's), on SQLite with each key looked up once (see stageKeyed). */
    async stageKeyed(stagingKey: string, tenantId: string, rows: KeyedCostRows, trx: Kysely<Database> = db) {
      if (tempStaging) return tempStaging.stageKeyed(stagingKey, tenantId, rows, trx)
      await insertStaged(trx, stagingKey, tenantId, toDailyCostRows(rows))
    },

    /**
     * Forgets staged rows of every attempt of a run (a retry starts clean; a finished run leaves nothing). On
     * SQLite also any row of the run in cost_staging, where an earlier version staged them.
     */
    async clearStaged(runId: string, trx: Kysely<Database> = db): Promise<void> {
      if (tempStaging) {
        await tempStaging.clear(runId, trx)
        // SQLite's LIKE is case-insensitive, so it cannot use the run_id index; the same prefix as a range of
        // run_id (';' follows ':', and SQLite compares text byte by byte) can.
        await trx.deleteFrom('costStaging').where('runId', '>=', `${runId}:`).where('runId', '<', `${runId};`).execute()
        return
      }
      await trx.deleteFrom('costStaging').where('runId', 'like', `${runId}:%`).execute()
    },

    /**
     * Moves one attempt's staged rows into daily_costs in one statement: rows of the same key are summed
     * first, then replace what was stored for that (resource, date, meter, charge category and class), so a re-run
     * never double counts. Then rewrites the daily series of the days it covered (see rebuildSeries), in the same
     * transaction. Returns how many cost rows were written.
     *
     * `covered` is the tenant and the days the staged rows may fall on (a run's window), when the caller knows it;
     * without it they are those of the staged rows.
     *
     * One statement over the whole run, not one per day: the GROUP BY sorts the rows into daily_costs' key order
     * (resource, date, meter), so they go in as appends to its primary key. Day after day, each day's rows land on
     * pages scattered over that index: at 100 days (2.7 million rows) a raw prepared upsert in that order ran at
     * 22,600 rows/s (bench/ingest.ts, BENCH_INGEST_RAW_ORDER=connector), slower than this whole path, and an upsert
     * of similar rows in key order at ~135,000; the gap grows with the table.
     */
    async mergeStaged(trx: Kysely<Database>, stagingKey: string, covered?: CoveredDays): Promise<number> {
      if (tempStaging) return tempStaging.withMergeCache(trx, stagingKey, () => merge(trx, stagingKey, covered))
      return merge(trx, stagingKey, covered)
    },

    /**
     * The daily usage cost (charge category Usage only: purchases, taxes, credits and adjustments left out) of
     * every scope of one level of a tenant over [from, to], for anomaly detection. One series per scope and
     * currency; `costs[i]` is the cost of day `from + i`, 0 where nothing was used.
     *
     * Read from the daily series kept by mergeStaged (resource_cost_series for `resource`, cost_series for the
     * others), never from the raw cost rows. Scope keys are those of the series: '' for the tenant, the
     * subscription id, `{subscriptionId}/{group name lower-cased}`, the service name, or the lower-cased ARM id of
     * a resource ('' for charges of a subscription itself). Ordered by scope key, then currency.
     */
    async usageSeries(
      tenantId: string,
      level: SeriesLevel | 'resource',
      from: string,
      to: string,
    ): Promise<UsageSeries[]> {
      const where = sql`tenant_id = ${tenantId} and date >= ${from} and date <= ${to} and charge_category = 'Usage'`
      type Row = { scopeKey: string; parent: string | null; date: string; currency: string; cost: number }
      const rows =
        level === 'resource'
          ? await sql<Row>`
              select ${keyOfResource('g')} as "scopeKey", g.parent, g.date, g.currency, g.cost from (
                select resource_id, max(subscription_id || '/' || resource_group_key) as parent, date, currency,
                  sum(cost) as cost
                from resource_cost_series where ${where} group by resource_id, date, currency
              ) g`.execute(db)
          : await sql<Row>`
              select scope_key as "scopeKey", null as parent, date, currency, cost from cost_series
              where ${where} and level = ${level}`.execute(db)
      const parentOf = (r: Row): string | null =>
        level === 'subscription' ? '' : level === 'resourceGroup' ? r.scopeKey.split('/')[0]! : r.parent
      const days = dayCount(from, to)
      const series = new Map<string, UsageSeries>()
      for (const r of rows.rows) {
        const id = `${r.scopeKey}\u0000${r.currency}`
        let s = series.get(id)
        if (!s) {
          s = { scopeKey: r.scopeKey, parent: parentOf(r), currency: r.currency, costs: new Float64Array(days) }
          series.set(id, s)
        }
        s.costs[dayDiff(from, r.date)]! += Number(r.cost)
      }
      return [...series.values()].sort((a, b) =>
        a.scopeKey < b.scopeKey ? -1 : a.scopeKey > b.scopeKey ? 1 : a.currency < b.currency ? -1 : 1,
      )
    },

    /** Month to date, previous month and last 30 days of each tenant, from its daily series. */
    tenantTotals: (tenantIds: string[], today: string) =>
      summarise(sql`cost_series`, sql<string>`tenant_id`, sql`level = 'tenant'`, tenantIds, today, (id) => id),

    /**
     * The same totals per subscription, resource group (`{subscriptionId}/{group name lower-cased}`) or resource
     * (lower-cased ARM id) of one tenant, for a page of records at once: from the daily series of subscriptions
     * and groups, from each resource's own cost rows.
     */
    totalsBy: (tenantId: string, by: 'subscription' | 'resourceGroup' | 'resource', keys: string[], today: string) => {
      const [table, key, where] =
        by === 'resource'
          ? [COST_ROWS_WITH_KEYS, sql<string>`resource_key`, sql`tenant_id = ${tenantId}`]
          : [sql`cost_series`, sql<string>`scope_key`, sql`tenant_id = ${tenantId} and level = ${by}`]
      return summarise(table, key, where, keys, today, () => tenantId)
    },
  }
}
export type CostStore = ReturnType<typeof createCostStore>

/**
 * daily_costs beside each row's tenant_id and resource_key (the lower-cased ARM id, '' for charges of a
 * subscription itself) from cost_resources (`c`), which numbers the rows' resources: one tenant's rows of some
 * resources, by key, are a seek of cost_resources' key and a range of daily_costs' key per resource.
 */
export const COST_ROWS_WITH_KEYS = sql`daily_costs join cost_resources c on c.id = daily_costs.resource_id`

/**
 * The key (lower-cased ARM id) of the resource numbered `alias.resource_id`, looked up per row: a join would let
 * the planner loop over the tenant's resources and look each up in the other side (a sort of it first), and
 * write a series in resource order instead of its key's.
 */
function keyOfResource(alias: string): RawBuilder<string> {
  return sql<string>`(select named.resource_key from cost_resources named
    where named.id = ${sql.ref(`${alias}.resource_id`)})`
}

/** Which cost rows a chart covers. */
export type SeriesFilter =
  | { kind: 'tenant' }
  | { kind: 'subscription'; subscriptionId: string }
  | { kind: 'resourceGroup'; subscriptionId: string; groupKey: string }
  | { kind: 'resource'; resourceKey: string }

export type SeriesGrouping = 'service' | 'resourceGroup' | 'resource' | null

/** A chart's rows: the day, its group's key ('' ungrouped), currency and cost. */
export interface SeriesRow {
  date: string
  key: string
  cost: number
  currency: string
}

/**
 * Daily sums of a chart scope, optionally split by service, group, resource or the value of one tag, read from the
 * daily series (every charge category counts), never from the raw cost rows of a tenant. Which series serves which
 * chart: a tenant, subscription or resource group alone, or a tenant by service or group, come from cost_series; a
 * subscription or group split by service or group from group_cost_series; a split by resource or tag from
 * resource_cost_series; one resource from its own cost rows (one range of daily_costs' primary key).
 */
export function createSeriesQueries(db: Kysely<Database>, dialect: DialectName) {
  const between = (from: string, to: string) => sql`date >= ${from} and date <= ${to}`

  /**
   * `select date, key, currency, sum(cost)` of one series table, grouped by date, key and currency; key '' when
   * null (PostgreSQL refuses a constant in GROUP BY). Never summed across currencies: each is a row of its own.
   */
  async function sums(table: RawBuilder<unknown>, key: RawBuilder<string> | null, where: RawBuilder<unknown>) {
    return seriesRows(sql<SeriesRow>`
      select date, ${key ?? sql`''`} as key, currency, sum(cost) as cost from ${table} where ${where}
      group by date, ${key === null ? sql`` : sql`${key}, `}currency`)
  }

  /** The (date, key, currency, cost) rows of `query`, each cost a number. */
  async function seriesRows(query: RawBuilder<SeriesRow>): Promise<SeriesRow[]> {
    const result = await query.execute(db)
    return result.rows.map((r) => ({ date: r.date, key: r.key, cost: Number(r.cost), currency: r.currency }))
  }

  /**
   * The value of tag `tagKey` (compared ignoring case, as Azure does) of each resource that has it, from the
   * inventory: a subquery of (resource_key, tag_value) rows. A resource that has the key in two spellings counts
   * under the smaller value.
   */
  function taggedResources(tenantId: string, tagKey: string) {
    return dialect === 'postgres'
      ? sql`(select r.arm_id_lower as resource_key, min(j.value) as tag_value
          from resources r cross join lateral jsonb_each_text(r.tags::jsonb) j
          where r.tenant_id = ${tenantId} and lower(j.key) = ${tagKey} group by r.arm_id_lower)`
      : sql`(select r.arm_id_lower as resource_key, min(j.value) as tag_value
          from resources r, json_each(r.tags) j
          where r.tenant_id = ${tenantId} and lower(j.key) = ${tagKey} group by r.arm_id_lower)`
  }

  return {
    async daily(
      tenantId: string,
      filter: SeriesFilter,
      from: string,
      to: string,
      grouping: SeriesGrouping | { tagKey: string },
    ): Promise<SeriesRow[]> {
      const tenantRange = sql`tenant_id = ${tenantId} and ${between(from, to)}`
      const narrowed =
        filter.kind === 'subscription'
          ? sql`subscription_id = ${filter.subscriptionId}`
          : filter.kind === 'resourceGroup'
            ? sql`subscription_id = ${filter.subscriptionId} and resource_group_key = ${filter.groupKey}`
            : filter.kind === 'resource'
              ? sql`c.resource_key = ${filter.resourceKey}`
              : sql`1 = 1`
      // One resource: its own rows (COST_ROWS_WITH_KEYS), a seek on cost_resources' key (tenant, resource) and a
      // range of daily_costs' (resource, date); the resource series are keyed by date first, for the tenant-wide
      // charts. Both name a resource by its number, whose key is in cost_resources (`c`).
      const ofResource = filter.kind === 'resource'
      if (grouping !== null && typeof grouping === 'object') {
        const rows = ofResource
          ? COST_ROWS_WITH_KEYS
          : sql`resource_cost_series s join cost_resources c on c.id = s.resource_id`
        return seriesRows(sql<SeriesRow>`
          select date, coalesce(t.tag_value, '') as key, currency, sum(cost) as cost
          from ${rows} left join ${taggedResources(tenantId, grouping.tagKey)} t on t.resource_key = c.resource_key
          where ${ofResource ? sql`c.tenant_id` : sql`s.tenant_id`} = ${tenantId}
            and date >= ${from} and date <= ${to} and ${narrowed}
          group by date, coalesce(t.tag_value, ''), currency`)
      }
      if (ofResource) {
        const key =
          grouping === 'service'
            ? sql<string>`service_name`
            : grouping === 'resourceGroup'
              ? sql<string>`subscription_id || '/' || resource_group_key`
              : grouping === 'resource'
                ? sql<string>`resource_key`
                : null
        return sums(COST_ROWS_WITH_KEYS, key, sql`${tenantRange} and ${narrowed}`)
      }
      if (grouping === 'resource') {
        // Summed by the resources' numbers, then named by their keys.
        return seriesRows(sql<SeriesRow>`
          select g.date, ${keyOfResource('g')} as key, g.currency, g.cost from (
            select date, resource_id, currency, sum(cost) as cost from resource_cost_series
            where ${tenantRange} and ${narrowed} group by date, resource_id, currency
          ) g`)
      }
      if (filter.kind === 'tenant' || grouping === null) {
        const level: SeriesLevel =
          grouping === 'service' || grouping === 'resourceGroup'
            ? grouping
            : filter.kind === 'tenant'
              ? 'tenant'
              : filter.kind
        const scopeKey =
          filter.kind === 'subscription'
            ? filter.subscriptionId
            : filter.kind === 'resourceGroup'
              ? `${filter.subscriptionId}/${filter.groupKey}`
              : null
        const where =
          grouping === null && scopeKey !== null
            ? sql`${tenantRange} and level = ${level} and scope_key = ${scopeKey}`
            : sql`${tenantRange} and level = ${level}`
        return sums(sql`cost_series`, grouping === null ? null : sql<string>`scope_key`, where)
      }
      const key =
        grouping === 'service' ? sql<string>`service_name` : sql<string>`subscription_id || '/' || resource_group_key`
      return sums(sql`group_cost_series`, key, sql`${tenantRange} and ${narrowed}`)
    },

    /**
     * Each resource's cost in `currency` over [from, to] (every category; '' for charges of a subscription itself),
     * for the resources with cost in the range: from each resource's summary row (its first and last day with cost
     * and its running total on the last), with a seek into its running totals only where the range ends before its
     * last day (the running total at the range's end) or starts after its first (the running total before it).
     */
    async resourceTotals(tenantId: string, currency: string, from: string, to: string) {
      const range = runningTotalsOfSummary(from, to)
      const result = await sql<{ key: string; upTo: number | null; lastDate: string | null; before: number | null }>`
        select t.resource_key as key, ${range.upTo} as "upTo", ${range.lastDate} as "lastDate",
          ${range.before} as "before"
        from resource_cost_totals t
        where t.tenant_id = ${tenantId} and t.currency = ${currency} and t.first_date <= ${to}
          and t.last_date >= ${from}`.execute(db)
      return result.rows
        .filter((r) => r.lastDate !== null && r.lastDate >= from)
        .map((r) => ({ key: r.key, cost: Number(r.upTo) - Number(r.before ?? 0) }))
    },

    /** The daily cost of a few resources in `currency`: one range of the running totals' key per resource. */
    async resourceDaily(tenantId: string, keys: string[], currency: string, from: string, to: string) {
      if (keys.length === 0) return []
      return seriesRows(sql<SeriesRow>`
        select r.date, c.resource_key as key, r.currency, r.cost
        from cost_resources c join resource_running_costs r on r.resource_id = c.id
        where c.tenant_id = ${tenantId} and c.resource_key in (${sql.join(keys)}) and r.currency = ${currency}
          and r.date >= ${from} and r.date <= ${to}`)
    },

    /**
     * The tenant's daily cost per value of tag `tagKey` (lower-cased), of the resources that have it, every
     * category: one range of the tag series' key.
     */
    async tagDaily(tenantId: string, tagKey: string, from: string, to: string) {
      return sums(
        sql`tag_cost_series`,
        sql<string>`tag_value`,
        sql`tenant_id = ${tenantId} and tag_key = ${tagKey} and ${between(from, to)}`,
      )
    },

    /** The inventory names of a few resources, by key (those of the groups a chart shows, not the tenant's all). */
    async resourceNames(tenantId: string, keys: string[]): Promise<Map<string, string>> {
      if (keys.length === 0) return new Map()
      const rows = await db
        .selectFrom('resources')
        .select(['armIdLower', 'name'])
        .where('tenantId', '=', tenantId)
        .where('armIdLower', 'in', keys)
        .execute()
      return new Map(rows.map((r) => [r.armIdLower, r.name]))
    },

    /** The tenant's billing currency (see billingCurrencies): what a chart with no cost row is shown in. */
    async billingCurrency(tenantId: string): Promise<string> {
      return (await billingCurrencies(db, [tenantId])).get(tenantId) ?? DEFAULT_CURRENCY
    },
  }
}

/**
 * SQL over a resource_cost_totals row aliased `t` (a resource's first and last day with cost in a currency, and its
 * running total on the last), for a range [from, to]: its running total at the range's end (`upTo`: the summary's
 * own unless the resource has cost after `to`, else one seek of its running totals; null when it had none by then)
 * and that total's day (`lastDate`), and its running total before the range (`before`: 0 when its cost began within
 * the range, else one seek; null when it had none before). The range's cost is `upTo - before`, never a read of
 * the resource's days.
 */
export function runningTotalsOfSummary(from: string, to: string) {
  const running = <T>(bound: RawBuilder<unknown>, column: RawBuilder<T>) => sql<T | null>`(
    select ${column} from resource_running_costs r
    where r.resource_id = t.resource_id and r.currency = t.currency and ${bound}
    order by r.date desc limit 1)`
  return {
    upTo: sql<number | null>`case when t.last_date <= ${to} then t.running_cost
      else ${running(sql`r.date <= ${to}`, sql<number>`r.running_cost`)} end`,
    lastDate: sql<string | null>`case when t.last_date <= ${to} then t.last_date
      else ${running(sql`r.date <= ${to}`, sql<string>`r.date`)} end`,
    before: sql<number | null>`case when t.first_date >= ${from} then 0
      else ${running(sql`r.date < ${from}`, sql<number>`r.running_cost`)} end`,
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
 * A tenant's costs over [from, to] per resource, service and currency, in batches in the order of resource keys,
 * every charge summed. Each batch is a range of resource keys: its upper bound is the key found `batchRows` cost
 * rows further along (cost_resources' key, then each resource's range of daily_costs' key), so every query is an
 * index range scan on both dialects, a resource is never split between batches, and neither the result nor a
 * driver cursor is held open.
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
    const costRows = () =>
      db
        .selectFrom('costResources as c')
        .innerJoin('dailyCosts as d', 'd.resourceId', 'c.id')
        .where('c.tenantId', '=', tenantId)
        .$if(after !== null, (qb) => qb.where('c.resourceKey', '>', after!))
    const bound: { resourceKey: string } | undefined = await costRows()
      .select('c.resourceKey')
      .orderBy('c.resourceKey')
      .limit(1)
      .offset(batchRows)
      .executeTakeFirst()
    const upTo: string | null = bound?.resourceKey ?? null
    const rows = await costRows()
      .select((eb) => [
        'c.resourceKey',
        'd.serviceName',
        'd.currency',
        eb.fn.max('d.subscriptionId').as('subscriptionId'),
        eb.fn.max('d.resourceGroupKey').as('resourceGroupKey'),
        eb.fn.sum<number>('d.cost').as('cost'),
      ])
      .$if(upTo !== null, (qb) => qb.where('c.resourceKey', '<=', upTo!))
      .where('d.date', '>=', from)
      .where('d.date', '<=', to)
      .groupBy(['c.resourceKey', 'd.serviceName', 'd.currency'])
      .orderBy('c.resourceKey')
      .orderBy('d.serviceName')
      .orderBy('d.currency')
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
