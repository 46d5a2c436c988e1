import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { tableDump } from '../support/tables.js'

for (const dialect of testDialects()) {
  describe(`${dialect}: creating an organisation is all or nothing`, () => {
    const t = useTestApp({ dialect })

    /** A database trigger that refuses every new row of `table`: a real failure of the store's insert. */
    async function refuseInserts(table: 'users' | 'api_keys') {
      if (dialect === 'sqlite') {
        await sql`create trigger refuse_insert before insert on ${sql.table(table)}
          begin select raise(abort, 'refused by the test trigger'); end`.execute(t.db.kysely)
      } else {
        await sql`create function refuse_insert() returns trigger language plpgsql as
          $$ begin raise exception 'refused by the test trigger'; end $$`.execute(t.db.kysely)
        await sql`create trigger refuse_insert before insert on ${sql.table(table)}
          for each row execute function refuse_insert()`.execute(t.db.kysely)
      }
    }

    afterEach(async () => {
      if (dialect === 'sqlite') await sql`drop trigger if exists refuse_insert`.execute(t.db.kysely)
      else await sql`drop function if exists refuse_insert() cascade`.execute(t.db.kysely)
    })

    for (const table of ['api_keys', 'users'] as const) {
      it(`a failing ${table} insert leaves no organisation, owner or key behind`, async () => {
        await t.given.organisation('Existing')
        const before = await tableDump(t.db)
        await refuseInserts(table)
        await expect(
          t.services.organisations.create({ name: 'Half Made', ownerEmail: 'half@made.test' }),
        ).rejects.toThrow(/refused by the test trigger/)
        expect(await tableDump(t.db)).toEqual(before)
        const names = await t.db.kysely.selectFrom('organisations').select('name').execute()
        expect(names.map((r) => r.name)).not.toContain('Half Made')
      })
    }

    it('without a failure the three rows are there and the key works', async () => {
      const before = await tableDump(t.db)
      const created = await t.services.organisations.create({ name: 'Whole', ownerEmail: 'whole@made.test' })
      const after = await tableDump(t.db)
      expect([after.organisations, after.users, after.api_keys].map((rows) => rows?.length)).toEqual([
        before.organisations!.length + 1,
        before.users!.length + 1,
        before.api_keys!.length + 1,
      ])
      const res = await t.request('GET', '/api/public/v1/organisation', created.apiKey)
      expect(res.json()).toMatchObject({ id: created.organisation.id, name: 'Whole' })
    })
  })
}
