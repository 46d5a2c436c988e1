import { Migrator, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { migrations } from '../../src/platform/db/migrations/index.js'
import { useEmptyDatabase } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

for (const dialect of testDialects()) {
  describe(`${dialect}: migration 0034 (the tag series per charge category, service and resource group)`, () => {
    const empty = useEmptyDatabase(dialect)

    it('rebuilds the tag series from the resource series and the tags they were summed with', async () => {
      const migrator = new Migrator({ db: empty.db.kysely, provider: { getMigrations: async () => migrations } })
      expect((await migrator.migrateTo('0033_budgets')).error).toBeUndefined()
      const k = empty.db.kysely
      for (const [id, key] of [
        [1, 'vm-a'],
        [2, 'vm-b'],
        [3, 'vm-untagged'],
      ] as const)
        await sql`insert into cost_resources (id, tenant_id, resource_key) values (${id}, 't1', ${key})`.execute(k)
      // (resource, date, service, category, group, cost)
      const series = [
        [1, '2026-01-01', 'Virtual Machines', 'Usage', 'rg-a', 10],
        [1, '2026-01-01', 'Virtual Machines', 'Purchase', 'rg-a', 100],
        [1, '2026-01-02', 'Storage', 'Usage', 'rg-a', 2.5],
        [2, '2026-01-01', 'Virtual Machines', 'Usage', 'rg-b', 7],
        [2, '2026-01-01', 'Storage', 'Usage', 'rg-b', 1],
        [3, '2026-01-01', 'Virtual Machines', 'Usage', 'rg-a', 50],
      ] as const
      for (const [resource, date, service, category, group, cost] of series)
        await sql`insert into resource_cost_series (tenant_id, date, resource_id, service_name, charge_category,
          currency, subscription_id, resource_group_key, cost)
          values ('t1', ${date}, ${resource}, ${service}, ${category}, 'USD', 'sub', ${group}, ${cost})`.execute(k)
      for (const [resource, key, value] of [
        ['vm-a', 'team', 'payments'],
        ['vm-b', 'team', 'payments'],
        ['vm-b', 'env', 'prod'],
      ])
        await sql`insert into resource_tags (tenant_id, resource_key, tag_key, tag_value)
          values ('t1', ${resource}, ${key}, ${value})`.execute(k)
      // What the old series held: one row per key, day, value and currency.
      await sql`insert into tag_cost_series (tenant_id, tag_key, date, tag_value, currency, cost)
        values ('t1', 'team', '2026-01-01', 'payments', 'USD', 118)`.execute(k)

      expect((await migrator.migrateToLatest()).error).toBeUndefined()
      const rows = await sql<Record<string, string | number>>`
        select tag_key, tag_value, date, charge_category, service_name, resource_group_key, currency, cost
        from tag_cost_series where tenant_id = 't1'
        order by tag_key, tag_value, date, charge_category, service_name, resource_group_key`.execute(k)
      const row = (tagKey: string, date: string, chargeCategory: string, serviceName: string, group: string) => ({
        tagKey,
        date,
        chargeCategory,
        serviceName,
        resourceGroupKey: group,
        currency: 'USD',
      })
      expect(rows.rows.map((r) => ({ ...r, cost: Number(r.cost) }))).toEqual([
        { ...row('env', '2026-01-01', 'Usage', 'Storage', 'rg-b'), tagValue: 'prod', cost: 1 },
        { ...row('env', '2026-01-01', 'Usage', 'Virtual Machines', 'rg-b'), tagValue: 'prod', cost: 7 },
        { ...row('team', '2026-01-01', 'Purchase', 'Virtual Machines', 'rg-a'), tagValue: 'payments', cost: 100 },
        { ...row('team', '2026-01-01', 'Usage', 'Storage', 'rg-b'), tagValue: 'payments', cost: 1 },
        { ...row('team', '2026-01-01', 'Usage', 'Virtual Machines', 'rg-a'), tagValue: 'payments', cost: 10 },
        { ...row('team', '2026-01-01', 'Usage', 'Virtual Machines', 'rg-b'), tagValue: 'payments', cost: 7 },
        { ...row('team', '2026-01-02', 'Usage', 'Storage', 'rg-a'), tagValue: 'payments', cost: 2.5 },
      ])
      // And the charts' sums per key, day and value.
      const sums = await sql<Record<string, string | number>>`
        select tag_key, tag_value, date, currency, cost from tag_value_series where tenant_id = 't1'
        order by tag_key, tag_value, date`.execute(k)
      expect(sums.rows.map((r) => ({ ...r, cost: Number(r.cost) }))).toEqual([
        { tagKey: 'env', tagValue: 'prod', date: '2026-01-01', currency: 'USD', cost: 8 },
        { tagKey: 'team', tagValue: 'payments', date: '2026-01-01', currency: 'USD', cost: 118 },
        { tagKey: 'team', tagValue: 'payments', date: '2026-01-02', currency: 'USD', cost: 2.5 },
      ])
    })
  })
}
