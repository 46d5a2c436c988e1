import { Migrator, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { migrations } from '../../src/platform/db/migrations/index.js'
import { useEmptyDatabase } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const TENANT = '11111111-1111-4111-8111-111111111111'
const VM = '/subscriptions/s/resourcegroups/app/providers/microsoft.compute/virtualmachines/vm-1'

for (const dialect of testDialects()) {
  describe(`${dialect}: migration 0037 (daily_costs by month)`, () => {
    const empty = useEmptyDatabase(dialect)

    it('keeps every cost row, each with its month, under the key (month, resource, date, ...)', async () => {
      const migrator = new Migrator({ db: empty.db.kysely, provider: { getMigrations: async () => migrations } })
      expect((await migrator.migrateTo('0036_resources_without_groups')).error).toBeUndefined()
      const k = empty.db.kysely
      await sql`insert into cost_resources (tenant_id, resource_key) values (${TENANT}, ${VM}), (${TENANT}, '')`.execute(
        k,
      )
      const ids = (await sql<{ id: number }>`select id from cost_resources order by id`.execute(k)).rows.map((r) =>
        Number(r.id),
      )
      // Days of three months, a correction beside a usage row of the same day, a billing period, and a charge of
      // the subscription itself.
      const rows = [
        [ids[0], '2026-01-31', 'meter-a', 'Usage', '', 3, '2026-01'],
        [ids[0], '2026-02-01', 'meter-a', 'Usage', '', 2, '2026-02'],
        [ids[0], '2026-02-01', 'meter-a', 'Credit', 'Correction', -1, '2026-02'],
        [ids[0], '2026-03-15', 'meter-b', 'Usage', '', 5, ''],
        [ids[1], '2026-02-10', 'support', 'Purchase', '', 100, '2026-02'],
      ] as const
      for (const [resource, date, meter, category, chargeClass, cost, period] of rows) {
        await sql`insert into daily_costs (resource_id, date, meter_id, charge_category, charge_class, subscription_id,
          resource_group_key, meter_name, service_name, cost, currency, billing_period)
          values (${resource}, ${date}, ${meter}, ${category}, ${chargeClass}, 's', 'app', 'm', 'Compute', ${cost},
            'USD', ${period})`.execute(k)
      }
      const columns = sql`resource_id, date, meter_id, charge_category, charge_class, subscription_id,
        resource_group_key, meter_name, service_name, cost, currency, billing_period`
      const before = (
        await sql`select ${columns} from daily_costs order by resource_id, date, meter_id, charge_category`.execute(k)
      ).rows

      expect((await migrator.migrateTo('0037_daily_costs_by_month')).error).toBeUndefined()
      const after = await sql<Record<string, unknown>>`select month, ${columns} from daily_costs
        order by resource_id, date, meter_id, charge_category`.execute(k)
      expect(after.rows.map(({ month: _, ...row }) => row)).toEqual(before)
      expect(after.rows.map((r) => [r.month, r.date])).toEqual([
        ['2026-01', '2026-01-31'],
        ['2026-02', '2026-02-01'],
        ['2026-02', '2026-02-01'],
        ['2026-03', '2026-03-15'],
        ['2026-02', '2026-02-10'],
      ])
      // The key refuses a second row of one (month, resource, day, meter, charge category and class).
      await expect(
        sql`insert into daily_costs (month, resource_id, date, meter_id, charge_category, charge_class,
          subscription_id, resource_group_key, service_name, cost, currency)
          values ('2026-02', ${ids[0]}, '2026-02-01', 'meter-a', 'Usage', '', 's', 'app', 'Compute', 1, 'USD')`.execute(
          k,
        ),
      ).rejects.toThrow(/unique|duplicate/i)
      if (dialect === 'sqlite') {
        const table = await sql<{ sql: string }>`select sql from sqlite_master where name = 'daily_costs'`.execute(k)
        expect(table.rows[0]!.sql).toMatch(/primary key \("month", "resource_id", "date"/i)
        expect(table.rows[0]!.sql).toMatch(/without rowid$/i)
      } else {
        const key = await sql<{ definition: string }>`select indexdef as definition from pg_indexes
          where tablename = 'daily_costs'`.execute(k)
        expect(key.rows.map((r) => r.definition)).toEqual([
          expect.stringMatching(/\(month, resource_id, date, meter_id, charge_category, charge_class\)$/),
        ])
      }
    })
  })
}
