import { sql } from 'kysely'
import type { Db } from '../../src/platform/db/index.js'

/** Every row of every table, as sorted JSON lines per table: equal dumps mean nothing was written. */
export async function tableDump(db: Db): Promise<Record<string, string[]>> {
  const tables = await db.kysely.introspection.getTables()
  const dump: Record<string, string[]> = {}
  for (const { name } of tables) {
    if (name.startsWith('kysely_')) continue
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db.kysely)
    dump[name] = rows.map((r) => JSON.stringify(r)).sort()
  }
  return dump
}
