import { Migrator, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { Db } from '../../src/platform/db/index.js'
import { migrations } from '../../src/platform/db/migrations/index.js'
import { useEmptyDatabase } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const TENANT = '11111111-1111-4111-8111-111111111111'
const OTHER = '22222222-2222-4222-8222-222222222222'
const VM = '/subscriptions/s/resourcegroups/app/providers/microsoft.compute/virtualmachines/vm-1'
const DISK = '/subscriptions/s/resourcegroups/app/providers/microsoft.compute/disks/disk-1'

/** The series as an installation upgraded from 0020 holds them, each resource named by its key again. */
async function seriesByKey(db: Db) {
  const k = db.kysely
  const read = async (query: ReturnType<typeof sql>) =>
    (await query.execute(k)).rows.map((r) => JSON.stringify(r)).sort()
  return {
    resources: await read(sql`
      select s.tenant_id, s.date, c.resource_key, s.service_name, s.currency, s.cost
      from resource_cost_series s join cost_resources c on c.id = s.resource_id`),
    running: await read(sql`
      select c.tenant_id, c.resource_key, r.currency, r.date, r.running_cost, r.cost
      from resource_running_costs r join cost_resources c on c.id = r.resource_id`),
    totals: await read(sql`
      select t.tenant_id, t.resource_key, t.first_date, t.last_date, t.running_cost,
        c.resource_key = t.resource_key and c.tenant_id = t.tenant_id as same
      from resource_cost_totals t join cost_resources c on c.id = t.resource_id`),
  }
}

for (const dialect of testDialects()) {
  describe(`${dialect}: migration 0021 (resources by number)`, () => {
    const empty = useEmptyDatabase(dialect)

    it('numbers every resource of the stored series and keeps every row', async () => {
      const migrator = new Migrator({ db: empty.db.kysely, provider: { getMigrations: async () => migrations } })
      const before = await migrator.migrateTo('0020_resource_name_order')
      expect(before.error).toBeUndefined()
      const k = empty.db.kysely
      // Two tenants with a resource of the same key, and a charge of a subscription itself ('').
      for (const [tenant, resource, date, cost] of [
        [TENANT, VM, '2026-02-01', 2],
        [TENANT, VM, '2026-02-02', 3],
        [TENANT, DISK, '2026-02-01', 0.5],
        [TENANT, '', '2026-02-01', 9],
        [OTHER, VM, '2026-02-01', 7],
      ] as const) {
        await sql`insert into resource_cost_series (tenant_id, date, resource_key, service_name, charge_category,
          currency, subscription_id, resource_group_key, cost)
          values (${tenant}, ${date}, ${resource}, 'Compute', 'Usage', 'USD', 's', 'app', ${cost})`.execute(k)
      }
      for (const [tenant, resource, date, running, cost] of [
        [TENANT, VM, '2026-02-01', 2, 2],
        [TENANT, VM, '2026-02-02', 5, 3],
        [TENANT, DISK, '2026-02-01', 0.5, 0.5],
        [TENANT, '', '2026-02-01', 9, 9],
        [OTHER, VM, '2026-02-01', 7, 7],
      ] as const) {
        await sql`insert into resource_running_costs (tenant_id, resource_key, currency, date, running_cost, cost)
          values (${tenant}, ${resource}, 'USD', ${date}, ${running}, ${cost})`.execute(k)
      }
      for (const [tenant, resource, first, last, running] of [
        [TENANT, VM, '2026-02-01', '2026-02-02', 5],
        [TENANT, DISK, '2026-02-01', '2026-02-01', 0.5],
        [TENANT, '', '2026-02-01', '2026-02-01', 9],
        [OTHER, VM, '2026-02-01', '2026-02-01', 7],
      ] as const) {
        await sql`insert into resource_cost_totals (tenant_id, currency, resource_key, first_date, last_date,
          running_cost) values (${tenant}, 'USD', ${resource}, ${first}, ${last}, ${running})`.execute(k)
      }

      const after = await migrator.migrateToLatest()
      expect(after.error).toBeUndefined()
      const numbers = (
        await sql<{ tenantId: string; resourceKey: string }>`
        select tenant_id, resource_key from cost_resources order by tenant_id, resource_key`.execute(k)
      ).rows
      expect(numbers).toEqual([
        { tenantId: TENANT, resourceKey: '' },
        { tenantId: TENANT, resourceKey: DISK },
        { tenantId: TENANT, resourceKey: VM },
        { tenantId: OTHER, resourceKey: VM },
      ])
      const series = await seriesByKey(empty.db)
      expect(series.resources).toHaveLength(5)
      expect(series.resources).toContain(
        JSON.stringify({
          tenantId: OTHER,
          date: '2026-02-01',
          resourceKey: VM,
          serviceName: 'Compute',
          currency: 'USD',
          cost: 7,
        }),
      )
      expect(series.running).toHaveLength(5)
      expect(series.running).toContain(
        JSON.stringify({
          tenantId: TENANT,
          resourceKey: VM,
          currency: 'USD',
          date: '2026-02-02',
          runningCost: 5,
          cost: 3,
        }),
      )
      expect(series.totals).toHaveLength(4)
      for (const row of series.totals) expect(JSON.parse(row).same).toBeTruthy()
    })
  })
}
