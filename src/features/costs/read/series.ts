import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { Database } from '../../../platform/db/index.js'
import { keyOfResource } from '../keys.js'
import { COST_ROWS_WITH_KEYS, costRowDays, seekedBy } from './rows.js'
import { runningTotalsOfSummary } from './totals.js'
import type { SeriesLevel } from './usage.js'

/** Which cost rows a chart covers. */
export type SeriesFilter =
  | { kind: 'tenant' }
  | { kind: 'subscription'; subscriptionId: string }
  | { kind: 'resourceGroup'; subscriptionId: string; groupKey: string }
  | { kind: 'resource'; resourceKey: string }

export type SeriesGrouping = 'service' | 'resourceGroup' | 'resource' | null

/** Which charges a series sums: all (the bill), usage alone, or every other category (purchases, taxes, credits…). */
export type ChargeSelection = 'all' | 'usage' | 'nonUsage'

/** A budget's narrowing of a tenant's costs: every tag (markers' semantics), a resource group, a service. */
export interface ScopeFilter {
  tags: readonly { key: string; value: string }[]
  resourceGroup: string | null
  service: string | null
}

/**
 * One cell of scopeCells: a day's cost of one resource group, service, charge category and currency, and of one
 * value of the tag key asked for (null when none was asked for). A column the read did not split by is ''.
 */
export interface ScopeCell {
  date: string
  resourceGroup: string
  service: string
  chargeCategory: string
  currency: string
  tagValue: string | null
  cost: number
}

/**
 * What a read of the tag series' cells splits by beyond the day, value, currency and charge category, and, when
 * `only` is given, the only combinations it keeps: each the tag value, then the service and the resource group key
 * (lower-cased) when split by them, in that order. The fewer rows the filters of one shape need.
 */
export interface CellShape {
  service: boolean
  resourceGroup: boolean
  only?: readonly (readonly string[])[]
}

