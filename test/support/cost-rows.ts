import type { Insertable, Kysely } from 'kysely'
import type { DailyCostRow } from '../../src/connectors/types.js'
import { chunk } from '../../src/platform/chunk.js'
import type { Database } from '../../src/platform/db/index.js'
import type { TestApp } from './app.js'

/**
 * A cost row as a connector yields it: one day of a VM's usage in EUR, with what `over` changes. The
 * subscription and resource are the caller's (each suite keeps its own ids).
 */
export function costRow(
  over: Partial<DailyCostRow> & Pick<DailyCostRow, 'subscriptionId' | 'resourceArmId'>,
): DailyCostRow {
  return {
    date: '2026-02-01',
    resourceGroupName: 'app',
    meterId: 'meter-vm',
    meterName: 'D2s v3',
    chargeCategory: 'Usage',
    chargeClass: null,
    serviceName: 'Virtual Machines',
    cost: 1,
    currency: 'EUR',
    ...over,
  }
}

/** A row of daily_costs written past the cost store, naming its resource by tenant and key. */
export type StoredCostRow = Omit<Insertable<Database['dailyCosts']>, 'resourceId' | 'month'> & {
  tenantId: string
  /** The lower-cased ARM id, '' for charges of a subscription itself. */
  resourceKey: string
}

/** Writes cost rows straight into daily_costs, numbering their resources in cost_resources first. */
export async function insertCostRows(db: Kysely<Database>, rows: readonly StoredCostRow[]): Promise<void> {
  const resources = new Map<string, { tenantId: string; resourceKey: string }>()
  for (const { tenantId, resourceKey } of rows) resources.set(`${tenantId} ${resourceKey}`, { tenantId, resourceKey })
  const ids = new Map<string, number>()
  for (const part of chunk([...resources.values()], 200)) {
    await db
      .insertInto('costResources')
      .values(part)
      .onConflict((oc) => oc.columns(['tenantId', 'resourceKey']).doNothing())
      .execute()
    for (const { tenantId, resourceKey } of part) {
      const { id } = await db
        .selectFrom('costResources')
        .select('id')
        .where('tenantId', '=', tenantId)
        .where('resourceKey', '=', resourceKey)
        .executeTakeFirstOrThrow()
      ids.set(`${tenantId} ${resourceKey}`, Number(id))
    }
  }
  for (const part of chunk([...rows], 500))
    await db
      .insertInto('dailyCosts')
      .values(
        part.map(({ tenantId, resourceKey, ...row }) => ({
          ...row,
          month: row.date.slice(0, 7),
          resourceId: ids.get(`${tenantId} ${resourceKey}`)!,
        })),
      )
      .execute()
}

/** daily_costs of one tenant, each row beside its resource's number, tenant and key (cost_resources). */
export function costRowsOf(db: Kysely<Database>, tenantId: string) {
  return db
    .selectFrom('dailyCosts')
    .innerJoin('costResources', 'costResources.id', 'dailyCosts.resourceId')
    .where('costResources.tenantId', '=', tenantId)
}

let collections = 0

/**
 * Rows written as a collection writes them (staged, merged, the staging cleared, in one transaction), with the
 * coverage a source records when `settledThrough` is given: the days after it are preliminary.
 */
export async function collectRows(
  t: TestApp,
  tenantId: string,
  rows: readonly DailyCostRow[],
  coverage?: { settledThrough: string; to: string },
): Promise<void> {
  const run = `collected-${++collections}-${Math.random().toString(36).slice(2)}`
  await t.services.costIngest.stage(`${run}:1`, tenantId, [...rows])
  await t.db.kysely.transaction().execute(async (trx) => {
    await t.services.costIngest.mergeStaged(trx, `${run}:1`)
    await t.services.costIngest.clearStaged(run, trx)
    if (coverage)
      await t.services.costIngest.recordCoverage(trx, {
        tenantId,
        source: 'simulated',
        from: rows[0]!.date,
        to: coverage.to,
        settledThrough: coverage.settledThrough,
        at: t.clock.now().toISOString(),
      })
  })
}
