import type { Kysely } from 'kysely'
import { prepared } from './index.js'
import type { Database } from './schema.js'

/**
 * Exact totals for big lists. A `COUNT(*)` over 100k rows costs ~7.6 ms a request (performance.md), so the
 * writer adjusts the counter in the same transaction as the rows it adds or removes.
 *
 * The same table holds the organisations' cache versions (src/platform/cache.ts).
 */
export async function adjustCount(db: Kysely<Database>, counter: string, delta: number): Promise<void> {
  await db
    .insertInto('rowCounts')
    .values({ counter, n: delta })
    .onConflict((oc) => oc.column('counter').doUpdateSet((eb) => ({ n: eb('rowCounts.n', '+', eb.ref('excluded.n')) })))
    .execute()
}

/** A counter as a subquery, for a statement that reads it with the rows it counts (one snapshot of both). */
export const countOf = (db: Kysely<Database>, counter: string) =>
  db.selectFrom('rowCounts').select('n').where('counter', '=', counter)

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
