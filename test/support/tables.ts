import { sql } from 'kysely'
import type { Db } from '../../src/platform/db/index.js'

/** Rows in every table of the database (migration bookkeeping aside): what a test compares before and after. */
export async function tableCounts(db: Db): Promise<Record<string, number>> {
  const tables = await db.kysely.introspection.getTables()
  const counts: Record<string, number> = {}
  for (const { name } of tables) {
    if (name.startsWith('kysely_')) continue
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`.execute(db.kysely)
    counts[name] = Number(rows[0]?.n)
  }
  return counts
}
