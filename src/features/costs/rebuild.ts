import { type Kysely, type RawBuilder, SqliteAdapter, sql } from 'kysely'
import { chunk } from '../../platform/chunk.js'
import { type Database, keptWhole, orderedSubquery, runningSum } from '../../platform/db/index.js'
import { keyOfResource } from './keys.js'
import { costRowDays, monthsBetween } from './read/rows.js'
import { runningTotalOnOrBefore } from './read/running.js'
import type { FreshSeries } from './staging.js'

/**
 * The tags of the tenant's resources now, as (resource_key, tag_key lower-cased, tag_value) rows: a statement the
 * inventory lends (inventory/store.ts, `currentResourceTags`), since costs imports nothing of the inventory.
 */
export type CurrentTags = (trx: Kysely<Database>, tenantId: string) => RawBuilder<unknown>

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
  currentTags: CurrentTags,
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
    // The tenant's cost rows of those days: one range of daily_costs' key (month, resource, date) per month and
    // resource of the tenant, each numbered in cost_resources (a merge numbers its resources before it writes
    // their rows).
    await sql`
      insert into resource_cost_series (tenant_id, date, resource_id, service_name, charge_category, currency,
        subscription_id, resource_group_key, cost)
      select ${tenantId}, date, resource_id, service_name, charge_category, currency, max(subscription_id),
        max(resource_group_key), sum(cost)
      from daily_costs
      where resource_id in (select id from cost_resources where tenant_id = ${tenantId})
        and ${costRowDays(from, to)}
      group by date, resource_id, service_name, charge_category, currency`.execute(trx)
  }
  if (fresh) await fresh.groupSeries(trx)
  else
    await sql`
      insert into group_cost_series (tenant_id, date, subscription_id, resource_group_key, service_name,
        charge_category, currency, cost)
      select ${tenantId}, date, subscription_id, resource_group_key, service_name, charge_category, currency,
        sum(cost)
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
  await rebuildTagSeries(trx, currentTags, tenantId, from, to)
}

/**
 * Rewrites the tag series of [from, to] from the resource series and the resources' tags. The tags are read
 * from the inventory and compared with those the series were last summed with (resource_tags): a tag key whose
 * value changed (or that appeared or went) on a resource with cost outside [from, to] has its series rewritten
 * over every day, since a chart groups all days by the tags a resource has now. Runs after the inventory is
 * synced, in the same transaction (a snapshot run and an import sync it just before merging their costs).
 */
async function rebuildTagSeries(
  trx: Kysely<Database>,
  currentTags: CurrentTags,
  tenantId: string,
  from: string,
  to: string,
) {
  const current = currentTags(trx, tenantId)
  const stored = sql`select resource_key, tag_key, tag_value from resource_tags where tenant_id = ${tenantId}`
  // Each tag key with a difference, and whether one of its resources that differ has cost outside [from, to]
  // (its summary's first or last day there): only then do days outside the range change. A resource new in this
  // range (a pull's next month brings hundreds) has none, and its tags no longer rewrite their keys' whole history.
  const differences = (
    await sql<{ tagKey: string; beyond: number }>`
      select tag_key as "tagKey", max(case when resource_key in (
          select resource_key from resource_cost_totals
          where tenant_id = ${tenantId} and (first_date < ${from} or last_date > ${to})
        ) then 1 else 0 end) as beyond
      from (
        select * from (${current} except ${stored}) added
        union all
        select * from (${stored} except ${current}) removed
      ) differences
      group by tag_key`.execute(trx)
  ).rows
  const changedKeys = sql.join(differences.map((r) => r.tagKey))
  if (differences.length) {
    await sql`delete from resource_tags where tenant_id = ${tenantId} and tag_key in (${changedKeys})`.execute(trx)
    await sql`
      insert into resource_tags (tenant_id, resource_key, tag_key, tag_value)
      select ${tenantId}, resource_key, tag_key, tag_value from (${current}) tags
      where tag_key in (${changedKeys})`.execute(trx)
  }
  const changed = differences.filter((r) => Number(r.beyond) === 1).map((r) => r.tagKey)
  const rewrittenKeys = sql.join(changed)
  if (changed.length)
    for (const table of [sql.table('tag_cost_series'), sql.table('tag_value_series')])
      await sql`delete from ${table} where tenant_id = ${tenantId} and tag_key in (${rewrittenKeys})`.execute(trx)
  for (const table of [sql.table('tag_cost_series'), sql.table('tag_value_series')])
    await sql`delete from ${table} where tenant_id = ${tenantId} and date >= ${from} and date <= ${to}`.execute(trx)
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
            insert into tag_cost_series (tenant_id, tag_key, date, tag_value, currency, charge_category,
              service_name, resource_group_key, cost)
            select ${tenantId}, t.tag_key, g.date, t.tag_value, g.currency, g.charge_category, g.service_name,
              g.resource_group_key, sum(g.cost)
            from (
              select m.tag_set, s.date, s.currency, s.charge_category, s.service_name, s.resource_group_key,
                sum(s.cost) as cost
              from resource_cost_series s join ${sets} m on m.resource_id = s.resource_id
              where s.tenant_id = ${tenantId} and ${days}
              group by m.tag_set, s.date, s.currency, s.charge_category, s.service_name, s.resource_group_key
            ) g join ${tags} t on t.tag_set = g.tag_set
            where ${ofTags}
            group by t.tag_key, g.date, t.tag_value, g.currency, g.charge_category, g.service_name,
              g.resource_group_key`
        : sql`
            insert into tag_cost_series (tenant_id, tag_key, date, tag_value, currency, charge_category,
              service_name, resource_group_key, cost)
            select ${tenantId}, t.tag_key, s.date, t.tag_value, s.currency, s.charge_category, s.service_name,
              s.resource_group_key, sum(s.cost)
            from resource_cost_series s
            join ${sets} m on m.resource_id = s.resource_id
            join ${tags} t on t.tag_set = m.tag_set
            where s.tenant_id = ${tenantId} and ${days} and ${ofTags}
            group by t.tag_key, s.date, t.tag_value, s.currency, s.charge_category, s.service_name,
              s.resource_group_key`
    await insertSums(sql`s.date >= ${from} and s.date <= ${to}`, sql`true`).execute(trx)
    if (changed.length) {
      await insertSums(sql`(s.date < ${from} or s.date > ${to})`, sql`t.tag_key in (${rewrittenKeys})`).execute(trx)
    }
  })
  // The charts' sums of the same rows, per key, day, value and currency (in the tag series' key order: no sort).
  const insertValueSums = (where: RawBuilder<unknown>) => sql`
    insert into tag_value_series (tenant_id, tag_key, date, tag_value, currency, cost)
    select tenant_id, tag_key, date, tag_value, currency, sum(cost) from tag_cost_series
    where tenant_id = ${tenantId} and ${where}
    group by tenant_id, tag_key, date, tag_value, currency`
  await insertValueSums(sql`date >= ${from} and date <= ${to}`).execute(trx)
  if (changed.length)
    await insertValueSums(sql`tag_key in (${rewrittenKeys}) and (date < ${from} or date > ${to})`).execute(trx)
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
  const id = idType(trx)
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

