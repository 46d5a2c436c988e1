import { type Kysely, sql } from 'kysely'
import type { Database } from '../../platform/db/index.js'
import { costRowDays } from './read/rows.js'

/** A file a billing period's version came from: its name and its ETag or content hash. */
export interface SourceFile {
  name: string
  version: string
}

/** The version of one billing period a tenant holds now (cost_billing_periods). */
export interface StoredBillingPeriod {
  billingPeriod: string
  coveredFrom: string
  coveredTo: string
  files: SourceFile[]
  rows: number
  runId: string
}

/** A new version of a billing period, written in the transaction that merges its rows. */
export interface BillingPeriodWrite {
  billingPeriod: string
  /** The first and last day its rows fall on. */
  from: string
  to: string
  files: SourceFile[]
  rows: number
  runId: string
  at: string
}

export async function storedBillingPeriods(db: Kysely<Database>, tenantId: string): Promise<StoredBillingPeriod[]> {
  const rows = await db
    .selectFrom('costBillingPeriods')
    .selectAll()
    .where('tenantId', '=', tenantId)
    .orderBy('billingPeriod')
    .execute()
  return rows.map((r) => ({
    billingPeriod: r.billingPeriod,
    coveredFrom: r.coveredFrom,
    coveredTo: r.coveredTo,
    files: JSON.parse(r.filesJson) as SourceFile[],
    rows: Number(r.rows),
    runId: r.runId,
  }))
}

/**
 * Makes room for new versions of billing periods: deletes the cost rows of each period's version stored now (the
 * rows billed in that period, over the days it covered), and records the new versions. Run in the transaction
 * that then merges the new rows, so a period is never the sum of two versions, nor ever without one. Returns the
 * periods that had a version before, and the days whose series must be rebuilt besides the new rows' own (those
 * of the old versions).
 */
export async function replaceBillingPeriods(
  trx: Kysely<Database>,
  tenantId: string,
  periods: readonly BillingPeriodWrite[],
): Promise<{ replaced: Set<string>; from: string | null; to: string | null }> {
  const stored = new Map((await storedBillingPeriods(trx, tenantId)).map((p) => [p.billingPeriod, p]))
  const replaced = new Set<string>()
  let from: string | null = null
  let to: string | null = null
  for (const period of periods) {
    const old = stored.get(period.billingPeriod)
    if (old) {
      replaced.add(period.billingPeriod)
      await sql`delete from daily_costs
        where resource_id in (select id from cost_resources where tenant_id = ${tenantId})
          and ${costRowDays(old.coveredFrom, old.coveredTo)} and billing_period = ${period.billingPeriod}`.execute(trx)
      if (from === null || old.coveredFrom < from) from = old.coveredFrom
      if (to === null || old.coveredTo > to) to = old.coveredTo
    }
    const row = {
      coveredFrom: period.from,
      coveredTo: period.to,
      filesJson: JSON.stringify(period.files),
      rows: period.rows,
      runId: period.runId,
      updatedAt: period.at,
    }
    await trx
      .insertInto('costBillingPeriods')
      .values({ tenantId, billingPeriod: period.billingPeriod, ...row })
      .onConflict((oc) => oc.columns(['tenantId', 'billingPeriod']).doUpdateSet(row))
      .execute()
  }
  return { replaced, from, to }
}
