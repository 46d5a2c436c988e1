import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGroupCommit } from './group-commit.js'
import { type Db, openDatabase } from './index.js'

describe('group commit (real SQLite file)', () => {
  let dir: string
  let db: Db
  const transactions = new Set<unknown>()

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'group-commit-'))
    db = openDatabase(join(dir, 'g.db'))
    await sql`create table items (id integer primary key, label text not null)`.execute(db.kysely)
  })
  afterAll(async () => {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const writer = () =>
    createGroupCommit<{ id: number; label: string }>(db.kysely, async (trx, item) => {
      await sql`insert into items (id, label) values (${item.id}, ${item.label})`.execute(trx)
      transactions.add(trx) // one transaction object per transaction: the set's size counts them
    })

  it('commits concurrent writes together, each caller resolved once its row is in', async () => {
    const w = writer()
    transactions.clear()
    await Promise.all(Array.from({ length: 100 }, (_, i) => w.write({ id: i + 1, label: `item ${i + 1}` })))
    expect(transactions.size).toBe(1)
    const rows = await sql<{ n: number }>`select count(*) as n from items`.execute(db.kysely)
    expect(Number(rows.rows[0]!.n)).toBe(100)
  })

  it('gives a failing write its own error, and the others of its batch still commit', async () => {
    const w = writer()
    const results = await Promise.allSettled([
      w.write({ id: 1001, label: 'a' }),
      w.write({ id: 1, label: 'duplicate of the first test' }), // primary key taken
      w.write({ id: 1002, label: 'b' }),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE|PRIMARY KEY/i)
    const labels = await sql<{
      label: string
    }>`select label from items where id in (1, 1001, 1002) order by id`.execute(db.kysely)
    expect(labels.rows.map((r) => r.label)).toEqual(['item 1', 'a', 'b'])
  })

  it('writes arriving while a batch commits go into the next one', async () => {
    const w = writer()
    const first = w.write({ id: 2001, label: 'x' })
    await new Promise((r) => setImmediate(r))
    const later = Promise.all([w.write({ id: 2002, label: 'y' }), w.write({ id: 2003, label: 'z' })])
    await Promise.all([first, later])
    const n = await sql<{ n: number }>`select count(*) as n from items where id between 2001 and 2003`.execute(
      db.kysely,
    )
    expect(Number(n.rows[0]!.n)).toBe(3)
  })
})
