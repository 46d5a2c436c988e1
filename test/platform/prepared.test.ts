import { describe, expect, it } from 'vitest'
import { readCount } from '../../src/platform/db/counters.js'
import { prepared } from '../../src/platform/db/index.js'
import { useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

for (const dialect of testDialects()) {
  describe(`${dialect}: a prepared query`, () => {
    const t = useTestApp({ dialect })

    it('answers rows with camelCase fields, with each run its own parameters', async () => {
      const db = t.db.kysely
      await db
        .insertInto('rowCounts')
        .values([
          { counter: 'prepared:a', n: 1 },
          { counter: 'prepared:b', n: 2 },
        ])
        .execute()
      const byCounter = prepared(db, (a: { counter: string }) =>
        db.selectFrom('rowCounts').select(['counter as counterName', 'n']).where('counter', '=', a.counter),
      )
      expect(await byCounter({ counter: 'prepared:a' })).toEqual([{ counterName: 'prepared:a', n: 1 }])
      expect(await byCounter({ counter: 'prepared:b' })).toEqual([{ counterName: 'prepared:b', n: 2 }])
      expect(await byCounter({ counter: 'prepared:none' })).toEqual([])
    })

    it('never reads the uncommitted writes of a transaction open at the same time', async () => {
      const db = t.db.kysely
      let during: Promise<number> | undefined
      await expect(
        db.transaction().execute(async (trx) => {
          await trx.insertInto('rowCounts').values({ counter: 'prepared:rolled-back', n: 5 }).execute()
          during = readCount(db, 'prepared:rolled-back') // outside the transaction, while it is open
          // PostgreSQL reads on another connection: the read ends while the write is still uncommitted. SQLite has
          // one connection: the read must queue behind the transaction (straight on it, it would see the 5 at once).
          if (dialect === 'postgres') expect(await during).toBe(0)
          throw new Error('roll back')
        }),
      ).rejects.toThrow('roll back')
      expect(await during).toBe(0)
    })
  })
}
