import type { Kysely } from 'kysely'
import type { Database } from '../../platform/db/schema.js'

// Reads of the anomalies lent to other features (the reports), apart from store.ts so that the public entry that
// carries them loads no database driver: the command line's --help loads that entry for the severities.

/**
 * The anomalies of the tenancies raised from `from` to `to` (both included), as they stand (statuses included): what
 * a report's anomaly summary lists. A function over the caller's connection, so that only this store names the table.
 */
export async function anomaliesRaisedIn(db: Kysely<Database>, tenancyIds: readonly string[], from: string, to: string) {
  if (tenancyIds.length === 0) return []
  return db
    .selectFrom('anomalies')
    .select([
      'tenantId',
      'status',
      'severity',
      'dateRaised',
      'scopeKind',
      'scopeKey',
      'subscriptionId',
      'resourceGroupName',
      'serviceName',
      'resourceId',
      'expectedCost',
      'actualCost',
      'impact',
      'currency',
    ])
    .where('tenantId', 'in', [...tenancyIds])
    .where('dateRaised', '>=', from)
    .where('dateRaised', '<=', to)
    .execute()
}

/**
 * How many Active anomalies the tenancies have, per severity (severities without one are left out): what the
 * anomalies list counts with `status=Active&severity=…`. One grouped count over the tenancies' rows.
 */
export async function activeAnomalyCounts(
  db: Kysely<Database>,
  tenancyIds: readonly string[],
): Promise<{ severity: string; count: number }[]> {
  if (tenancyIds.length === 0) return []
  const rows = await db
    .selectFrom('anomalies')
    .select((eb) => ['severity', eb.fn.countAll<number>().as('n')])
    .where('tenantId', 'in', [...tenancyIds])
    .where('status', '=', 'Active')
    .groupBy('severity')
    .execute()
  return rows.map((r) => ({ severity: r.severity, count: Number(r.n) }))
}
