import { type Kysely, type SelectQueryBuilder, sql } from 'kysely'
import { adjustCount, readCount } from './db/counters.js'
import { prepared } from './db/index.js'
import type { Database } from './db/schema.js'

/**
 * The one cache of the service: whole pages (e.g. the tenant list as the bytes sent), kept per organisation
 * with the organisation's *version*, a counter in row_counts bumped in the transaction of every write that
 * changes anything such a page shows. A kept page is used only while the version is the same, so it is exact
 * across processes: any process's write bumps the counter every process reads.
 *
 * Who bumps: each store, in its own write transactions (`bumpVersion`, `bumpVersionsOf`), and every
 * change of a run's status (queued, started, succeeded, failed, requeued: a tenant's `lastSnapshot`), with the
 * run's tenancy. One version per organisation: a write anywhere in it rebuilds its kept pages once.
 *
 * Readers read the version *before* any of the data they build a page from (the key verification reads it in
 * the statement that finds the key, see apikeys/store.ts), so what is kept under a version is at least as new
 * as it: a reader that sees a version never gets data older than it.
 */
const VERSION_PREFIX = 'cache-version:'

/** The version counter of an organisation, in row_counts. */
export const versionCounter = (organisationId: string) => `${VERSION_PREFIX}${organisationId}`

/** An organisation's version, for a reader that has not read it with the key (see Principal.cacheVersion). */
export function readVersion(db: Kysely<Database>, organisationId: string): Promise<number> {
  return readCount(db, versionCounter(organisationId))
}

/**
 * The SQL for the version of the organisation `organisationId` refers to (a column or a value), to read it in
 * the statement that reads the organisation's key: one statement for both.
 */
export function versionOf(organisationId: unknown) {
  return sql<number | null>`(select n from row_counts where counter = ${VERSION_PREFIX} || ${organisationId})`
}

/** Bumps an organisation's version, in the caller's transaction. */
export async function bumpVersion(db: Kysely<Database>, organisationId: string): Promise<void> {
  await adjustCount(db, versionCounter(organisationId), 1)
}

/**
 * Bumps the versions of the organisations that `organisationIds` selects (one column, `organisationId`), in the
 * caller's transaction: one statement whatever their number. The owner of the rows that know the organisations
 * gives the select (the tenants store's `bumpVersionOfTenancies`), so the cache names no table of a feature.
 * Versions are bumped in the order of their names, so two transactions bumping several organisations (lease
 * recovery) take PostgreSQL's row locks in the same order and cannot deadlock on them.
 */
export async function bumpVersionsOf<TB extends keyof Database>(
  db: Kysely<Database>,
  organisationIds: SelectQueryBuilder<Database, TB, { organisationId: string }>,
): Promise<void> {
  await db
    .insertInto('rowCounts')
    .columns(['counter', 'n'])
    .expression(
      db
        .selectFrom(organisationIds.as('o'))
        .select((eb) => [
          sql<string>`${VERSION_PREFIX} || ${eb.ref('o.organisationId')}`.as('counter'),
          sql<number>`1`.as('n'),
        ])
        .distinct()
        .orderBy('counter'),
    )
    .onConflict((oc) => oc.column('counter').doUpdateSet((eb) => ({ n: eb('rowCounts.n', '+', 1) })))
    .execute()
}

/**
 * A tenant's marker version: a counter in row_counts bumped in the transaction of every write of one of its event
 * markers (create, change, delete). A chart asks "changed since?" with it (an ETag), which any process answers
 * exactly with one indexed read, however many processes serve the tenant.
 */
export const markersVersionCounter = (tenantId: string) => `markers-version:${tenantId}`

/** Bumps a tenant's marker version, in the caller's transaction. */
export async function bumpMarkersVersion(db: Kysely<Database>, tenantId: string): Promise<void> {
  await adjustCount(db, markersVersionCounter(tenantId), 1)
}

/**
 * A tenant's marker version and its organisation's version (which moves with every snapshot, so with the inventory
 * that decides which tagged markers a resource's chart shows), in one statement.
 */
export async function readMarkersVersions(
  db: Kysely<Database>,
  tenantId: string,
  organisationId: string,
): Promise<{ markers: number; organisation: number }> {
  let read = markersVersionReaders.get(db)
  if (!read) {
    // Every poll of an open chart runs it: compiled once per database handle (see `prepared`).
    read = prepared(db, (a: { markers: string; organisation: string }) =>
      db.selectFrom('rowCounts').select(['counter', 'n']).where('counter', 'in', [a.markers, a.organisation]),
    )
    markersVersionReaders.set(db, read)
  }
  const markers = markersVersionCounter(tenantId)
  const organisation = versionCounter(organisationId)
  const rows = await read({ markers, organisation })
  const of = (counter: string) => Number(rows.find((r) => r.counter === counter)?.n ?? 0)
  return { markers: of(markers), organisation: of(organisation) }
}
const markersVersionReaders = new WeakMap<
  Kysely<Database>,
  (args: { markers: string; organisation: string }) => Promise<{ counter: string; n: number }[]>
>()

/**
 * Kept pages of one kind, each under a key and the version (any string: e.g. the organisation's version and
 * the UTC day) it was built at. Bounded: the least recently used pages go once their sizes pass `budgetBytes`.
 * Pages being built are shared, so the requests that all miss after a bump build a page once, not once each.
 */
export function createPageCache<V>(options: { budgetBytes: number; bytesOf(value: V): number }) {
  const entries = new Map<string, { version: string; value: V; bytes: number }>()
  const building = new Map<string, Promise<V>>()
  let bytes = 0

  const remove = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return
    entries.delete(key)
    bytes -= entry.bytes
  }

  const keep = (key: string, version: string, value: V) => {
    remove(key)
    const size = options.bytesOf(value) + 2 * key.length
    if (size > options.budgetBytes) return
    // A Map iterates in insertion order, so its first key is the least recently used.
    for (const oldest of entries.keys()) {
      if (bytes + size <= options.budgetBytes) break
      remove(oldest)
    }
    entries.set(key, { version, value, bytes: size })
    bytes += size
  }

  return {
    /** The page kept under `key` at `version`, else the one `build` makes (then kept). */
    get(key: string, version: string, build: () => Promise<V>): Promise<V> {
      const entry = entries.get(key)
      if (entry?.version === version) {
        entries.delete(key) // re-inserted: now the most recently used
        entries.set(key, entry)
        return Promise.resolve(entry.value)
      }
      const flight = `${key}\n${version}`
      let built = building.get(flight)
      if (!built) {
        built = build()
          .then((value) => {
            keep(key, version, value)
            return value
          })
          .finally(() => building.delete(flight))
        building.set(flight, built)
      }
      return built
    },
  }
}
