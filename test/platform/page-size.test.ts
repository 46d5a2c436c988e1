import SqliteDatabase from 'better-sqlite3'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { migrateToLatest, openDatabase, SQLITE_PAGE_BYTES } from '../../src/platform/db/index.js'
import { createTestDatabase } from '../support/app.js'

describe('the page size of a SQLite database', () => {
  const drops: (() => Promise<void>)[] = []
  const tempFile = async () => {
    const database = await createTestDatabase('sqlite')
    drops.push(database.drop)
    return database.url
  }
  afterEach(async () => {
    for (const drop of drops.splice(0)) await drop()
  })
  const pageSize = async (db: ReturnType<typeof openDatabase>) =>
    Number(
      (await sql<{ size: number }>`select page_size as size from pragma_page_size()`.execute(db.kysely)).rows[0]!.size,
    )

  it('is 16 KB in a new database, and stays so once its tables are written', async () => {
    const file = await tempFile()
    const db = openDatabase(file)
    await migrateToLatest(db)
    await db.close()
    const reopened = openDatabase(file)
    expect(await pageSize(reopened)).toBe(SQLITE_PAGE_BYTES)
    expect(SQLITE_PAGE_BYTES).toBe(16 * 1024)
    await reopened.close()
  })

  it('is left as it is in an existing database, which opens and migrates as before', async () => {
    const file = await tempFile()
    const old = new SqliteDatabase(file)
    old.pragma('journal_mode = WAL')
    old.exec('create table kept (n integer)')
    old.close()
    const db = openDatabase(file)
    await migrateToLatest(db)
    expect(await pageSize(db)).toBe(4096)
    expect((await sql<{ n: number }>`select count(*) as n from tenants`.execute(db.kysely)).rows[0]!.n).toBe(0)
    await db.close()
  })
})
