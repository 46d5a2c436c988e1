import { Migrator, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { migrations } from '../../src/platform/db/migrations/index.js'
import { useEmptyDatabase } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const TENANT = '11111111-1111-4111-8111-111111111111'
const VM = '/subscriptions/s/resourcegroups/app/providers/microsoft.compute/virtualmachines/vm-1'
const OTHER_TENANT = '22222222-2222-4222-8222-222222222222'

for (const dialect of testDialects()) {
  describe(`${dialect}: migration 0022 (daily_costs by its key)`, () => {
    const empty = useEmptyDatabase(dialect)

    it('keeps every cost row and its key, without the date index on SQLite only', async () => {
      const migrator = new Migrator({ db: empty.db.kysely, provider: { getMigrations: async () => migrations } })
      expect((await migrator.migrateTo('0021_resource_ids')).error).toBeUndefined()
      const k = empty.db.kysely
      const rows = [
        [VM, '2026-02-02', 'meter-b', 'Usage', '', 3],
        [VM, '2026-02-01', 'meter-a', 'Usage', '', 2],
        [VM, '2026-02-01', 'meter-a', 'Credit', 'Correction', -1],
        ['', '2026-02-01', 'support', 'Purchase', '', 100],
      ] as const
      for (const [resource, date, meter, category, chargeClass, cost] of rows) {
        await sql`insert into daily_costs (tenant_id, resource_key, date, meter_id, charge_category, charge_class,
          subscription_id, resource_group_key, meter_name, service_name, cost, currency)
          values (${TENANT}, ${resource}, ${date}, ${meter}, ${category}, ${chargeClass}, 's', 'app', null, 'Compute',
            ${cost}, 'USD')`.execute(k)
      }
      const stored = async () =>
        (
          await sql`select resource_key, date, meter_id, charge_category, charge_class, cost from daily_costs
            order by resource_key, date, meter_id, charge_category`.execute(k)
        ).rows
      const before = await stored()
      expect(before).toHaveLength(4)

      expect((await migrator.migrateTo('0022_daily_costs_by_key')).error).toBeUndefined()
      expect(await stored()).toEqual(before)
      // Its key still refuses a second row of one (resource, day, meter, charge category and class).
      await expect(
        sql`insert into daily_costs (tenant_id, resource_key, date, meter_id, charge_category, charge_class,
          subscription_id, resource_group_key, service_name, cost, currency)
          values (${TENANT}, ${VM}, '2026-02-01', 'meter-a', 'Usage', '', 's', 'app', 'Compute', 1, 'USD')`.execute(k),
      ).rejects.toThrow(/unique|duplicate/i)
      if (dialect === 'sqlite') {
        const table = await sql<{ sql: string }>`select sql from sqlite_master where name = 'daily_costs'`.execute(k)
        expect(table.rows[0]!.sql).toMatch(/without rowid$/i)
        const indexes = await sql`select name from sqlite_master where tbl_name = 'daily_costs' and type = 'index'
          and sql is not null`.execute(k)
        expect(indexes.rows).toEqual([])
      } else {
        const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes
          where tablename = 'daily_costs' order by indexname`.execute(k)
        expect(indexes.rows.map((r) => r.indexname)).toContain('daily_costs_tenant_date')
      }
    })
  })

  describe(`${dialect}: migration 0023 (daily_costs by resource number)`, () => {
    const empty = useEmptyDatabase(dialect)

    it('keeps every cost row, its resource numbered in cost_resources, keyed by that number', async () => {
      const migrator = new Migrator({ db: empty.db.kysely, provider: { getMigrations: async () => migrations } })
      expect((await migrator.migrateTo('0022_daily_costs_by_key')).error).toBeUndefined()
      const k = empty.db.kysely
      // A resource already numbered (it has series), one that is not yet, a charge without a resource, and the
      // same resource key in a second tenant: two numbers.
      await sql`insert into cost_resources (tenant_id, resource_key) values (${TENANT}, ${VM})`.execute(k)
      const rows = [
        [TENANT, VM, '2026-02-02', 'meter-b', 'Usage', '', 3],
        [TENANT, VM, '2026-02-01', 'meter-a', 'Usage', '', 2],
        [TENANT, VM, '2026-02-01', 'meter-a', 'Credit', 'Correction', -1],
        [TENANT, `${VM}-2`, '2026-02-01', 'meter-a', 'Usage', '', 5],
        [TENANT, '', '2026-02-01', 'support', 'Purchase', '', 100],
        [OTHER_TENANT, VM, '2026-02-01', 'meter-a', 'Usage', '', 7],
      ] as const
      for (const [tenant, resource, date, meter, category, chargeClass, cost] of rows) {
        await sql`insert into daily_costs (tenant_id, resource_key, date, meter_id, charge_category, charge_class,
          subscription_id, resource_group_key, meter_name, service_name, cost, currency)
          values (${tenant}, ${resource}, ${date}, ${meter}, ${category}, ${chargeClass}, 's', 'app', null, 'Compute',
            ${cost}, 'USD')`.execute(k)
      }
      const before = (
        await sql`select tenant_id, resource_key, date, meter_id, charge_category, charge_class, cost from daily_costs
          order by tenant_id, resource_key, date, meter_id, charge_category`.execute(k)
      ).rows
      const vmId = (await sql<{ id: number }>`select id from cost_resources`.execute(k)).rows[0]!.id

      expect((await migrator.migrateTo('0023_daily_costs_by_resource')).error).toBeUndefined()
      const after = await sql`select c.tenant_id, c.resource_key, d.date, d.meter_id, d.charge_category,
          d.charge_class, d.cost
        from daily_costs d join cost_resources c on c.id = d.resource_id
        order by c.tenant_id, c.resource_key, d.date, d.meter_id, d.charge_category`.execute(k)
      expect(after.rows).toEqual(before)
      const numbered = await sql<{ id: number; tenantId: string; resourceKey: string }>`
        select id, tenant_id as "tenantId", resource_key as "resourceKey" from cost_resources order by id`.execute(k)
      expect(numbered.rows.map((r) => [r.tenantId, r.resourceKey])).toEqual([
        [TENANT, VM],
        [TENANT, ''],
        [TENANT, `${VM}-2`],
        [OTHER_TENANT, VM],
      ])
      // The number a resource had before is kept: its series and running totals name it by that number.
      expect(Number(numbered.rows[0]!.id)).toBe(Number(vmId))
      // The key refuses a second row of one (resource, day, meter, charge category and class).
      await expect(
        sql`insert into daily_costs (resource_id, date, meter_id, charge_category, charge_class, subscription_id,
          resource_group_key, service_name, cost, currency)
          values (${vmId}, '2026-02-01', 'meter-a', 'Usage', '', 's', 'app', 'Compute', 1, 'USD')`.execute(k),
      ).rejects.toThrow(/unique|duplicate/i)
      if (dialect === 'sqlite') {
        const table = await sql<{ sql: string }>`select sql from sqlite_master where name = 'daily_costs'`.execute(k)
        expect(table.rows[0]!.sql).toMatch(/without rowid$/i)
      } else {
        const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes
          where tablename = 'daily_costs' order by indexname`.execute(k)
        expect(indexes.rows.map((r) => r.indexname)).toEqual(['daily_costs_by_resource_key'])
      }
    })
  })
}