/** The order of a resource's days, and the running sum over them, of a subquery `days` (see runningSum). */
const DAYS_ORDER = [sql`resource_id`, sql`currency`, sql`date`]
const runningOfDays = (trx: Kysely<Database>) =>
  runningSum(trx, [sql`resource_id`, sql`currency`], sql`date`, sql`cost`)

/**
 * Rewrites the running totals of every resource with cost, or running totals, on or after `from` (a changed day
 * shifts every later running total, so they are rewritten up to the last day, not just to the run's end): each
 * starts again from its last running total before `from`, then adds its days from the resource series. Each row
 * keeps its day's cost too (every category), what a chart by resource draws for its largest resources. Then the
 * month ends of those resources (see resource_month_ends) in the months rewritten, and their summary rows (see
 * resource_cost_totals).
 */
async function rebuildRunningCosts(trx: Kysely<Database>, tenantId: string, from: string, fresh?: FreshSeries) {
  let touched = sql`select distinct resource_id, currency from resource_cost_series
    where tenant_id = ${tenantId} and date >= ${from}`
  // A tenant has running totals when it has their summaries (both are written for the same resources).
  const any = await sql`select 1 from resource_cost_totals where tenant_id = ${tenantId} limit 1`.execute(trx)
  // The months rewritten; a restatement's are found with its touched resources (see monthsRewritten).
  let months: string[] | null = null
  // Fresh days after every day the tenant has (a pull's next billing period, a daily collection's new days):
  // no later running total changes, and each resource's goes on from its last one before them.
  const appended =
    fresh !== undefined &&
    (any.rows.length === 0 ||
      (
        await sql`select 1 from cost_series where tenant_id = ${tenantId} and level = 'tenant' and date > ${fresh.to}
          limit 1`.execute(trx)
      ).rows.length === 0)
  if (fresh && appended) {
    await fresh.appendRunningCosts(trx, any.rows.length > 0)
    // The summaries and month ends below then need no pass over the resource series to find their resources
    // (20,000 x 400 days: 12.6 s of the merge).
    touched = fresh.stagedResources
  } else if (any.rows.length === 0) {
    touched = await readOnce(trx, touched)
    // A tenant's first costs: nothing to delete and no total before `from`, so one running sum over the grouped
    // days, which come out of the GROUP BY in the sum's order (no second sort, no union of bases): 1.8 s of CPU
    // instead of 2.8 s for 400,000 resource days (as a window, before runningSum).
    await sql`
      insert into resource_running_costs (month, resource_id, currency, date, running_cost, cost)
      select substr(date, 1, 7), resource_id, currency, date, ${runningOfDays(trx)}, cost
      from (
        select resource_id, currency, date, sum(cost) as cost
        from resource_cost_series where tenant_id = ${tenantId} and date >= ${from}
        group by resource_id, currency, date
        ${orderedSubquery(trx, DAYS_ORDER)}
      ) days`.execute(trx)
  } else {
    // With the resources whose running totals from `from` on the rebuild must delete, having no cost left there
    // (a restatement without them): those with a month end on or after `from`.
    touched = await readOnce(
      trx,
      sql`${touched} union
        select e.resource_id, e.currency from resource_month_ends e
        where e.resource_id in (select id from cost_resources where tenant_id = ${tenantId})
          and e.month >= ${from.slice(0, 7)} and e.date >= ${from}`,
    )
    months = await monthsRewritten(trx, tenantId, from, touched)
    const inMonths = months
    const ofMonths = (alias: string) =>
      inMonths.length
        ? sql`${sql.ref(`${alias}.month`)} in (${sql.join(inMonths)})`
        : sql`${sql.ref(`${alias}.month`)} >= ${from.slice(0, 7)}`
    await sql`
      delete from resource_running_costs
      where ${ofMonths('resource_running_costs')} and (resource_id, currency) in (${touched}) and date >= ${from}`.execute(
      trx,
    )
    // Each touched resource's running total before `from` goes in as a row dated '' (sorting before every day), so
    // one running sum over its partition adds it to the days that follow; a join of the bases to the days made
    // SQLite rescan the bases for every day row.
    await sql`
      insert into resource_running_costs (month, resource_id, currency, date, running_cost, cost)
      select substr(date, 1, 7), resource_id, currency, date, running, cost from (
        select resource_id, currency, date, cost, ${runningOfDays(trx)} as running
        from (
          select resource_id, currency, date, sum(cost) as cost from resource_cost_series
          where tenant_id = ${tenantId} and date >= ${from}
          group by resource_id, currency, date
          union all
          select k.resource_id, k.currency, '' as date,
            coalesce(${runningTotalOnOrBefore(sql`k.resource_id`, sql`k.currency`, from, false)}, 0) as cost
          from (${touched}) k
          ${orderedSubquery(trx, DAYS_ORDER)}
        ) days
        ${keptWhole(trx)}
      ) running_days
      where date <> ''
      order by 1, 2, 3, 4`.execute(trx)
  }
  if (any.rows.length > 0)
    await sql`
      delete from resource_cost_totals
      where tenant_id = ${tenantId} and (resource_id, currency) in (${touched})`.execute(trx)
  await sql`
    delete from resource_month_ends
    where (resource_id, currency) in (${touched}) and month >= ${from.slice(0, 7)}`.execute(trx)
  // Each month's last running total, two seeks per resource and month.
  months ??= await monthsRewritten(trx, tenantId, from)
  if (months.length) {
    const monthList = sql.join(
      months.map((m) => sql`(cast(${m} as text))`),
      sql`, `,
    )
    const sameResource = sql`r.resource_id = x.resource_id and r.currency = x.currency and r.month = x.month`
    await sql`
      insert into resource_month_ends (resource_id, currency, month, date, running_cost)
      select x.resource_id, x.currency, x.month, x.date,
        (select r.running_cost from resource_running_costs r where ${sameResource} and r.date = x.date)
      from (
        select k.resource_id, k.currency, m.column1 as month, (
          select max(r.date) from resource_running_costs r
          where r.month = m.column1 and r.resource_id = k.resource_id and r.currency = k.currency
        ) as date
        from (${touched}) k cross join (values ${monthList}) m
      ) x
      where x.date is not null`.execute(trx)
  }
  // Each resource's first and last day and its last running total, from its month ends: a few seeks per resource.
  const ofResource = (alias: string) =>
    sql`e.resource_id = ${sql.ref(`${alias}.resource_id`)} and e.currency = ${sql.ref(`${alias}.currency`)}`
  await sql`
    insert into resource_cost_totals (tenant_id, currency, resource_key, resource_id, first_date, last_date,
      running_cost)
    select ${tenantId}, k.currency, ${keyOfResource('k')}, k.resource_id, (
      select min(r.date) from resource_running_costs r
      where r.month = k.first_month and r.resource_id = k.resource_id and r.currency = k.currency
    ), k.last_date, k.running_cost
    from (
      select t.resource_id, t.currency,
        (select min(e.month) from resource_month_ends e where ${ofResource('t')}) as first_month,
        (select e.date from resource_month_ends e where ${ofResource('t')} order by e.month desc limit 1) as last_date,
        (select e.running_cost from resource_month_ends e where ${ofResource('t')} order by e.month desc limit 1)
          as running_cost
      from (${touched}) t
    ) k
    where k.last_date is not null`.execute(trx)
  await sql`drop table if exists ${TOUCHED}`.execute(trx)
}

