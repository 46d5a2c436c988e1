import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ReportRecord, ReportRunRecord } from '../../src/features/reports/schemas.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { seedCosts } from '../reports/seed.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { auditLogOf } from '../support/audit-log.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
const PUBLIC_URL = 'https://costs.example.test'

function expectProblem(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number) {
  expect(res.statusCode, res.body).toBe(status)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  return JSON.parse(res.body)
}

/** `/Count n` of the page tree, and the page objects, which must agree. */
function pdfPages(pdf: Buffer): number {
  const text = pdf.toString('latin1')
  const objects = text.match(/\/Type \/Page\b/g)?.length ?? 0
  const count = Number(/\/Type \/Pages[\s\S]*?\/Count (\d+)/.exec(text)?.[1])
  expect(objects).toBe(count)
  return count
}

for (const dialect of testDialects()) {
  describe(`${dialect}: reports`, () => {
    const t = useTestApp({
      dialect,
      env: {
        COSTWATCH_RATE_LIMIT: '100000',
        COSTWATCH_SNAPSHOT_HOUR: '23', // no daily snapshot mixes simulated costs into the seeded ones
        COSTWATCH_PUBLIC_URL: PUBLIC_URL,
        COSTWATCH_BLOB_URL: mkdtempSync(join(tmpdir(), 'costwatch-blobs-')),
      },
    })
    let org: OrgContext
    let t1: TenantRecord
    let t2: TenantRecord
    const keys = {} as Record<'viewer1' | 'editor1' | 'viewer1and2' | 'foreign', string>

    const create = (body: Record<string, unknown>, key = org.ownerKey) => t.request('POST', `${API}/reports`, key, body)
    async function created(body: Record<string, unknown>): Promise<ReportRecord> {
      const res = await create(body)
      expect(res.statusCode, res.body).toBe(201)
      return res.json()
    }
    async function runToEnd(reportId: string, key = org.ownerKey): Promise<ReportRunRecord> {
      const res = await t.request('POST', `${API}/reports/${reportId}/runs`, key)
      expect(res.statusCode, res.body).toBe(202)
      const worker = t.worker()
      while (await worker.runOnce()) {}
      return (await t.request('GET', res.headers.location as string, key)).json()
    }
    const download = (reportId: string, runId: string, format: string, key = org.ownerKey) =>
      t.request('GET', `${API}/reports/${reportId}/runs/${runId}/${format}`, key)

    beforeAll(async () => {
      org = await t.given.organisation('Reporting Ltd')
      t1 = await t.given.tenant(org, { name: 'Production' })
      t2 = await t.given.tenant(org, { name: 'Europe' })
      await seedCosts(
        t.db,
        t1.id,
        [
          { name: 'vm-web', daily: 10, tags: { Env: 'prod' } },
          { name: 'vm-batch', daily: 2.5, service: 'Batch', group: 'rg-batch', tags: { env: 'test' } },
          {
            name: '=HYPERLINK("http://evil.test")',
            type: 'Microsoft.Storage/storageAccounts',
            service: 'Storage',
            daily: 1.25,
            tags: { Env: '+1-2' },
          },
        ],
        { last: '2026-03-01', days: 10, subscriptionCharge: 0.5 },
      )
      await seedCosts(t.db, t2.id, [{ name: 'vm-eu', daily: 7, currency: 'EUR', subscriptionId: 'sub-eu' }], {
        last: '2026-03-01',
        days: 10,
      })
      keys.viewer1 = (await t.given.key(org, [{ tenancyId: t1.id, role: 'Viewer' }])).apiKey
      keys.editor1 = (await t.given.key(org, [{ tenancyId: t1.id, role: 'Editor' }])).apiKey
      keys.viewer1and2 = (
        await t.given.key(org, [
          { tenancyId: t1.id, role: 'Viewer' },
          { tenancyId: t2.id, role: 'Viewer' },
        ])
      ).apiKey
      keys.foreign = (await t.given.organisation('Elsewhere')).ownerKey
    })

    it('gives a new organisation a default set of organisation-wide reports, for owners only', async () => {
      const mine = (await t.request('GET', `${API}/reports`, org.ownerKey)).json()
      expect(mine.totalCount).toBe(4)
      expect(mine.items.map((r: ReportRecord) => r.kind)).toContain('TopResources')
      expect(mine.items.every((r: ReportRecord) => r.tenancyIds === null && r.lastRun === null)).toBe(true)
      // Ordered by name.
      const names = mine.items.map((r: ReportRecord) => r.name)
      expect(names).toEqual([...names].sort())
      const viewer = (await t.request('GET', `${API}/reports`, keys.viewer1)).json()
      expect(viewer).toMatchObject({ items: [], totalCount: 0 })
      // An organisation-wide report is an owner's: a Viewer of one tenancy gets the 404 of an unknown id.
      expectProblem(await t.request('GET', `${API}/reports/${mine.items[0].id}`, keys.viewer1), 404)
      expectProblem(await t.request('GET', `${API}/reports/${mine.items[0].id}`, keys.foreign), 404)
    })

    it('creates a definition (owner only) with 201 and Location, and refuses bad input precisely', async () => {
      const res = await create({
        name: '  Cost by service ',
        kind: 'CostByDimension',
        parameters: { dimension: 'Service', period: 'Last30Days' },
        tenancyIds: [t1.id],
        schedule: { frequency: 'Weekly', hourUtc: 6, dayOfWeek: 'Friday' },
      })
      expect(res.statusCode, res.body).toBe(201)
      const report = res.json()
      expect(res.headers.location).toBe(`${API}/reports/${report.id}`)
      expect(report).toMatchObject({
        name: 'Cost by service',
        description: null,
        tenancyIds: [t1.id],
        parameters: { dimension: 'Service', period: 'Last30Days' },
        schedule: { frequency: 'Weekly', hourUtc: 6, dayOfWeek: 'Friday' },
        createdAt: '2026-03-01T09:00:00.000Z',
        lastRun: null,
      })

      const bad = expectProblem(
        await create({
          name: 'x',
          kind: 'CostByDimension',
          parameters: { dimension: 'Tag', period: 'Custom', from: '2026-03-05', to: '2026-03-01', colour: 'red' },
          tenancyIds: [t1.id, '00000000-0000-4000-8000-000000000000'],
          schedule: { frequency: 'Daily', hourUtc: 6, dayOfMonth: 3 },
        }),
        400,
      )
      expect(Object.keys(bad.errors).sort()).toEqual([
        'parameters.colour',
        'parameters.from',
        'parameters.tagKey',
        'schedule.dayOfMonth',
        'tenancyIds',
      ])
      expectProblem(await create({ name: 'x', kind: 'Nope', tenancyIds: null }), 400)
      expectProblem(await create({ name: 'x', kind: 'TopResources', tenancyIds: null, extra: 1 }), 400)
      // Another organisation's tenancy reads as an unknown one.
      const foreignTenant = await t.given.tenant(await t.given.organisation('Third'))
      const foreign = expectProblem(
        await create({ name: 'x', kind: 'TopResources', tenancyIds: [foreignTenant.id] }),
        400,
      )
      expect(foreign.errors.tenancyIds[0]).toContain('is not a tenancy of this organisation')
      expect(
        expectProblem(await create({ name: 'x', kind: 'TopResources', tenancyIds: [t1.id] }, keys.editor1), 403).type,
      ).toBe('/problems/forbidden')
    })

    it('shows a Viewer the reports whose tenancies it all can see, never an organisation-wide one', async () => {
      const only1 = await created({ name: 'Only one', kind: 'TopResources', tenancyIds: [t1.id] })
      const both = await created({ name: 'Both', kind: 'TopResources', tenancyIds: [t2.id, t1.id] })
      const wide = await created({ name: 'Wide', kind: 'TopResources', tenancyIds: null })
      expect(both.tenancyIds).toEqual([t1.id, t2.id].sort())
      const listed = async (key: string) =>
        (await t.request('GET', `${API}/reports?pageSize=200`, key)).json().items.map((r: ReportRecord) => r.id)
      const forViewer = await listed(keys.viewer1)
      expect(forViewer).toContain(only1.id)
      expect(forViewer).not.toContain(both.id)
      expect(forViewer).not.toContain(wide.id)
      expect(await listed(keys.viewer1and2)).toEqual(expect.arrayContaining([only1.id, both.id]))
      expect(await listed(keys.viewer1and2)).not.toContain(wide.id)
      expect((await t.request('GET', `${API}/reports/${only1.id}`, keys.viewer1)).statusCode).toBe(200)
      for (const id of [both.id, wide.id]) {
        expectProblem(await t.request('GET', `${API}/reports/${id}`, keys.viewer1), 404)
        expectProblem(await t.request('GET', `${API}/reports/${id}/runs`, keys.viewer1), 404)
      }
      // Running needs Editor on every tenancy covered: a Viewer may see but not run.
      expect(expectProblem(await t.request('POST', `${API}/reports/${only1.id}/runs`, keys.viewer1), 403).type).toBe(
        '/problems/forbidden',
      )
      expectProblem(await t.request('POST', `${API}/reports/${both.id}/runs`, keys.editor1), 404)
      expect((await t.request('POST', `${API}/reports/${only1.id}/runs`, keys.editor1)).statusCode).toBe(202)
      while (await t.worker().runOnce()) {}
    })

    it('edits (owner only) and deletes a definition with its runs and files', async () => {
      const report = await created({
        name: 'Temp',
        kind: 'TopResources',
        parameters: { count: 5 },
        tenancyIds: [t1.id],
      })
      const patched = await t.request('PATCH', `${API}/reports/${report.id}`, org.ownerKey, {
        name: 'Renamed',
        description: 'Weekly review',
        parameters: { count: 3, period: 'Last30Days' },
        schedule: null,
      })
      expect(patched.statusCode, patched.body).toBe(200)
      expect(patched.json()).toMatchObject({ name: 'Renamed', description: 'Weekly review', parameters: { count: 3 } })
      expectProblem(
        await t.request('PATCH', `${API}/reports/${report.id}`, org.ownerKey, { parameters: { count: 0 } }),
        400,
      )
      expectProblem(await t.request('PATCH', `${API}/reports/${report.id}`, keys.editor1, { name: 'x' }), 403)
      expectProblem(await t.request('PATCH', `${API}/reports/${report.id}`, keys.foreign, { name: 'x' }), 404)
      const run = await runToEnd(report.id)
      expect(run.status).toBe('Succeeded')
      expect(await t.services.blobs.list(`report-runs/${run.id}`)).toHaveLength(3)
      const audit = auditLogOf(t, org)
      expectProblem(await t.request('DELETE', `${API}/reports/${report.id}`, keys.foreign), 404)
      expectProblem(await t.request('DELETE', `${API}/reports/${report.id}`, keys.editor1), 403)
      expect(await audit('report.deleted')).toEqual([])
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: `${API}/reports/${report.id}`,
        headers: { 'x-api-key': org.ownerKey },
        remoteAddress: '203.0.113.7',
      })
      expect(deleted.statusCode).toBe(204)
      expectProblem(await t.request('GET', `${API}/reports/${report.id}`, org.ownerKey), 404)
      expect(await t.services.blobs.list(`report-runs/${run.id}`)).toEqual([])
      // Who deleted it, from where, and what it was.
      expect(await audit('report.deleted')).toEqual([
        expect.objectContaining({
          action: 'report.deleted',
          actor: expect.objectContaining({ type: 'ApiKey' }),
          target: { type: 'Report', id: report.id },
          detail: { name: 'Renamed', kind: 'TopResources' },
          origin: '203.0.113.7',
        }),
      ])
    })

    describe('a run', () => {
      let report: ReportRecord
      let run: ReportRunRecord

      it('answers 202 with Location and the queued run; files are a 409 until it succeeded', async () => {
        report = await created({
          name: 'Cost by resource',
          description: 'Every resource of production',
          kind: 'CostByDimension',
          parameters: { dimension: 'Resource', period: 'Last30Days' },
          tenancyIds: [t1.id],
        })
        const res = await t.request('POST', `${API}/reports/${report.id}/runs`, keys.editor1)
        expect(res.statusCode, res.body).toBe(202)
        run = res.json()
        expect(res.headers.location).toBe(`${API}/reports/${report.id}/runs/${run.id}`)
        expect(run).toMatchObject({
          reportId: report.id,
          status: 'Queued',
          requestedAt: '2026-03-01T09:00:00.000Z',
          rowCount: null,
        })
        const queued = await t.request('GET', res.headers.location as string, keys.viewer1)
        expect(queued.json()).toMatchObject({ status: 'Queued', columns: [], rows: [], truncated: false })
        for (const format of ['csv', 'pdf', 'xlsx']) {
          const problem = expectProblem(await download(report.id, run.id, format, keys.viewer1), 409)
          expect(problem.detail).toContain('Queued')
        }
      })

      it('lists runs newest first and shows the data once it succeeded', async () => {
        t.clock.advance(1000)
        const second = (await t.request('POST', `${API}/reports/${report.id}/runs`, org.ownerKey)).json()
        const worker = t.worker()
        while (await worker.runOnce()) {}
        const runs = (await t.request('GET', `${API}/reports/${report.id}/runs`, keys.viewer1)).json()
        expect(runs.items.map((r: ReportRunRecord) => r.id)).toEqual([second.id, run.id])
        const detail = (await t.request('GET', `${API}/reports/${report.id}/runs/${run.id}`, keys.viewer1)).json()
        expect(detail).toMatchObject({
          status: 'Succeeded',
          periodStart: '2026-01-31',
          periodEnd: '2026-03-01',
          rowCount: 4,
          error: null,
          truncated: false,
          columns: ['Resource', 'Type', 'Resource group', 'Subscription', 'Cost', 'Currency'],
        })
        // Resource id order; the subscription's own charges first (no resource), all charges summed.
        expect(detail.rows).toEqual([
          ['(subscription charges)', '', '', 'sub-a', 5, 'USD'],
          ['vm-batch', 'Microsoft.Compute/virtualMachines', 'rg-batch', 'sub-a', 25, 'USD'],
          ['vm-web', 'Microsoft.Compute/virtualMachines', 'rg-main', 'sub-a', 100, 'USD'],
          ['=HYPERLINK("http://evil.test")', 'Microsoft.Storage/storageAccounts', 'rg-main', 'sub-a', 12.5, 'USD'],
        ])
        const record = (await t.request('GET', `${API}/reports/${report.id}`, keys.viewer1)).json()
        expect(record.lastRun).toMatchObject({ id: second.id, status: 'Succeeded' })
        run = detail
      })

      it('redirects the CSV to a signed URL that needs no key, escapes formulas, and refuses a changed or expired link', async () => {
        const res = await download(report.id, run.id, 'csv', keys.viewer1)
        expect(res.statusCode, res.body).toBe(302)
        const location = new URL(res.headers.location as string)
        expect(location.origin).toBe(PUBLIC_URL)
        expect(location.pathname).toBe(`${API}/report-files/${run.id}/cost-by-resource-2026-01-31-to-2026-03-01.csv`)
        const path = `${location.pathname}${location.search}`
        const file = await t.request('GET', path, null)
        expect(file.statusCode, file.body).toBe(200)
        expect(file.headers['content-type']).toBe('text/csv; charset=utf-8')
        expect(file.headers['content-disposition']).toBe(
          'attachment; filename="cost-by-resource-2026-01-31-to-2026-03-01.csv"',
        )
        const lines = file.body
          .replace(/^\uFEFF/, '')
          .trimEnd()
          .split('\r\n')
        expect(lines[0]).toBe('Resource,Type,Resource group,Subscription,Cost,Currency')
        expect(lines[4]).toBe(
          `"'=HYPERLINK(""http://evil.test"")",Microsoft.Storage/storageAccounts,rg-main,sub-a,12.5,USD`,
        )

        const sig = location.searchParams.get('sig')!
        const tampered = [
          path.replace(`sig=${sig}`, `sig=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`),
          path.replace(/expires=(\d+)/, (_m, e) => `expires=${Number(e) + 3600}`),
          path.replace(run.id, report.id),
          location.pathname,
        ]
        for (const bad of tampered)
          expect(expectProblem(await t.request('GET', bad, null), 403).type).toBe('/problems/forbidden')
        t.clock.advance(299_000)
        expect((await t.request('GET', path, null)).statusCode).toBe(200)
        t.clock.advance(2_000) // five minutes and a second after it was signed
        expectProblem(await t.request('GET', path, null), 403)
        expectProblem(await t.request('GET', path, null), 403) // and again: an expired link stays dead
        const fresh = await download(report.id, run.id, 'csv', keys.viewer1)
        expect(fresh.statusCode).toBe(302)
        expect(
          (
            await t.request(
              'GET',
              new URL(fresh.headers.location as string).pathname + new URL(fresh.headers.location as string).search,
              null,
            )
          ).statusCode,
        ).toBe(200)
      })

      it('serves a PDF and an XLSX holding the same numbers as the CSV', async () => {
        const pdf = await download(report.id, run.id, 'pdf', keys.viewer1)
        expect(pdf.statusCode).toBe(200)
        expect(pdf.headers['content-type']).toBe('application/pdf')
        expect(pdf.headers['content-disposition']).toBe(
          'attachment; filename="cost-by-resource-2026-01-31-to-2026-03-01.pdf"',
        )
        expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
        expect(pdfPages(pdf.rawPayload)).toBe(1)

        const xlsx = await download(report.id, run.id, 'xlsx', keys.viewer1)
        expect(xlsx.statusCode).toBe(200)
        expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        expect(xlsx.headers['content-disposition']).toMatch(/filename="cost-by-resource-.*\.xlsx"$/)
        const book = new ExcelJS.Workbook()
        await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer)
        const sheet = book.getWorksheet('Report')!
        expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
        expect(sheet.autoFilter).toBeTruthy()

        const csvRes = await download(report.id, run.id, 'csv', keys.viewer1)
        const signed = new URL(csvRes.headers.location as string)
        const csv: string[][] = parse((await t.request('GET', signed.pathname + signed.search, null)).body, {
          bom: true,
        })
        const rows = csv.slice(1)
        for (const [i, line] of rows.entries()) {
          const cells = sheet.getRow(i + 2)
          expect(cells.getCell(5).value).toBe(Number(line[4]))
          expect(typeof cells.getCell(5).value).toBe('number')
          expect(cells.getCell(5).numFmt).toContain('USD')
          expect(cells.getCell(4).value).toBe(line[3])
        }
        const total = sheet.getRow(rows.length + 2)
        expect(total.getCell(1).value).toBe('Total')
        expect(total.getCell(5).value).toMatchObject({ formula: `SUM(E2:E${rows.length + 1})`, result: 142.5 })
        const about = book.getWorksheet('About')!
        expect(about.getRow(3).getCell(2).value).toEqual(new Date('2026-01-31T00:00:00.000Z'))
      })

      it('sums several currencies apart, by tag (key in any case) and by service', async () => {
        const byTag = await created({
          name: 'By environment',
          kind: 'CostByDimension',
          parameters: { dimension: 'Tag', tagKey: 'ENV', period: 'Last30Days' },
          tenancyIds: [t1.id, t2.id],
        })
        const done = await runToEnd(byTag.id)
        const detail = (await t.request('GET', `${API}/reports/${byTag.id}/runs/${done.id}`, keys.viewer1and2)).json()
        expect(detail.rows).toEqual([
          ['prod', 100, 'USD'],
          ['(untagged)', 70, 'EUR'],
          ['test', 25, 'USD'],
          ['+1-2', 12.5, 'USD'],
          ['(untagged)', 5, 'USD'],
        ])
        const signed = new URL((await download(byTag.id, done.id, 'csv')).headers.location as string)
        const csv = (await t.request('GET', signed.pathname + signed.search, null)).body
        expect(csv).toContain(`"'+1-2",12.5,USD`)
        const book = new ExcelJS.Workbook()
        await book.xlsx.load((await download(byTag.id, done.id, 'xlsx')).rawPayload as unknown as ArrayBuffer)
        const totals = [7, 8].map((r) => book.getWorksheet('Report')!.getRow(r).getCell(2).value)
        expect(totals).toEqual([
          { formula: 'SUMIF(C2:C6,"EUR",B2:B6)', result: 70 },
          { formula: 'SUMIF(C2:C6,"USD",B2:B6)', result: 142.5 },
        ])
        const byService = await created({
          name: 'By service',
          kind: 'CostByDimension',
          parameters: { dimension: 'Service', period: 'MonthToDate', top: 2 },
          tenancyIds: [t1.id],
        })
        const serviceRun = await runToEnd(byService.id)
        const services = (
          await t.request('GET', `${API}/reports/${byService.id}/runs/${serviceRun.id}`, org.ownerKey)
        ).json()
        expect(services).toMatchObject({
          periodStart: '2026-03-01',
          periodEnd: '2026-03-01',
          rows: [
            ['Virtual Machines', 10, 'USD'],
            ['Batch', 2.5, 'USD'],
          ],
        })
      })

      it('lays a long table over numbered pages with the header repeated', async () => {
        await seedCosts(
          t.db,
          t1.id,
          Array.from({ length: 150 }, (_, i) => ({
            name: `app-${String(i).padStart(3, '0')}`,
            group: 'rg-apps',
            daily: 1 + i / 100,
          })),
          { last: '2026-03-01', days: 2 },
        )
        const done = await runToEnd(report.id)
        expect(done.rowCount).toBe(154)
        const pdf = await download(report.id, done.id, 'pdf')
        // Page 1 holds the title, totals and chart with the first rows, then about 29 rows a page.
        const pages = pdfPages(pdf.rawPayload)
        expect(pages).toBeGreaterThanOrEqual(5)
        expect(pages).toBeLessThanOrEqual(7)
      })
    })

    it('is finished by another worker when its worker dies (lease expiry), with one file per format', async () => {
      const report = await created({ name: 'Interrupted', kind: 'TopResources', tenancyIds: [t1.id] })
      const queued = (await t.request('POST', `${API}/reports/${report.id}/runs`, org.ownerKey)).json()
      // The first worker claims the run, writes part of its files, and dies without a word.
      const claimed = await t.services.reportStore.runs.claim('doomed-worker', t.config.runLeaseMs)
      expect(claimed?.id).toBe(queued.id)
      const partial = join(mkdtempSync(join(tmpdir(), 'costwatch-partial-')), 'half.csv')
      await import('node:fs/promises').then((fs) => fs.writeFile(partial, 'Rank,Resou'))
      await t.services.blobs.putFile(`report-runs/${queued.id}/report.csv`, partial, 'text/csv')
      expect(
        (await t.request('GET', `${API}/reports/${report.id}/runs/${queued.id}`, org.ownerKey)).json().status,
      ).toBe('Running')

      t.clock.advance(t.config.runLeaseMs + 1000)
      const worker = t.worker({ workerId: 'rescuer' })
      expect(await worker.runOnce()).toBe(true)
      const done = (await t.request('GET', `${API}/reports/${report.id}/runs/${queued.id}`, org.ownerKey)).json()
      expect(done).toMatchObject({ status: 'Succeeded', rowCount: 20 }) // the top 20 of the tenancy's resources
      const row = await t.db.kysely
        .selectFrom('reportRuns')
        .select(['attempts', 'workerId'])
        .where('id', '=', queued.id)
        .executeTakeFirstOrThrow()
      expect(row).toEqual({ attempts: 2, workerId: 'rescuer' })
      expect(await t.services.blobs.list(`report-runs/${queued.id}`)).toEqual([
        `report-runs/${queued.id}/report.csv`,
        `report-runs/${queued.id}/report.pdf`,
        `report-runs/${queued.id}/report.xlsx`,
      ])
      const signed = new URL((await download(report.id, queued.id, 'csv')).headers.location as string)
      expect((await t.request('GET', signed.pathname + signed.search, null)).body).toContain('Rank,Resource,Type')
    })

    it('queues scheduled runs once per period, however many workers ask', async () => {
      const daily = await created({
        name: 'Daily',
        kind: 'TopResources',
        tenancyIds: [t1.id],
        schedule: { frequency: 'Daily', hourUtc: 10 },
      })
      const monthly = await created({
        name: 'Monthly',
        kind: 'TopResources',
        tenancyIds: [t1.id],
        schedule: { frequency: 'Monthly', hourUtc: 6, dayOfMonth: 2 },
      })
      const runsOf = async (id: string) =>
        (await t.request('GET', `${API}/reports/${id}/runs`, org.ownerKey)).json().totalCount
      t.clock.set('2026-03-02T09:59:00.000Z')
      expect(await t.services.reports.scheduleDue(t.clock.now())).toBe(1) // the monthly one, due since 06:00
      t.clock.set('2026-03-02T10:00:00.000Z')
      const many = await Promise.all([1, 2, 3, 4].map(() => t.services.reports.scheduleDue(t.clock.now())))
      expect(many.reduce((a, b) => a + b, 0)).toBe(1)
      expect([await runsOf(daily.id), await runsOf(monthly.id)]).toEqual([1, 1])
      t.clock.set('2026-03-03T11:00:00.000Z')
      await t.services.reports.scheduleDue(t.clock.now())
      expect([await runsOf(daily.id), await runsOf(monthly.id)]).toEqual([2, 1])
      while (await t.worker().runOnce()) {}
      t.clock.set('2026-03-01T09:00:00.000Z')
    })
  })
}
