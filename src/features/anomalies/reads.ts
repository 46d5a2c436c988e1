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
