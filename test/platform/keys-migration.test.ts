import { Migrator, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { migrations } from '../../src/platform/db/migrations/index.js'
import { useEmptyDatabase } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const ORG = '11111111-1111-4111-8111-111111111111'
const OWNER = '22222222-2222-4222-8222-222222222222'
const AT = '2026-02-01T10:00:00.000Z'

for (const dialect of testDialects()) {
  describe(`${dialect}: migration 0024 (keys made on the command line say so)`, () => {
    const empty = useEmptyDatabase(dialect)

    it("org create's first keys become the command line's; keys made in the web interface stay their maker's", async () => {
      const migrator = new Migrator({ db: empty.db.kysely, provider: { getMigrations: async () => migrations } })
      expect((await migrator.migrateTo('0023_daily_costs_by_resource')).error).toBeUndefined()
      const k = empty.db.kysely
      await sql`insert into organisations (id, name, plan, created_at) values (${ORG}, 'Org', 'free', ${AT})`.execute(k)
      await sql`insert into users (id, organisation_id, email, email_key, is_owner, is_disabled, status, created_at)
        values (${OWNER}, ${ORG}, 'o@x.test', 'o@x.test', 1, 0, 'Active', ${AT})`.execute(k)
      // key, made by, audit origin of its creation (none: made before the audit log existed)
      const keys = [
        ['org-create', 'User', 'cli'],
        ['before-audit', 'User', null],
        ['web', 'User', '192.0.2.7'],
        ['cli', 'System', 'cli'],
      ] as const
      for (const [name, type, origin] of keys) {
        const id = `${name}-key`
        await sql`insert into api_keys (id, organisation_id, name, prefix, hash, owner_scoped, created_at,
          created_by_type, created_by_id, created_by_name)
          values (${id}, ${ORG}, ${name}, 'cw_x', ${`hash-${name}`}, 1, ${AT}, ${type},
            ${type === 'User' ? OWNER : null}, ${type === 'User' ? 'o@x.test' : 'command line'})`.execute(k)
        if (origin)
          await sql`insert into audit_log (id, organisation_id, at, actor_type, actor_id, actor_name, action,
            target_type, target_id, origin)
            values (${`audit-${name}`}, ${ORG}, ${AT}, ${type}, null, null, 'apiKey.created', 'ApiKey', ${id},
              ${origin})`.execute(k)
      }
      expect((await migrator.migrateToLatest()).error).toBeUndefined()
      const rows = await k
        .selectFrom('apiKeys')
        .select(['name', 'createdByType', 'createdById'])
        .orderBy('name')
        .execute()
      // Read through the app's camel-casing plugin.
      expect(rows).toEqual([
        { name: 'before-audit', createdByType: 'System', createdById: null },
        { name: 'cli', createdByType: 'System', createdById: null },
        { name: 'org-create', createdByType: 'System', createdById: null },
        { name: 'web', createdByType: 'User', createdById: OWNER },
      ])
    })
  })
}
