import SqliteDatabase from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { registerRunningSum } from './running-sum.js'

describe('running_sum on SQLite', () => {
  let sqlite: SqliteDatabase.Database
  const open = () => {
    sqlite = new SqliteDatabase(':memory:')
    registerRunningSum(sqlite)
    sqlite.exec(`create table days (resource integer, currency text, date text, cost real)`)
    const insert = sqlite.prepare('insert into days values (?, ?, ?, ?)')
    // Inserted out of order, so only the subquery's ORDER BY puts them in order.
    for (const [resource, currency, date, cost] of [
      [2, 'USD', '2026-01-02', 5],
      [1, 'USD', '2026-01-02', 2],
      [1, 'EUR', '2026-01-01', 7],
      [1, 'USD', '2026-01-01', 1],
      [2, 'USD', '2026-01-01', 4],
      [1, 'USD', '2026-01-03', 3],
    ] as const)
      insert.run(resource, currency, date, cost)
  }
  afterEach(() => sqlite.close())

  const sumsOf = (run: number, order: string) =>
    sqlite
      .prepare(`select resource, currency, date, running_sum(?, resource, currency, date, cost) as running
        from (select * from days order by ${order} limit -1) d`)
      .all(run)

  it('sums each partition over its days, as the window sum does', () => {
    open()
    const window = sqlite
      .prepare(`select resource, currency, date,
          sum(cost) over (partition by resource, currency order by date) as running
        from days order by resource, currency, date`)
      .all()
    const sums = sumsOf(1, 'resource, currency, date')
    expect(sums).toEqual(window)
    expect(sums.map((r) => (r as { running: number }).running)).toEqual([7, 1, 3, 6, 4, 9])
  })

  it('starts again for each statement, even on the partition the last one ended with', () => {
    open()
    sumsOf(1, 'resource, currency, date')
    const again = sumsOf(2, 'resource, currency, date') as { running: number }[]
    expect(again[0]!.running).toBe(7)
  })

  it('fails the statement when rows come out of order, rather than sum them wrongly', () => {
    open()
    expect(() => sumsOf(3, 'resource, currency, date desc')).toThrow(/days out of order/)
    expect(() => sumsOf(4, 'date, resource, currency')).toThrow(/partitions out of order/)
  })
})