/**
 * The months whose running totals a rebuild from `from` rewrites: from `from`'s to that of the tenant's last day,
 * or of the last running total of `touched` (its resources' before the rebuild, when it removed the tenant's
 * last days). For centuries of days (see monthsBetween), every month from `from`'s that holds running totals.
 */
async function monthsRewritten(
  trx: Kysely<Database>,
  tenantId: string,
  from: string,
  touched?: RawBuilder<unknown>,
): Promise<string[]> {
  const last = await sql<{ last: string | null }>`select max(date) as last from cost_series
    where tenant_id = ${tenantId} and level = 'tenant'`.execute(trx)
  let lastDay = last.rows[0]?.last ?? null
  if (touched) {
    const before = await sql<{ last: string | null }>`select max(e.date) as last from resource_month_ends e
      where (e.resource_id, e.currency) in (${touched}) and e.month >= ${from.slice(0, 7)}`.execute(trx)
    const stale = before.rows[0]?.last ?? null
    if (stale !== null && (lastDay === null || stale > lastDay)) lastDay = stale
  }
  if (lastDay === null || lastDay < from) return []
  return (
    monthsBetween(from, lastDay) ??
    (
      await sql<{ month: string }>`select distinct month from resource_running_costs
        where month >= ${from.slice(0, 7)} order by month`.execute(trx)
    ).rows.map((r) => r.month)
  )
}

/** The resources (and currencies) whose running totals a rebuild rewrites, for the rebuild's statements. */
const TOUCHED = sql.table('temp_touched_resources')

/**
 * `touched` (a SELECT of resource_id, currency) read once into TOUCHED, and a SELECT of that table: the statements
 * of a rebuild each read the touched resources, each a distinct of the resource series of every day from `from`
 * on (0.3-2 s a time for a restated period).
 */
async function readOnce(trx: Kysely<Database>, touched: RawBuilder<unknown>): Promise<RawBuilder<unknown>> {
  await sql`drop table if exists ${TOUCHED}`.execute(trx)
  await sql`create temp table ${TOUCHED} (resource_id ${idType(trx)} not null, currency text not null,
    primary key (resource_id, currency))`.execute(trx)
  await sql`insert into ${TOUCHED} (resource_id, currency) ${touched}`.execute(trx)
  return sql`select resource_id, currency from ${TOUCHED}`
}

/** The column type of a resource's number (cost_resources.id) in a TEMP table of the dialect. */
function idType(trx: Kysely<Database>): RawBuilder<unknown> {
  return trx.getExecutor().adapter instanceof SqliteAdapter ? sql`integer` : sql`bigint`
}
