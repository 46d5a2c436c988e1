import { type Kysely, sql } from 'kysely'
import type { Database } from '../../platform/db/index.js'

/**
 * The counters of an organisation's tenants in `row_counts` (platform/db/counters.ts): how many there are, and
 * versions bumped in the transaction of every write that changes what the tenant list shows.
 */
export const tenantCounter = (organisationId: string) => `tenants:${organisationId}`
/** Bumped in the transaction of every write to an organisation's tenants (see the tenant store's page marks). */
export const tenantVersionCounter = (organisationId: string) => `tenants-version:${organisationId}`

/** Bumped with every change to an organisation's tenants' `lastSnapshot` or `costs` (see bumpCollectionVersion). */
export const collectionVersionCounter = (organisationId: string) => `collection-version:${organisationId}`
const COLLECTION_VERSION_PREFIX = collectionVersionCounter('')

/**
 * Bumps the collection version of the organisations owning `tenantIds`, in the caller's transaction: call it in
 * the transaction of every write that changes what a tenant record shows of collection, i.e. its latest
 * snapshot run (id, status, completedAt) or its cost totals. The tenant list keeps whole pages while this and
 * the tenants version stay the same (src/features/tenants/service.ts), so a write that skips it would leave
 * pages stale in every process. Every such write is a change of a snapshot run's row, made by the run store
 * (src/platform/runs/store.ts: queued, claimed, succeeded with its costs, failed, requeued, recovered, or
 * recorded by a FOCUS import with its costs), and every one is a run event delivered in its own transaction:
 * the wiring (src/services.ts) bumps this version there, so a page is never kept past the change.
 *
 * Cost rows (daily_costs) are written only in the success and import transactions, so the counter covers costs.
 * A heartbeat, `setPeriod` and staging change nothing a tenant record shows, so they do not bump it.
 *
 * One statement whatever the number of tenants; the organisation comes from a subselect, so callers need not
 * know it. Counters are bumped in the order of their names, so two transactions bumping several organisations
 * (lease recovery) take PostgreSQL's row locks in the same order and cannot deadlock on them.
 */
export async function bumpCollectionVersion(db: Kysely<Database>, tenantIds: string | readonly string[]) {
  const ids = typeof tenantIds === 'string' ? [tenantIds] : [...new Set(tenantIds)]
  if (ids.length === 0) return
  await db
    .insertInto('rowCounts')
    .columns(['counter', 'n'])
    .expression((eb) =>
      eb
        .selectFrom('tenants')
        .select((t) => [
          sql<string>`${COLLECTION_VERSION_PREFIX} || ${t.ref('organisationId')}`.as('counter'),
          sql<number>`1`.as('n'),
        ])
        .distinct()
        .where('id', 'in', ids)
        .orderBy('counter'),
    )
    .onConflict((oc) => oc.column('counter').doUpdateSet((eb) => ({ n: eb('rowCounts.n', '+', eb.ref('excluded.n')) })))
    .execute()
}
