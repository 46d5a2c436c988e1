import { CompiledQuery, type Kysely, sql } from 'kysely'
import { type DailyCostRow, type KeyedCostRows, toDailyCostRows } from '../../connectors/types.js'
import type { Database, DialectName } from '../../platform/db/index.js'
import { type BillingPeriodWrite, replaceBillingPeriods, storedBillingPeriods } from './billing-periods.js'
import { resourceKeyOf } from './keys.js'
import { type CurrentTags, rebuildSeries } from './rebuild.js'
import { type CoveredDays, createTempStaging, type Merged, upsertDailyCosts } from './staging.js'

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
  'billing_period',
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

/** What a run of one source covered: see CostIngest.recordCoverage. */
export interface SourceCoverageWrite {
  tenantId: string
  /** The collecting connector's name, or FOCUS_SOURCE for an import. */
  source: string
  from: string
  to: string
  /** The last day the source will no longer restate; days after it are preliminary. */
  settledThrough: string
  at: string
}

/** The write path of cost data: staging a run's rows, merging them into daily_costs and rebuilding the series. */
export function createCostIngest(
  db: Kysely<Database>,
  dialect: DialectName,
  /** The resources' tags now, lent by the inventory (see CurrentTags). */
  currentTags: CurrentTags,
  /** SQLite's staging (see createTempStaging): its defaults unless a test sets them. */
  stagingOptions: Parameters<typeof createTempStaging>[1] = {},
) {
  // SQLite stages in this process's memory and the connection's TEMP database (see staging.ts); PostgreSQL in the
  // cost_staging table.
  const tempStaging = dialect === 'sqlite' ? createTempStaging(db, stagingOptions) : null
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
        parameters[p++] = r.billingPeriod ?? ''
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
          select substr(s.date, 1, 7), c.id, s.date, s.meter_id, s.charge_category, s.charge_class,
            max(s.subscription_id),
            max(s.resource_group_key), max(s.meter_name), max(s.service_name), sum(s.cost), max(s.currency),
            max(s.billing_period)
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
      await rebuildSeries(trx, currentTags, range.tenantId, range.from, range.to, fresh)
    }
    return merged.rows
  }

  return {
    /** The billing periods a file-sourced tenant holds now, with the files each came from. */
    billingPeriods: (tenantId: string) => storedBillingPeriods(db, tenantId),

    /** See replaceBillingPeriods: before the new versions' rows are merged, in the same transaction. */
    replaceBillingPeriods: (trx: Kysely<Database>, tenantId: string, periods: readonly BillingPeriodWrite[]) =>
      replaceBillingPeriods(trx, tenantId, periods),

    /**
     * Records, in a run's final transaction, the days one source of the tenant's costs covered and settled (see
     * cost_coverage): its coverage widens to the run's days, and its settled day never moves back (a run of older
     * days, an earlier month's file, settles nothing newer).
     */
    async recordCoverage(trx: Kysely<Database>, coverage: SourceCoverageWrite): Promise<void> {
      const { tenantId, source, from, to, settledThrough, at } = coverage
      await trx
        .insertInto('costCoverage')
        .values({ tenantId, source, coveredFrom: from, coveredTo: to, settledThrough, updatedAt: at })
        .onConflict((oc) =>
          oc.columns(['tenantId', 'source']).doUpdateSet({
            coveredFrom: sql`case when excluded.covered_from < cost_coverage.covered_from
              then excluded.covered_from else cost_coverage.covered_from end`,
            coveredTo: sql`case when excluded.covered_to > cost_coverage.covered_to
              then excluded.covered_to else cost_coverage.covered_to end`,
            settledThrough: sql`case when excluded.settled_through > cost_coverage.settled_through
              then excluded.settled_through else cost_coverage.settled_through end`,
            updatedAt: at,
          }),
        )
        .execute()
    },

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
  }
}
export type CostIngest = ReturnType<typeof createCostIngest>
