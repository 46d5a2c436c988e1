import { type Kysely, sql } from 'kysely'
import type { DailyCostRow } from '../../connectors/types.js'
import type { Database, DialectName } from '../../platform/db/index.js'

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

const STAGE_BATCH = 500 // rows per INSERT: well under SQLite's 32,766 bound parameters at 11 columns

/** Date arithmetic on `YYYY-MM-DD` UTC days. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)
}

export function summaryWindows(today: string) {
  const monthStart = `${today.slice(0, 7)}-01`
  const previousMonthStart = `${addDays(monthStart, -1).slice(0, 7)}-01`
  return {
    monthStart,
    previousMonthStart,
    previousMonthEnd: addDays(monthStart, -1),
    last30Start: addDays(today, -29),
    today,
  }
}

export function createCostStore(db: Kysely<Database>, dialect: DialectName) {
  return {
    /** Staged rows of one attempt of a run; nothing reads them until `mergeStaged`. */
    async stage(
      stagingKey: string,
      tenantId: string,
      rows: readonly DailyCostRow[],
      trx: Kysely<Database> = db,
    ): Promise<void> {
      for (let i = 0; i < rows.length; i += STAGE_BATCH) {
        await trx
          .insertInto('costStaging')
          .values(
            rows.slice(i, i + STAGE_BATCH).map((r) => ({
              runId: stagingKey,
              tenantId,
              resourceKey: resourceKeyOf(r.resourceArmId),
              date: r.date,
              meterId: r.meterId,
              subscriptionId: r.subscriptionId,
              resourceGroupKey: (r.resourceGroupName ?? '').toLowerCase(),
              meterName: r.meterName,
              serviceName: r.serviceName,
              cost: r.cost,
              currency: r.currency,
            })),
          )
          .execute()
      }
    },

    /** Forgets staged rows of every attempt of a run (a retry starts clean; a finished run leaves nothing). */
    async clearStaged(runId: string, trx: Kysely<Database> = db): Promise<void> {
      await trx.deleteFrom('costStaging').where('runId', 'like', `${runId}:%`).execute()
    },

    /**
     * Moves one attempt's staged rows into daily_costs in one statement: rows of the same key are summed
     * first, then replace what was stored for that (resource, date, meter), so a re-run never double counts.
     * Returns how many cost rows were written.
     */
    async mergeStaged(trx: Kysely<Database>, stagingKey: string): Promise<number> {
      // SQLite needs a WHERE before ON CONFLICT in INSERT ... SELECT; the run filter serves.
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
    async tenantTotals(tenantIds: string[], today: string): Promise<Map<string, CostTotals>> {
      const totals = new Map<string, CostTotals>()
      if (tenantIds.length === 0) return totals
      const w = summaryWindows(today)
      const from = w.previousMonthStart < w.last30Start ? w.previousMonthStart : w.last30Start
      const rows = await db
        .selectFrom('dailyCosts')
        .select((eb) => [
          'tenantId',
          eb.fn.max('currency').as('currency'),
          sql<number>`sum(case when date >= ${w.monthStart} and date <= ${w.today} then cost else 0 end)`.as(
            'monthToDate',
          ),
          sql<number>`sum(case when date >= ${w.previousMonthStart} and date <= ${w.previousMonthEnd} then cost else 0 end)`.as(
            'previousMonth',
          ),
          sql<number>`sum(case when date >= ${w.last30Start} and date <= ${w.today} then cost else 0 end)`.as(
            'last30Days',
          ),
        ])
        .where('tenantId', 'in', tenantIds)
        .where('date', '>=', from)
        .where('date', '<=', w.today)
        .groupBy('tenantId')
        .execute()
      for (const r of rows) {
        totals.set(r.tenantId, {
          currency: r.currency ?? 'USD',
          monthToDate: roundMoney(Number(r.monthToDate)),
          previousMonth: roundMoney(Number(r.previousMonth)),
          last30Days: roundMoney(Number(r.last30Days)),
        })
      }
      return totals
    },

    /**
     * The same totals per subscription, resource group (`{subscriptionId}/{group name lower-cased}`) or resource
     * (lower-cased ARM id) of one tenant, for a page of records at once.
     */
    async totalsBy(
      tenantId: string,
      by: 'subscription' | 'resourceGroup' | 'resource',
      keys: string[],
      today: string,
    ): Promise<Map<string, CostTotals>> {
      const totals = new Map<string, CostTotals>()
      if (keys.length === 0) return totals
      const w = summaryWindows(today)
      const from = w.previousMonthStart < w.last30Start ? w.previousMonthStart : w.last30Start
      const key =
        by === 'subscription'
          ? sql<string>`subscription_id`
          : by === 'resource'
            ? sql<string>`resource_key`
            : sql<string>`subscription_id || '/' || resource_group_key`
      const rows = await db
        .selectFrom('dailyCosts')
        .select((eb) => [
          key.as('key'),
          eb.fn.max('currency').as('currency'),
          sql<number>`sum(case when date >= ${w.monthStart} and date <= ${w.today} then cost else 0 end)`.as(
            'monthToDate',
          ),
          sql<number>`sum(case when date >= ${w.previousMonthStart} and date <= ${w.previousMonthEnd} then cost else 0 end)`.as(
            'previousMonth',
          ),
          sql<number>`sum(case when date >= ${w.last30Start} and date <= ${w.today} then cost else 0 end)`.as(
            'last30Days',
          ),
        ])
        .where('tenantId', '=', tenantId)
        .where(key, 'in', keys)
        .where('date', '>=', from)
        .where('date', '<=', w.today)
        .groupBy(key)
        .execute()
      for (const r of rows) {
        totals.set(r.key, {
          currency: r.currency ?? 'USD',
          monthToDate: roundMoney(Number(r.monthToDate)),
          previousMonth: roundMoney(Number(r.previousMonth)),
          last30Days: roundMoney(Number(r.last30Days)),
        })
      }
      return totals
    },

    dialect,
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
        .select((eb) => [
          'date',
          key.as('key'),
          eb.fn.sum<number>('cost').as('cost'),
          eb.fn.max('currency').as('currency'),
        ])
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
        // PostgreSQL refuses a constant in GROUP BY, so an ungrouped series groups by date alone.
        .$if(grouping === null, (qb) => qb.groupBy('date'))
        .$if(grouping !== null, (qb) => qb.groupBy(['date', key]))
        .execute()
      return rows.map((r) => ({ date: r.date, key: r.key, cost: Number(r.cost), currency: r.currency }))
    },
  }
}