const chargesWhere = (charges: ChargeSelection, column: string) =>
  charges === 'usage'
    ? sql` and ${sql.ref(column)} = 'Usage'`
    : charges === 'nonUsage'
      ? sql` and ${sql.ref(column)} <> 'Usage'`
      : sql``

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
export function createSeriesQueries(
  db: Kysely<Database>,
  /** Each resource's value of a tag, a subquery lent by the inventory (see InventoryForCosts). */
  taggedResources: (tenantId: string, tagKey: string) => RawBuilder<unknown>,
) {
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
   * A scope filter's cost per currency and per `by` (the day or the service): of one tag from the tag series (its
   * cells per charge category, service and resource group), of several from the resource series joined to each
   * tag's resources.
   */
  async function filtered(
    tenantId: string,
    filter: ScopeFilter,
    from: string,
    to: string,
    charges: ChargeSelection,
    by: 'date' | 'service_name',
  ): Promise<{ key: string; currency: string; cost: number }[]> {
    const [oneTag] = filter.tags
    const rows =
      filter.tags.length === 0
        ? sql`group_cost_series s`
        : filter.tags.length === 1 && oneTag
          ? sql`tag_cost_series s`
          : sql`resource_cost_series s join cost_resources c on c.id = s.resource_id ${sql.join(
              filter.tags.map(
                (tag, i) =>
                  sql`join ${taggedResources(tenantId, tag.key.toLowerCase())} ${sql.raw(`t${i}`)}
                  on ${sql.raw(`t${i}`)}.resource_key = c.resource_key and ${sql.raw(`t${i}`)}.tag_value = ${tag.value}`,
              ),
              sql` `,
            )}`
    const ofTag =
      filter.tags.length === 1 && oneTag
        ? sql`and s.tag_key = ${oneTag.key.toLowerCase()} and s.tag_value = ${oneTag.value}`
        : sql``
    const key = sql.ref(`s.${by}`)
    const result = await sql<{ key: string; currency: string; cost: number }>`
      select ${key} as key, s.currency, sum(s.cost) as cost
      from ${rows}
      where s.tenant_id = ${tenantId} ${ofTag} and s.date >= ${from} and s.date <= ${to}${chargesWhere(charges, 's.charge_category')}
        ${filter.resourceGroup === null ? sql`` : sql`and s.resource_group_key = ${filter.resourceGroup.toLowerCase()}`}
        ${filter.service === null ? sql`` : sql`and s.service_name = ${filter.service}`}
      group by ${key}, s.currency`.execute(db)
    return result.rows.map((r) => ({ key: r.key, currency: r.currency, cost: Number(r.cost) }))
  }

  return {
    async daily(
      tenantId: string,
      filter: SeriesFilter,
      from: string,
      to: string,
      grouping: SeriesGrouping | { tagKey: string },
      charges: ChargeSelection = 'all',
    ): Promise<SeriesRow[]> {
      const ofCharges = chargesWhere(charges, 'charge_category')
      const tenantRange = sql`tenant_id = ${tenantId} and ${between(from, to)}${ofCharges}`
      const narrowed =
        filter.kind === 'subscription'
          ? sql`subscription_id = ${filter.subscriptionId}`
          : filter.kind === 'resourceGroup'
            ? sql`subscription_id = ${filter.subscriptionId} and resource_group_key = ${filter.groupKey}`
            : filter.kind === 'resource'
              ? sql`c.resource_key = ${filter.resourceKey}`
              : sql`1 = 1`
      // One resource: its own rows (COST_ROWS_WITH_KEYS), a seek on cost_resources' key (tenant, resource) and a
      // range of daily_costs' (month, resource, date) per month; the resource series are keyed by date first, for the tenant-wide
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
            and ${ofResource ? costRowDays(from, to) : between(from, to)} and ${narrowed}${ofCharges}
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
        const rowsOfRange = sql`tenant_id = ${tenantId} and ${costRowDays(from, to)}${ofCharges}`
        return sums(COST_ROWS_WITH_KEYS, key, sql`${rowsOfRange} and ${narrowed}`)
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

    /** The daily cost of a few resources in `currency`: one range of the running totals' key per resource and month. */
    async resourceDaily(tenantId: string, keys: string[], currency: string, from: string, to: string) {
      if (keys.length === 0) return []
      return seriesRows(sql<SeriesRow>`
        select r.date, c.resource_key as key, r.currency, r.cost
        from cost_resources c join resource_running_costs r on r.resource_id = ${seekedBy('c.id')}
        where c.tenant_id = ${tenantId} and c.resource_key in (${sql.join(keys)}) and r.currency = ${currency}
          and ${costRowDays(from, to, 'r')}`)
    },

    /**
     * A tenant's daily cost (per currency) of the resources that carry every tag of `tags` (key without letter
     * case, value exactly: the markers' semantics), in resource group `resourceGroup` (any subscription, any
     * letter case) and billed under `service`, each filter optional: a budget's scope. From the resource series.
     */
    async filteredDaily(
      tenantId: string,
      filter: ScopeFilter,
      from: string,
      to: string,
      charges: ChargeSelection = 'all',
    ): Promise<{ date: string; currency: string; cost: number }[]> {
      const rows = await filtered(tenantId, filter, from, to, charges, 'date')
      return rows.map((r) => ({ date: r.key, currency: r.currency, cost: r.cost }))
    },

    /**
     * The cells many scope filters of at most one tag are summed from, in one read: a tenant's cost over [from, to]
     * per day, resource group key, service, charge category and currency, and with `tagKey` (lower-cased) per value
     * of that tag too (of the resources that have it). A filter's daily cost is the sum of the cells matching it, as
     * filteredDaily sums them. Without a tag key from the group series (one row per group and service); with one
     * from the tag series, split only by what `shape` asks for and kept to its values (a tag's cells per group and
     * service are 350,000 rows at 20,000 resources over 120 days, its cells per day and value 2,400).
     */
    async scopeCells(
      tenantId: string,
      tagKey: string | null,
      from: string,
      to: string,
      shape: CellShape = { service: true, resourceGroup: true },
    ): Promise<ScopeCell[]> {
      if (tagKey === null) {
        const result = await sql<Omit<ScopeCell, 'tagValue'>>`
          select date, resource_group_key as "resourceGroup", service_name as service,
            charge_category as "chargeCategory", currency, sum(cost) as cost
          from group_cost_series where tenant_id = ${tenantId} and ${between(from, to)}
          group by date, resource_group_key, service_name, charge_category, currency`.execute(db)
        return result.rows.map((r) => ({ ...r, cost: Number(r.cost), tagValue: null }))
      }
      // Grouped in the key's order (day, value, currency, category, service, group): by service, no sort; by group,
      // a sort, of the rows of the combinations asked for alone.
      const service = shape.service ? sql`service_name` : sql`''`
      const group = shape.resourceGroup ? sql`resource_group_key` : sql`''`
      const split = [
        sql`tag_value`,
        ...(shape.service ? [sql`service_name`] : []),
        ...(shape.resourceGroup ? [sql`resource_group_key`] : []),
      ]
      const only =
        shape.only === undefined
          ? sql``
          : shape.only.length === 0
            ? sql` and 1 = 0`
            : sql` and (${sql.join(split)}) in (values ${sql.join(shape.only.map((kept) => sql`(${sql.join(kept)})`))})`
      const result = await sql<ScopeCell>`
        select date, ${group} as "resourceGroup", ${service} as service, charge_category as "chargeCategory",
          currency, tag_value as "tagValue", sum(cost) as cost
        from tag_cost_series where tenant_id = ${tenantId} and tag_key = ${tagKey} and ${between(from, to)}${only}
        group by date, tag_value, currency, charge_category${shape.service ? sql`, service_name` : sql``}${
          shape.resourceGroup ? sql`, resource_group_key` : sql``
        }`.execute(db)
      for (const r of result.rows) r.cost = Number(r.cost)
      return result.rows
    },

    /** The same scope's cost per service (per currency) over [from, to], every charge: what drove a budget. */
    async filteredServices(
      tenantId: string,
      filter: ScopeFilter,
      from: string,
      to: string,
    ): Promise<{ service: string; currency: string; cost: number }[]> {
      const rows = await filtered(tenantId, filter, from, to, 'all', 'service_name')
      return rows.map((r) => ({ service: r.key, currency: r.currency, cost: r.cost }))
    },

    /**
     * The tenant's daily cost per value of tag `tagKey` (lower-cased), of the resources that have it, every
     * category: one range of the key of the tag series' sums per value (tag_value_series).
     */
    async tagDaily(tenantId: string, tagKey: string, from: string, to: string) {
      return sums(
        sql`tag_value_series`,
        sql<string>`tag_value`,
        sql`tenant_id = ${tenantId} and tag_key = ${tagKey} and ${between(from, to)}`,
      )
    },
  }
}
