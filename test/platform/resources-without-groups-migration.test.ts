import { Migrator, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { migrations } from '../../src/platform/db/migrations/index.js'
import { useEmptyDatabase } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const TENANT = '11111111-1111-4111-8111-111111111111'
const GROUP = '33333333-3333-4333-8333-333333333333'
const VM = '/subscriptions/s/resourceGroups/app/providers/Microsoft.Compute/virtualMachines/vm-1'
const ARN = 'arn:aws:ec2:eu-west-1:111122223333:instance/i-0abc'

for (const dialect of testDialects()) {
  describe(`${dialect}: migration 0036 (resources without groups)`, () => {
    const empty = useEmptyDatabase(dialect)

    it('keeps every resource, its indexes and uniqueness, takes one without a group, and adds tags_at', async () => {
      const migrator = new Migrator({ db: empty.db.kysely, provider: { getMigrations: async () => migrations } })
      expect((await migrator.migrateTo('0035_cost_sources')).error).toBeUndefined()
      const k = empty.db.kysely
      await sql`insert into organisations (id, name, plan, created_at) values ('o', 'O', 'Free', 'x')`.execute(k)
      await sql`insert into tenants (id, organisation_id, name, cloud_tenant_id, credential_type, connector,
        created_at) values (${TENANT}, 'o', 'T', 'c', 'ServicePrincipalSecret', 'azure', 'x')`.execute(k)
      await sql`insert into resource_groups (id, tenant_id, subscription_id, name, name_lower, arm_id, tags,
        first_seen_at, last_seen_at) values (${GROUP}, ${TENANT}, 's', 'app', 'app', '/subscriptions/s/resourceGroups/app',
        '{}', 'x', 'x')`.execute(k)
      const resource = (id: string, armId: string, group: string | null, groupName: string | null) =>
        sql`insert into resources (id, tenant_id, subscription_id, resource_group_id, resource_group_name, arm_id,
          arm_id_lower, name, resource_type, location, tags, sku, state, properties, first_seen_at, last_seen_at)
          values (${id}, ${TENANT}, 's', ${group}, ${groupName}, ${armId}, ${armId.toLowerCase()}, 'vm-1',
          'microsoft.compute/virtualmachines', 'westeurope', '{"env":"prod"}', 'D2s', 'running', '{"a":1}', 'f', 'l')`
      await resource('44444444-4444-4444-8444-444444444444', VM, GROUP, 'app').execute(k)

      expect((await migrator.migrateToLatest()).error).toBeUndefined()
      const rows = (await sql`select * from resources`.execute(k)).rows
      expect(rows).toEqual([
        {
          id: '44444444-4444-4444-8444-444444444444',
          tenantId: TENANT,
          subscriptionId: 's',
          resourceGroupId: GROUP,
          resourceGroupName: 'app',
          armId: VM,
          armIdLower: VM.toLowerCase(),
          name: 'vm-1',
          resourceType: 'microsoft.compute/virtualmachines',
          location: 'westeurope',
          tags: '{"env":"prod"}',
          tagsAt: null,
          sku: 'D2s',
          state: 'running',
          properties: '{"a":1}',
          firstSeenAt: 'f',
          lastSeenAt: 'l',
        },
      ])
      const indexes = (
        dialect === 'sqlite'
          ? await sql<{
              name: string
            }>`select name from sqlite_master where type = 'index' and tbl_name = 'resources'`.execute(k)
          : await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'resources'`.execute(
              k,
            )
      ).rows.map((r) => r.name)
      expect(indexes).toEqual(
        expect.arrayContaining(['resources_tenant_group', 'resources_tenant_subscription', 'resources_tenant_name']),
      )
      await resource('55555555-5555-4555-8555-555555555555', ARN, null, null).execute(k)
      const stored = (
        await sql<{ n: number }>`select count(*) as n from resources where resource_group_id is null`.execute(k)
      ).rows[0]!
      expect(Number(stored.n)).toBe(1)
      // One resource per tenant and id, whatever its spelling, as before.
      await expect(
        resource('66666666-6666-4666-8666-666666666666', VM.toUpperCase(), GROUP, 'app').execute(k),
      ).rejects.toThrow()
    })
  })
}
