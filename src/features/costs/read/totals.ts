import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { Database } from '../../../platform/db/index.js'
import { roundMoney } from '../../../platform/money.js'
import { addDays, monthStart, previousMonthStart } from '../../../platform/time.js'
import { currencyOfLatest, DEFAULT_CURRENCY } from './currency.js'
import { COST_ROWS_WITH_KEYS, costRowDays } from './rows.js'
import { runningTotalOnOrBefore } from './running.js'

export interface CostTotals {
  currency: string
  monthToDate: number
  previousMonth: number
  last30Days: number
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

/** Month to date, previous month and last 30 days of tenants and of the records of their inventory. */
export function createTotalsReads(
  db: Kysely<Database>,
  billingCurrencies: (tenantIds: string[]) => Promise<Map<string, string>>,
) {
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
    /** The table's rows of days [from, to]. */
    days: (from: string, to: string) => RawBuilder<unknown> = (from, to) => sql`date >= ${from} and date <= ${to}`,
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
      where ${where} and ${key} in (${sql.join(keys)}) and ${days(from, w.today)}
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
      const currencies = await billingCurrencies([...new Set(missing.map(tenantOf))])
      for (const k of missing) {
        const currency = currencies.get(tenantOf(k)) ?? DEFAULT_CURRENCY
        totals.set(k, { currency, monthToDate: 0, previousMonth: 0, last30Days: 0 })
      }
    }
    return totals
  }

  return {
    /** Month to date, previous month and last 30 days of each tenant, from its daily series. */
    tenantTotals: (tenantIds: string[], today: string) =>
      summarise(sql`cost_series`, sql<string>`tenant_id`, sql`level = 'tenant'`, tenantIds, today, (id) => id),

    /**
     * The same totals per subscription, resource group (`{subscriptionId}/{group name lower-cased}`) or resource
     * (lower-cased ARM id) of one tenant, for a page of records at once: from the daily series of subscriptions
     * and groups, from each resource's own cost rows.
     */
    totalsBy: (tenantId: string, by: 'subscription' | 'resourceGroup' | 'resource', keys: string[], today: string) => {
      if (by === 'resource')
        return summarise(
          COST_ROWS_WITH_KEYS,
          sql<string>`resource_key`,
          sql`tenant_id = ${tenantId}`,
          keys,
          today,
          () => tenantId,
          (from, to) => costRowDays(from, to),
        )
      return summarise(
        sql`cost_series`,
        sql<string>`scope_key`,
        sql`tenant_id = ${tenantId} and level = ${by}`,
        keys,
        today,
        () => tenantId,
      )
    },
  }
}

/**
 * SQL over a resource_cost_totals row aliased `t` (a resource's first and last day with cost in a currency, and its
 * running total on the last), for a range [from, to]: its running total at the range's end (`upTo`: the summary's
 * own unless the resource has cost after `to`, else a seek or two of its running totals; null when it had none by then)
 * and that total's day (`lastDate`), and its running total before the range (`before`: 0 when its cost began within
 * the range, else one seek; null when it had none before). The range's cost is `upTo - before`, never a read of
 * the resource's days.
 */
export function runningTotalsOfSummary(from: string, to: string) {
  const [resource, currency] = [sql`t.resource_id`, sql`t.currency`]
  return {
    upTo: sql<number | null>`case when t.last_date <= ${to} then t.running_cost
      else ${runningTotalOnOrBefore(resource, currency, to, true)} end`,
    lastDate: sql<string | null>`case when t.last_date <= ${to} then t.last_date
      else ${runningTotalOnOrBefore(resource, currency, to, true, 'date')} end`,
    before: sql<number | null>`case when t.first_date >= ${from} then 0
      else ${runningTotalOnOrBefore(resource, currency, from, false)} end`,
  }
}

/**
 * SQL for one resource's cost in `currency` over [from, to], every charge category, the resource named by
 * `resourceKey` (an expression of the caller's query: the inventory sorts its resources by it): from its summary row
 * and running totals (see runningTotalsOfSummary), one lookup of the summary and usually one seek. 0 without cost
 * in the period.
 */
export function resourceCostBetween(
  tenantId: string,
  currency: string,
  from: string,
  to: string,
  resourceKey: RawBuilder<string>,
): RawBuilder<number> {
  const range = runningTotalsOfSummary(from, to)
  return sql<number>`coalesce((
    select coalesce(${range.upTo}, 0) - coalesce(${range.before}, 0)
    from resource_cost_totals t
    where t.tenant_id = ${tenantId} and t.currency = ${currency} and t.resource_key = ${resourceKey}
  ), 0)`
}
