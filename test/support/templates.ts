import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { migrateToLatest, openDatabase } from '../../src/platform/db/index.js'

/** Where each dialect's migrated template of this run is: a SQLite file, a PostgreSQL database's name. */
export interface Templates {
  sqlite: string | null
  postgres: string | null
}

/**
 * Every migration applied once per run, to a template of each dialect that test files copy (a file copy, a
 * `CREATE DATABASE ... TEMPLATE`) instead of migrating a database of their own: about 0.5 s a file on SQLite and
 * 1.5 s on PostgreSQL. The migrations themselves still run here, on both dialects, and their own tests start from
 * empty databases.
 */
export async function createTemplates(pgUrl: string | null): Promise<Templates & { remove(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'costwatch-template-'))
  const sqlite = join(dir, 'costwatch.db')
  const db = openDatabase(sqlite)
  await migrateToLatest(db)
  await db.close() // the last connection: its WAL is checkpointed into the file, which is then complete alone
  let postgres: string | null = null
  if (pgUrl) {
    postgres = `cw_template_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
    await onServer(pgUrl, `CREATE DATABASE ${postgres}`)
    const url = new URL(pgUrl)
    url.pathname = `/${postgres}`
    const pgDb = openDatabase(url.toString())
    await migrateToLatest(pgDb)
    await pgDb.close()
  }
  return {
    sqlite,
    postgres,
    async remove() {
      rmSync(dir, { recursive: true, force: true })
      if (pgUrl && postgres) await onServer(pgUrl, `DROP DATABASE IF EXISTS ${postgres} WITH (FORCE)`)
    },
  }
}

async function onServer(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(statement)
  } finally {
    await admin.end()
  }
}
