import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { TEST_SECRET_KEY, useTestApp } from '../support/app.js'
import { ROOT, runCli } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'

const SMALL = join(ROOT, 'test/fixtures/focus/azure-focus-small.csv')
const BAD = join(ROOT, 'test/fixtures/focus/azure-focus-bad.csv')

for (const dialect of testDialects()) {
  describe(`${dialect}: costwatch import focus`, () => {
    const t = useTestApp({ dialect, now: '2025-10-20T09:00:00.000Z' })
    const env = () => ({ COSTWATCH_DATABASE_URL: t.databaseUrl, COSTWATCH_SECRET_KEY: TEST_SECRET_KEY })
    const totals = async (tenantId: string) => {
      const rows = await t.db.kysely
        .selectFrom('dailyCosts')
        .select((eb) => ['date', eb.fn.sum<number>('cost').as('cost'), eb.fn.countAll<number>().as('n')])
        .where('tenantId', '=', tenantId)
        .groupBy('date')
        .orderBy('date')
        .execute()
      return rows.map((r) => ({ date: r.date, cost: Math.round(Number(r.cost) * 100) / 100, n: Number(r.n) }))
    }

    it('loads a FOCUS export with exact totals, as one run; a second import replaces, never adds', async () => {
      const org = await t.given.organisation()
      const tenant = await t.given.tenant(org)
      const res = await runCli(['import', 'focus', '--tenant', tenant.id, SMALL, '--json'], env())
      expect(res.code, res.stderr).toBe(0)
      const out = JSON.parse(res.stdout)
      expect(out).toMatchObject({ rowsRead: 28, rowsRejected: 0, currency: 'EUR', totalCost: 45.23, errors: [] })
      expect(out.run).toMatchObject({
        status: 'Succeeded',
        periodStart: '2025-10-15',
        periodEnd: '2025-10-17',
        stats: { subscriptions: 2, resourceGroups: 4, resources: 6, costRows: 27 },
      })
      const expected = [
        { date: '2025-10-15', cost: 8.24 },
        { date: '2025-10-16', cost: 33.83 },
        { date: '2025-10-17', cost: 3.16 },
      ]
      expect((await totals(tenant.id)).map(({ date, cost }) => ({ date, cost }))).toEqual(expected)

      const again = await runCli(['import', 'focus', '--tenant', tenant.id, SMALL], env())
      expect(again.code, again.stderr).toBe(0)
      expect(again.stdout).toContain('Imported 28 of 28 rows')
      expect((await totals(tenant.id)).map(({ date, cost }) => ({ date, cost }))).toEqual(expected)
      const runs = (await t.request('GET', `/api/public/v1/tenants/${tenant.id}/snapshots`, org.ownerKey)).json()
      expect(runs.totalCount).toBe(2)

      // Resource groups spelt several ways are one group each.
      const groups = (
        await t.request('GET', `/api/public/v1/tenants/${tenant.id}/resource-groups`, org.ownerKey)
      ).json()
      expect(groups.items.map((g: { name: string }) => g.name).sort()).toEqual([
        'Data-RG',
        'domains',
        'shared',
        'web-prod',
      ])
      const tenantRecord = (await t.request('GET', `/api/public/v1/tenants/${tenant.id}`, org.ownerKey)).json()
      expect(tenantRecord.costs).toMatchObject({ currency: 'EUR', monthToDate: 45.23 })
    })

    it('reads gzip as well as plain CSV', async () => {
      const org = await t.given.organisation()
      const tenant = await t.given.tenant(org)
      const dir = mkdtempSync(join(tmpdir(), 'focus-'))
      const gz = join(dir, 'export.csv.gz')
      writeFileSync(gz, gzipSync(readFileSync(SMALL)))
      const res = await runCli(['import', 'focus', '--tenant', tenant.id, gz, '--json'], env())
      expect(res.code, res.stderr).toBe(0)
      expect(JSON.parse(res.stdout).totalCost).toBe(45.23)
    })

    it('refuses a file with bad rows, naming each by line, and writes nothing', async () => {
      const org = await t.given.organisation()
      const tenant = await t.given.tenant(org)
      const res = await runCli(['import', 'focus', '--tenant', tenant.id, BAD], env())
      expect(res.code).toBe(1)
      expect(res.stderr).toContain('nothing was imported')
      for (const line of [3, 4, 5, 6, 10, 12, 14, 15, 16, 17, 19])
        expect(res.stderr).toContain(`azure-focus-bad.csv:${line}:`)
      expect(await totals(tenant.id)).toEqual([])
      expect(
        (await t.request('GET', `/api/public/v1/tenants/${tenant.id}/snapshots`, org.ownerKey)).json().totalCount,
      ).toBe(0)
      const json = await runCli(['import', 'focus', '--tenant', tenant.id, BAD, '--json'], env())
      expect(json.code).toBe(1)
      expect(JSON.parse(json.stdout)).toMatchObject({ imported: false, errorCount: 11 })
    })

    it('refuses an unknown tenant and a missing file clearly', async () => {
      const unknown = await runCli(
        ['import', 'focus', '--tenant', '00000000-0000-4000-8000-000000000000', SMALL],
        env(),
      )
      expect(unknown.code).toBe(1)
      expect(unknown.stderr).toContain('was not found')
      const org = await t.given.organisation()
      const tenant = await t.given.tenant(org)
      const missing = await runCli(['import', 'focus', '--tenant', tenant.id, '/nonexistent/export.csv'], env())
      expect(missing.code).toBe(1)
      expect(missing.stderr).toContain('/nonexistent/export.csv')
    })
  })
}
