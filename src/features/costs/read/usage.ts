import { type Kysely, sql } from 'kysely'
import { chunk } from '../../../platform/chunk.js'
import type { Database } from '../../../platform/db/index.js'
import { addDays, dayCount, dayDiff } from '../../../platform/time.js'
import { keyOfResource } from '../keys.js'
import { COST_ROWS_WITH_KEYS, costRowDays, seekedBy } from './rows.js'

/** One scope's daily usage cost: see usageSeries. */
export interface UsageSeries {
  scopeKey: string
  /**
   * The scope one level up, for drivers: '' (the tenant) for a subscription, the subscription of a resource group,
   * the `{subscriptionId}/{group}` of a resource; null for the tenant and for services.
   */
  parent: string | null
  currency: string
  /** A resource's service (the largest name when it has several), for a service's drivers; absent otherwise. */
  service?: string
  /** `costs[i]` is the usage cost of day `from + i`. */
  costs: Float64Array
}

/** A resource whose cost rows stop on `lastDate` (see stoppedResources). */
export interface StoppedResource {
  /** Its lower-cased ARM id. */
  resourceKey: string
  lastDate: string
  subscriptionId: string
  /** `{subscriptionId}/{lower-cased group name}`, as usage series key groups. */
  groupKey: string
  /** The services it was billed under on its last day. */
  services: string[]
}

/** Levels of cost_series; resources and (group, service) pairs have tables of their own. */
export type SeriesLevel = 'tenant' | 'subscription' | 'resourceGroup' | 'service'

/** What anomaly detection and an anomaly's explanation read of costs. */
export function createUsageReads(
  db: Kysely<Database>,
  billingCurrencies: (tenantIds: string[]) => Promise<Map<string, string>>,
) {
  return {
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
      type Row = {
        scopeKey: string
        parent: string | null
        service?: string
        date: string
        currency: string
        cost: number
      }
      const rows =
        level === 'resource'
          ? await sql<Row>`
              select ${keyOfResource('g')} as "scopeKey", g.parent, g.service, g.date, g.currency, g.cost from (
                select resource_id, max(subscription_id || '/' || resource_group_key) as parent,
                  max(service_name) as service, date, currency, sum(cost) as cost
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
        if (r.service && (s.service === undefined || r.service > s.service)) s.service = r.service
        s.costs[dayDiff(from, r.date)]! += Number(r.cost)
      }
      return [...series.values()].sort((a, b) =>
        a.scopeKey < b.scopeKey ? -1 : a.scopeKey > b.scopeKey ? 1 : a.currency < b.currency ? -1 : 1,
      )
    },

    /**
     * The resources whose cost rows stop: their last day with cost (in any currency) falls in [from, before), and
     * nothing after it. With the scopes they were billed under that day (subscription, `{subscriptionId}/{group}`,
     * services), which a removal must not move either. Read from the totals (a resource's first and last day), and
     * the day's resource series of those few resources only.
     */
    async stoppedResources(tenantId: string, from: string, before: string): Promise<StoppedResource[]> {
      const { rows } = await sql<{
        resourceKey: string
        lastDate: string
        subscriptionId: string
        groupKey: string
        serviceName: string
      }>`
        select t.resource_key as "resourceKey", t.last_date as "lastDate", s.subscription_id as "subscriptionId",
          s.resource_group_key as "groupKey", s.service_name as "serviceName"
        from resource_cost_totals t
        join resource_cost_series s on s.date = t.last_date and s.resource_id = t.resource_id
        where t.tenant_id = ${tenantId} and t.resource_key <> '' and t.last_date >= ${from} and t.last_date < ${before}
          and s.tenant_id = ${tenantId}
          and not exists (select 1 from resource_cost_totals later where later.tenant_id = t.tenant_id
            and later.resource_key = t.resource_key and later.last_date > t.last_date)`.execute(db)
      const stopped = new Map<string, StoppedResource>()
      for (const r of rows) {
        let s = stopped.get(r.resourceKey)
        if (!s) {
          s = {
            resourceKey: r.resourceKey,
            lastDate: r.lastDate,
            subscriptionId: r.subscriptionId,
            groupKey: `${r.subscriptionId}/${r.groupKey}`,
            services: [],
          }
          stopped.set(r.resourceKey, s)
        }
        if (!s.services.includes(r.serviceName)) s.services.push(r.serviceName)
      }
      return [...stopped.values()]
    },

    /**
     * The tenant's cost from `from` to `to` (every charge category) in its billing currency, of every row, or of
     * the rows of these resources (lower-cased ARM ids) only.
     */
    async costBetween(tenantId: string, resourceKeys: readonly string[] | null, from: string, to: string) {
      const currency = (await billingCurrencies([tenantId])).get(tenantId)!
      if (resourceKeys !== null && resourceKeys.length === 0) return { currency, cost: 0 }
      let cost = 0
      // In chunks, so a tag on thousands of resources stays within the parameter limits.
      const chunks = resourceKeys === null ? [null] : chunk(resourceKeys, 500)
      // The whole tenant from its daily series; resources from their own cost rows (a range of the key each).
      for (const keys of chunks) {
        const [table, ofScope] =
          keys === null
            ? [sql`cost_series`, sql`level = 'tenant' and date >= ${from} and date <= ${to}`]
            : [COST_ROWS_WITH_KEYS, sql`resource_key in (${sql.join(keys)}) and ${costRowDays(from, to)}`]
        const { rows } = await sql<{ cost: number | null }>`
          select sum(cost) as cost from ${table} where ${ofScope} and tenant_id = ${tenantId}
            and currency = ${currency}`.execute(db)
        cost += Number(rows[0]?.cost ?? 0)
      }
      return { currency, cost }
    },

    /**
     * The last complete cost days of the tenant (what insight rules observe): up to `days`, ending at its latest
     * day before `today`; null without cost before it.
     */
    async observedWindow(tenantId: string, today: string, days: number): Promise<{ from: string; to: string } | null> {
      const span = await db
        .selectFrom('costSeries')
        .select((eb) => [eb.fn.min('date').as('first'), eb.fn.max('date').as('last')])
        .where('tenantId', '=', tenantId)
        .where('level', '=', 'tenant')
        .where('date', '<', today)
        .executeTakeFirst()
      if (!span?.last || !span.first) return null
      const earliest = addDays(span.last, -(days - 1))
      return { from: span.first > earliest ? span.first : earliest, to: span.last }
    },

    /**
     * Each resource's cost per day over [from, to] (every category and currency summed, resources with a key
     * only): from the running totals (which keep each day's cost too), one range of their key per resource and
     * currency with cost in the range, where the tenant's cost rows have no index by day.
     */
    async resourceDailyCosts(tenantId: string, from: string, to: string) {
      const rows = await db
        .selectFrom('resourceCostTotals as t')
        .innerJoin('resourceRunningCosts as r', (join) =>
          join.on('r.resourceId', '=', seekedBy('t.resourceId')).onRef('r.currency', '=', 't.currency'),
        )
        .select((eb) => ['t.resourceKey', 'r.date', eb.fn.sum<number>('r.cost').as('cost')])
        .where('t.tenantId', '=', tenantId)
        .where('t.resourceKey', '!=', '')
        .where('t.lastDate', '>=', from)
        .where('t.firstDate', '<=', to)
        .where(costRowDays(from, to, 'r'))
        .groupBy(['t.resourceKey', 'r.date'])
        .execute()
      return rows.map((r) => ({ resourceKey: r.resourceKey, date: r.date, cost: Number(r.cost) }))
    },
  }
}
