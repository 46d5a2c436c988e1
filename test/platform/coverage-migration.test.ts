import { Migrator, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { migrations } from '../../src/platform/db/migrations/index.js'
import { useEmptyDatabase } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const ORG = '11111111-1111-4111-8111-111111111111'
const AT = '2026-02-01T10:00:00.000Z'

for (const dialect of testDialects()) {
  describe(`${dialect}: migration 0029 (what each cost source covered and settled)`, () => {
    const empty = useEmptyDatabase(dialect)

    it("fills each tenant's sources from its successful collections and imports", async () => {
      const migrator = new Migrator({ db: empty.db.kysely, provider: { getMigrations: async () => migrations } })
      expect((await migrator.migrateTo('0028_anomaly_episodes')).error).toBeUndefined()
      const k = empty.db.kysely
      await sql`insert into organisations (id, name, plan, created_at) values (${ORG}, 'Org', 'free', ${AT})`.execute(k)
      for (const [id, connector] of [
        ['t-mixed', 'simulated'],
        ['t-none', 'azure'],
      ])
        await sql`insert into tenants (id, organisation_id, name, cloud_tenant_id, credential_type, connector, created_at)
          values (${id}, ${ORG}, ${id}, ${`${id}.example`}, 'ManagedIdentity', ${connector}, ${AT})`.execute(k)
      const runs = [
        ['r1', 't-mixed', 'Import', 'Succeeded', '2026-01-01', '2026-01-31'],
        ['r2', 't-mixed', 'Import', 'Succeeded', '2026-02-01', '2026-02-28'],
        ['r3', 't-mixed', 'Scheduled', 'Succeeded', '2026-02-27', '2026-03-03'],
        ['r4', 't-mixed', 'Scheduled', 'Failed', '2026-03-03', '2026-03-09'],
        ['r5', 't-none', 'Manual', 'Queued', null, null],
      ] as const
      for (const [id, tenant, trigger, status, from, to] of runs)
        await sql`insert into snapshot_runs (id, tenant_id, status, trigger, deep_history, requested_at, period_start,
          period_end) values (${id}, ${tenant}, ${status}, ${trigger}, 0, ${AT}, ${from}, ${to})`.execute(k)
      expect((await migrator.migrateToLatest()).error).toBeUndefined()
      const rows = await sql<Record<string, string>>`
        select tenant_id, source, covered_from, covered_to, settled_through from cost_coverage
        order by tenant_id, source`.execute(k)
      expect(rows.rows).toEqual([
        {
          tenantId: 't-mixed',
          source: 'focus',
          coveredFrom: '2026-01-01',
          coveredTo: '2026-02-28',
          settledThrough: '2026-02-27',
        },
        {
          tenantId: 't-mixed',
          source: 'simulated',
          coveredFrom: '2026-02-27',
          coveredTo: '2026-03-03',
          settledThrough: '2026-03-01',
        },
      ])
    })
  })
}
