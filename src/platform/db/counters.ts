import type { Kysely } from 'kysely'
import type { Database } from './schema.js'

/**
 * Exact totals for big lists. A `COUNT(*)` over 100k rows costs ~7.6 ms a request (performance.md), so the
 * writer adjusts the counter in the same transaction as the rows it adds or removes.
 */
export async function adjustCount(db: Kysely<Database>, counter: string, delta: number): Promise<void> {
  await db
    .insertInto('rowCounts')
    .values({ counter, n: delta })
    .onConflict((oc) => oc.column('counter').doUpdateSet((eb) => ({ n: eb('rowCounts.n', '+', eb.ref('excluded.n')) })))
    .execute()
}

export async function readCount(db: Kysely<Database>, counter: string): Promise<number> {
  const row = await db.selectFrom('rowCounts').select('n').where('counter', '=', counter).executeTakeFirst()
  return Number(row?.n ?? 0)
}
