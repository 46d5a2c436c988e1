import { Migrator, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { migrations } from '../../src/platform/db/migrations/index.js'
import { useEmptyDatabase } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

for (const dialect of testDialects()) {
  describe(`${dialect}: migration 0038 (running totals by month, and each month's last)`, () => {
    const empty = useEmptyDatabase(dialect)

    it('keeps every running total with its month, and writes each resource’s last one of each month', async () => {
      const migrator = new Migrator({ db: empty.db.kysely, provider: { getMigrations: async () => migrations } })
      expect((await migrator.migrateTo('0037_daily_costs_by_month')).error).toBeUndefined()
      const k = empty.db.kysely
      // Two resources, two currencies of one, a month without days (February) and a month of one day.
      const rows = [
        [1, 'EUR', '2026-01-30', 5, 5],
        [1, 'EUR', '2026-01-31', 7, 2],
        [1, 'EUR', '2026-03-02', 8, 1],
        [1, 'USD', '2026-01-15', 3, 3],
        [2, 'EUR', '2026-01-01', 1, 1],
        [2, 'EUR', '2026-01-20', 4, 3],
      ] as const
      for (const [resource, currency, date, running, cost] of rows)
        await sql`insert into resource_running_costs (resource_id, currency, date, running_cost, cost)
          values (${resource}, ${currency}, ${date}, ${running}, ${cost})`.execute(k)

      expect((await migrator.migrateTo('0038_running_costs_by_month')).error).toBeUndefined()
      const after = await sql<{ month: string; resourceId: number; date: string; runningCost: number }>`
        select month, resource_id, currency, date, running_cost, cost from resource_running_costs
        order by resource_id, currency, date`.execute(k)
      expect(after.rows.map((r) => ({ ...r, resourceId: Number(r.resourceId) }))).toEqual(
        rows.map(([resourceId, currency, date, runningCost, cost]) => ({
          month: date.slice(0, 7),
          resourceId,
          currency,
          date,
          runningCost,
          cost,
        })),
      )
      const ends = await sql<Record<string, unknown>>`
        select resource_id, currency, month, date, running_cost from resource_month_ends
        order by resource_id, currency, month`.execute(k)
      expect(ends.rows.map((r) => ({ ...r, resourceId: Number(r.resourceId) }))).toEqual([
        { resourceId: 1, currency: 'EUR', month: '2026-01', date: '2026-01-31', runningCost: 7 },
        { resourceId: 1, currency: 'EUR', month: '2026-03', date: '2026-03-02', runningCost: 8 },
        { resourceId: 1, currency: 'USD', month: '2026-01', date: '2026-01-15', runningCost: 3 },
        { resourceId: 2, currency: 'EUR', month: '2026-01', date: '2026-01-20', runningCost: 4 },
      ])
      await expect(
        sql`insert into resource_running_costs (month, resource_id, currency, date, running_cost, cost)
          values ('2026-01', 1, 'EUR', '2026-01-31', 1, 1)`.execute(k),
      ).rejects.toThrow(/unique|duplicate/i)
    })
  })
}
