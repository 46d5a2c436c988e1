import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { checkpointInBackground } from './checkpoints.js'
import { type Db, openDatabase } from './index.js'

describe('SQLite checkpoints in a thread of their own', () => {
  const dirs: string[] = []
  const dbs: Db[] = []
  afterEach(async () => {
    for (const db of dbs.splice(0)) await db.close()
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  async function open(checkpointInBackground: boolean) {
    const dir = mkdtempSync(join(tmpdir(), 'costwatch-checkpoints-'))
    dirs.push(dir)
    const file = join(dir, 'costwatch.sqlite')
    const db = openDatabase(file, { checkpointInBackground })
    dbs.push(db)
    await sql`create table t (id integer primary key, text text not null)`.execute(db.kysely)
    return { db, file, dir }
  }

  /**
   * Rows of `t` in the database file alone (a copy without its WAL): what checkpoints have copied there. A copy
   * taken while a checkpoint writes the file may be torn (SQLite finds it malformed): null, look again.
   */
  function rowsInTheFile(file: string, dir: string): number | null {
    const copy = join(dir, `copy-${Math.random().toString(36).slice(2)}.sqlite`)
    copyFileSync(file, copy)
    const sqlite = new SqliteDatabase(copy, { readonly: true })
    try {
      const known = sqlite.prepare(`select count(*) as n from sqlite_master where name = 't'`).get() as { n: number }
      return known.n === 0 ? 0 : (sqlite.prepare('select count(*) as n from t').get() as { n: number }).n
    } catch (err) {
      const code = (err as { code?: string }).code
      if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') return null
      throw err
    } finally {
      sqlite.close()
    }
  }

  async function writeRows(db: Db, rows: number) {
    await db.kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < rows; i += 500) {
        const values = Array.from(
          { length: Math.min(500, rows - i) },
          (_, j) => sql`(${i + j + 1}, ${'x'.repeat(100)})`,
        )
        await sql`insert into t (id, text) values ${sql.join(values)}`.execute(trx)
      }
    })
  }

  it('copies committed pages into the database file without a commit doing it', async () => {
    const { db, file, dir } = await open(true)
    const autocheckpoint = await sql<{ walAutocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db.kysely)
    expect(autocheckpoint.rows[0]!.walAutocheckpoint).toBe(0)
    // 30,000 rows of 100 characters: about 200 pages of 16 KB, under the 1,000 that start an automatic checkpoint.
    await writeRows(db, 30_000)
    const deadline = Date.now() + 10_000
    let copied = rowsInTheFile(file, dir)
    while (copied !== 30_000 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50))
      copied = rowsInTheFile(file, dir)
    }
    expect(copied).toBe(30_000)
    // And the connection reads and writes on as before.
    await sql`insert into t (id, text) values (${30_001}, ${'y'})`.execute(db.kysely)
    const count = await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely)
    expect(count.rows[0]!.n).toBe(30_001)
  })

  it('gives the connection its automatic checkpoints back when the thread stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'costwatch-checkpoints-'))
    dirs.push(dir)
    const sqlite = new SqliteDatabase(join(dir, 'costwatch.sqlite'))
    sqlite.pragma('journal_mode = WAL')
    const automatic = () => sqlite.pragma('wal_autocheckpoint', { simple: true })
    // The thread's own connection must find its file: this one does not exist, so the thread fails as it starts.
    const stop = checkpointInBackground(sqlite, join(dir, 'missing.sqlite'))
    try {
      expect(automatic()).toBe(0)
      const deadline = Date.now() + 10_000
      while (automatic() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      expect(automatic()).toBe(1000)
    } finally {
      await stop()
      sqlite.close()
    }
  })

  it('leaves the same commit in the WAL alone without the thread (under the automatic checkpoint)', async () => {
    const { db, file, dir } = await open(false)
    await writeRows(db, 30_000)
    await new Promise((r) => setTimeout(r, 500))
    expect(rowsInTheFile(file, dir)).toBe(0)
  })
})
