import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { TEST_SECRET_KEY, useTestApp } from '../support/app.js'
import { ROOT, runCli } from '../support/cli.js'
import { costRowsOf } from '../support/cost-rows.js'
import { testDialects } from '../support/dialects.js'
import { type FocusExport, writeFocusExport } from '../support/focus-export.js'

const SMALL = join(ROOT, 'test/fixtures/focus/azure-focus-small.csv')
const BAD = join(ROOT, 'test/fixtures/focus/azure-focus-bad.csv')

for (const dialect of testDialects()) {
  describe(`${dialect}: costwatch import focus`, () => {
    const t = useTestApp({ dialect, now: '2025-10-20T09:00:00.000Z' })
    const env = () => ({ COSTWATCH_DATABASE_URL: t.databaseUrl, COSTWATCH_SECRET_KEY: TEST_SECRET_KEY })
    const totals = async (tenantId: string) => {
      const rows = await costRowsOf(t.db.kysely, tenantId)
        .select((eb) => ['date', eb.fn.sum<number>('cost').as('cost'), eb.fn.countAll<number>().as('n')])
        .groupBy('date')
        .orderBy('date')
        .execute()
      return rows.map((r) => ({ date: r.date, cost: Math.round(Number(r.cost) * 100) / 100, n: Number(r.n) }))
    }

    // First in the file: no other test's queued analyses for its worker to work through, however slow the machine.
    it('fails an import whose process died, once a worker finds its lease expired, dropping what it staged', async () => {
      const org = await t.given.organisation()
      const tenant = await t.given.tenant(org)
      const runId = '01900000-0000-7000-8000-00000000abcd'
      const run = await t.services.snapshotStore.runs.begin(
        {
          id: runId,
          tenantId: tenant.id,
          trigger: 'Import',
          deepHistory: 0,
          requestedAt: t.clock.now().toISOString(),
          requestedBy: 'command line',
        },
        `import:${runId}`,
        60_000,
      )
      await t.db.kysely
        .insertInto('costStaging')
        .values({
          runId: `${run.id}:1`,
          tenantId: tenant.id,
          resourceKey: '',
          date: '2025-10-19',
          meterId: 'm',
          subscriptionId: 's',
          resourceGroupKey: '',
          meterName: null,
          serviceName: 'Support',
          cost: 1,
          currency: 'USD',
        })
        .execute()
      const runs = async () =>
        (await t.request('GET', `/api/public/v1/tenants/${tenant.id}/snapshots`, org.ownerKey)).json()
      const worker = t.worker()
      await worker.runOnce() // the import's lease holds: nobody touches it
      expect((await runs()).items).toMatchObject([{ id: run.id, status: 'Running' }])
      t.clock.advance(61_000)
      for (let turn = 0; turn < 6 && (await runs()).items[0].status !== 'Failed'; turn++) await worker.runOnce()
      expect((await runs()).items).toMatchObject([
        { id: run.id, status: 'Failed', trigger: 'Import', error: { code: 'import_interrupted' } },
      ])
      expect(await t.db.kysely.selectFrom('costStaging').select('runId').execute()).toEqual([])
      expect(await totals(tenant.id)).toEqual([])
    })

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
      // The run is recorded as Failed, with the first bad row; no data of it is kept.
      const runs = (await t.request('GET', `/api/public/v1/tenants/${tenant.id}/snapshots`, org.ownerKey)).json()
      expect(runs.items).toMatchObject([
        {
          status: 'Failed',
          trigger: 'Import',
          error: { code: 'import_rejected', message: expect.stringContaining('azure-focus-bad.csv line 3:') },
        },
      ])
      const json = await runCli(['import', 'focus', '--tenant', tenant.id, BAD, '--json'], env())
      expect(json.code).toBe(1)
      expect(JSON.parse(json.stdout)).toMatchObject({ imported: false, errorCount: 11 })
    })

    /** 200 resources x 200 days: about 54,000 rows in 7 monthly files, several staging batches and progress lines. */
    const estate = (options: { gzip: boolean; alter?: Parameters<typeof writeFocusExport>[1]['alter'] }) =>
      writeFocusExport(mkdtempSync(join(tmpdir(), 'focus-estate-')), {
        resources: 200,
        days: 200,
        lastDay: '2025-10-19',
        ...options,
      })
    const exportTotals = (focus: FocusExport) =>
      [...focus.costByDay].map(([date, cost]) => ({ date, cost: Math.round(cost * 100) / 100 }))
    const storedTotals = async (tenantId: string) =>
      (await totals(tenantId)).map(({ date, cost }) => ({ date, cost: Math.round(cost * 100) / 100 }))

    it('streams a large gzip export into place with its exact totals, printing progress', async () => {
      const org = await t.given.organisation()
      const tenant = await t.given.tenant(org)
      const focus = await estate({ gzip: true })
      expect(focus.files).toHaveLength(7)
      expect(focus.rows).toBeGreaterThan(50_000)
      const res = await runCli(['import', 'focus', '--tenant', tenant.id, ...focus.files, '--json'], env())
      expect(res.code, res.stderr).toBe(0)
      const out = JSON.parse(res.stdout)
      expect(out).toMatchObject({ rowsRead: focus.rows, rowsRejected: 0, currency: 'USD', errors: [] })
      expect(out.totalCost).toBeCloseTo(focus.totalCost, 2)
      expect(out.run).toMatchObject({
        status: 'Succeeded',
        trigger: 'Import',
        periodStart: '2025-04-03',
        periodEnd: '2025-10-19',
        progress: null,
        stats: { costRows: focus.costRows },
      })
      expect(await storedTotals(tenant.id)).toEqual(exportTotals(focus))
      expect((await totals(tenant.id)).reduce((n, d) => n + d.n, 0)).toBe(focus.costRows)
      // A line on stderr every 50,000 rows and at the end of each file: rows so far and the rate.
      const progress = res.stderr.split('\n').filter((l) => l.startsWith('importing: '))
      expect(progress).toContainEqual(
        expect.stringMatching(/^importing: 5\d{4} rows read \(file \d of 7\), \d+ rows\/s$/),
      )
      expect(progress.at(-1)).toMatch(new RegExp(`^importing: ${focus.rows} rows read \\(file 7 of 7\\), \\d+ rows/s$`))
      expect(await t.db.kysely.selectFrom('costStaging').select('runId').execute()).toEqual([])
    })

    it('fails the whole import on a bad row deep in the second file, naming file and line, keeping what was there', async () => {
      const org = await t.given.organisation()
      const tenant = await t.given.tenant(org)
      const first = await runCli(['import', 'focus', '--tenant', tenant.id, SMALL], env())
      expect(first.code, first.stderr).toBe(0)
      const before = await totals(tenant.id)
      const resourcesBefore = (
        await t.request('GET', `/api/public/v1/tenants/${tenant.id}/resources?pageSize=200`, org.ownerKey)
      ).json()

      // Plain CSV this time. Line 7,000 of the second file comes after a first batch of costs was staged.
      const focus = await estate({
        gzip: false,
        alter: (fields, at) => {
          if (at.file === 2 && at.line === 7000) fields.EffectiveCost = '12,50'
        },
      })
      const bad = focus.files[1]!
      const res = await runCli(['import', 'focus', '--tenant', tenant.id, ...focus.files], env())
      expect(res.code).toBe(1)
      expect(res.stderr).toContain('1 row could not be read; nothing was imported.')
      expect(res.stderr).toContain(`${bad}:7000: EffectiveCost "12,50" is not a number`)

      expect(await totals(tenant.id)).toEqual(before)
      const resourcesAfter = (
        await t.request('GET', `/api/public/v1/tenants/${tenant.id}/resources?pageSize=200`, org.ownerKey)
      ).json()
      expect(resourcesAfter.totalCount).toBe(resourcesBefore.totalCount)
      expect(await t.db.kysely.selectFrom('costStaging').select('runId').execute()).toEqual([])
      const runs = (await t.request('GET', `/api/public/v1/tenants/${tenant.id}/snapshots`, org.ownerKey)).json()
      expect(runs.items.map((r: { status: string }) => r.status)).toEqual(['Failed', 'Succeeded'])
      expect(runs.items[0].error.message).toContain(`${basename(bad)} line 7000: EffectiveCost "12,50" is not a number`)
    })

    it("shows an import's progress in its run while it runs, and refuses one beside a queued snapshot", async () => {
      const org = await t.given.organisation()
      const tenant = await t.given.tenant(org)
      const focus = await estate({ gzip: true })
      const seen: { status: string; progress: string | null }[] = []
      const outcome = await t.services.importFocus(tenant.id, focus.files, {
        onProgress: async () => {
          const runs = (await t.request('GET', `/api/public/v1/tenants/${tenant.id}/snapshots`, org.ownerKey)).json()
          seen.push({ status: runs.items[0].status, progress: runs.items[0].progress })
        },
      })
      expect(outcome.run.status).toBe('Succeeded')
      expect(seen.length).toBeGreaterThanOrEqual(8) // 7 files, and 50,000 rows
      expect(seen.every((s) => s.status === 'Running')).toBe(true)
      expect(seen[0]!.progress).toMatch(/^importing: \d+ rows read \(file 1 of 7\), \d+ rows\/s$/)
      expect(seen.at(-1)!.progress).toMatch(new RegExp(`^importing: ${focus.rows} rows read \\(file 7 of 7\\)`))

      await t.services.snapshots.trigger(org.owner, tenant.id, false)
      await expect(t.services.importFocus(tenant.id, [SMALL])).rejects.toMatchObject({
        status: 409,
        message: 'The tenant has a snapshot run queued or running; import once it has finished.',
      })
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
