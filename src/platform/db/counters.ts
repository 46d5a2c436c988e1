import { type Kysely, sql } from 'kysely'
import { prepared } from './index.js'
import type { Database } from './schema.js'

/**
 * Exact totals for big lists. A `COUNT(*)` over 100k rows costs ~7.6 ms a request (performance.md), so the
 * writer adjusts the counter in the same transaction as the rows it adds or removes.
 *
 * The same table holds version counters (`...-version:...`): bumped by one in the transaction of every write to
 * some rows, so a reader that sees the same version in two snapshots knows those rows did not change between
 * them, whichever process wrote (see the tenant store's page marks).
 */
export async function adjustCount(db: Kysely<Database>, counter: string, delta: number): Promise<void> {
  await db
    .insertInto('rowCounts')
    .values({ counter, n: delta })
    .onConflict((oc) => oc.column('counter').doUpdateSet((eb) => ({ n: eb('rowCounts.n', '+', eb.ref('excluded.n')) })))
    .execute()
}

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

const readers = new WeakMap<Kysely<Database>, (args: { counter: string }) => Promise<{ n: number }[]>>()

/** Read on every request of a list or the organisation, so compiled once per database handle (see `prepared`). */
export async function readCount(db: Kysely<Database>, counter: string): Promise<number> {
  let read = readers.get(db)
  if (!read) {
    read = prepared(db, (a: { counter: string }) =>
      db.selectFrom('rowCounts').select('n').where('counter', '=', a.counter),
    )
    readers.set(db, read)
  }
  const [row] = await read({ counter })
  return Number(row?.n ?? 0)
}

/**
 * Values derived from rows, each kept with the version counter's value it was read at (or several counters'
 * values in one string), so a reader can tell whether it still holds: it reads the counter (cheap, one indexed
 * row) and uses the value only when the version is the same. Bounded: the least recently used entries go once the sizes given to `set` pass `budgetBytes`.
 */
export class VersionedCache<V, Version extends number | string = number> {
  private readonly entries = new Map<string, { version: Version; value: V; bytes: number }>()
  private bytes = 0

  constructor(private readonly budgetBytes: number) {}

  get(key: string): { version: Version; value: V } | undefined {
    const entry = this.entries.get(key)
    if (entry) {
      this.entries.delete(key) // re-inserted: a Map iterates in insertion order, so its first key is the least recent
      this.entries.set(key, entry)
    }
    return entry
  }

  set(key: string, version: Version, value: V, bytes: number): void {
    this.delete(key)
    if (bytes > this.budgetBytes) return
    for (const oldest of this.entries.keys()) {
      if (this.bytes + bytes <= this.budgetBytes) break
      this.delete(oldest)
    }
    this.entries.set(key, { version, value, bytes })
    this.bytes += bytes
  }

  delete(key: string): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    this.bytes -= entry.bytes
  }
}
