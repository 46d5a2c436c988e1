import { randomUUID } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import { beforeAll, describe, expect, it } from 'vitest'
import { rebuildSeries } from '../../src/features/costs/rebuild.js'
import { currentResourceTags } from '../../src/features/inventory/store.js'
import type { ReportRecord, ReportRunRecord } from '../../src/features/reports/schemas.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { seedCosts } from '../reports/seed.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
const AT = '2026-03-01T09:00:00.000Z'

interface SeedAnomaly {
  status: string
  severity: string
  dateRaised: string
  scopeKind: string
  scopeKey: string
  subscriptionId?: string
  resourceGroupName?: string
  resourceId?: string
  serviceName?: string
  expectedCost: number
  actualCost: number
  currency?: string
}

interface SeedInsight {
  category: string
  resourceName: string
  savings: number
  status?: string
  snoozedUntil?: string
  currency?: string
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
  describe(`${dialect}: anomaly and insight savings reports`, () => {
    const t = useTestApp({
      dialect,
      env: {
        COSTWATCH_RATE_LIMIT: '100000',
        COSTWATCH_SNAPSHOT_HOUR: '23',
        COSTWATCH_BLOB_URL: mkdtempSync(join(tmpdir(), 'costwatch-blobs-')),
      },
    })
    let org: OrgContext
    let t1: TenantRecord
    let t2: TenantRecord
    let viewer1: string

    async function anomaly(tenant: TenantRecord, a: SeedAnomaly) {
      await t.db.kysely
        .insertInto('anomalies')
        .values({
          id: randomUUID(),
          organisationId: org.organisationId,
          tenantId: tenant.id,
          scopeKey: a.scopeKey,
          scopeKind: a.scopeKind,
          subscriptionId: a.subscriptionId ?? null,
          resourceGroupName: a.resourceGroupName ?? null,
          resourceId: a.resourceId ?? null,
          serviceName: a.serviceName ?? null,
          dateRaised: a.dateRaised,
          severity: a.severity,
          status: a.status,
          expectedCost: a.expectedCost,
          actualCost: a.actualCost,
          impact: a.actualCost - a.expectedCost,
          impactPercent: ((a.actualCost - a.expectedCost) / a.expectedCost) * 100,
          currency: a.currency ?? 'USD',
          description: 'Seeded',
          detectedAt: AT,
          updatedAt: AT,
        })
        .execute()
    }
    async function insight(tenant: TenantRecord, i: SeedInsight) {
      await t.db.kysely
        .insertInto('insights')
        .values({
          id: randomUUID(),
          tenantId: tenant.id,
          resourceId: randomUUID(),
          category: i.category,
          resourceName: i.resourceName,
          subscriptionId: 'sub-a',
          resourceGroupName: 'rg-main',
          severity: 'Medium',
          title: `${i.resourceName}: ${i.category}`,
          description: 'Seeded',
          recommendation: 'Act on it',
          estimatedMonthlySavings: i.savings,
          currency: i.currency ?? 'USD',
          status: i.status ?? 'Active',
          snoozedUntil: i.snoozedUntil ?? null,
          found: 1,
          detectedAt: AT,
          updatedAt: AT,
        })
        .execute()
    }
    async function created(body: Record<string, unknown>): Promise<ReportRecord> {
      const res = await t.request('POST', `${API}/reports`, org.ownerKey, body)
      expect(res.statusCode, res.body).toBe(201)
      return res.json()
    }
    async function runToEnd(reportId: string): Promise<ReportRunRecord & { columns: string[]; rows: unknown[][] }> {
      const res = await t.request('POST', `${API}/reports/${reportId}/runs`, org.ownerKey)
      expect(res.statusCode, res.body).toBe(202)
      const worker = t.worker()
      while (await worker.runOnce()) {}
      return (await t.request('GET', res.headers.location as string, org.ownerKey)).json()
    }
    /** The three files of a run: the CSV's rows (header first), the XLSX's report sheet and the PDF's bytes. */
    async function files(reportId: string, runId: string) {
      const base = `${API}/reports/${reportId}/runs/${runId}`
      const signed = new URL((await t.request('GET', `${base}/csv`, org.ownerKey)).headers.location as string)
      const csvBody = (await t.request('GET', signed.pathname + signed.search, null)).body
      const csv: string[][] = parse(csvBody, { bom: true })
      const book = new ExcelJS.Workbook()
      const xlsx = await t.request('GET', `${base}/xlsx`, org.ownerKey)
      expect(xlsx.statusCode).toBe(200)
      await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer)
      const pdf = await t.request('GET', `${base}/pdf`, org.ownerKey)
      expect(pdf.statusCode).toBe(200)
      return { csv, sheet: book.getWorksheet('Report')!, pdf: pdf.rawPayload }
    }

    beforeAll(async () => {
      org = await t.given.organisation('Watchful Ltd')
      t1 = await t.given.tenant(org, { name: 'Production' })
      t2 = await t.given.tenant(org, { name: 'Europe' })
      await seedCosts(
        t.db,
        t1.id,
        [
          { name: 'vm-web', daily: 10 },
          { name: 'vm-batch', daily: 3, group: 'rg-batch' },
        ],
        { last: '2026-03-01', days: 40 },
      )
      await rebuildSeries(t.db.kysely, currentResourceTags, t1.id, '2026-01-21', '2026-03-01') // the PDF's chart reads the daily series
      const vmWeb = await t.db.kysely
        .selectFrom('resources')
        .select(['id', 'armIdLower'])
        .where('tenantId', '=', t1.id)
        .where('name', '=', 'vm-web')
        .executeTakeFirstOrThrow()
      const day = (dateRaised: string) => ({ dateRaised })
      await anomaly(t1, {
        status: 'Resolved',
        severity: 'High',
        ...day('2026-02-20'),
        scopeKind: 'Subscription',
        scopeKey: 'sub-a',
        subscriptionId: 'sub-a',
        expectedCost: 100,
        actualCost: 400,
      })
      await anomaly(t1, {
        status: 'Active',
        severity: 'Low',
        ...day('2026-02-27'),
        scopeKind: 'Service',
        scopeKey: 'Storage',
        serviceName: 'Storage',
        expectedCost: 50,
        actualCost: 20,
      })
      await anomaly(t1, {
        status: 'Active',
        severity: 'High',
        ...day('2026-02-25'),
        scopeKind: 'Resource',
        scopeKey: vmWeb.armIdLower,
        subscriptionId: 'sub-a',
        resourceGroupName: 'rg-main',
        resourceId: vmWeb.id,
        expectedCost: 10,
        actualCost: 60,
      })
      await anomaly(t1, {
        status: 'Acknowledged',
        severity: 'Medium',
        ...day('2026-02-26'),
        scopeKind: 'ResourceGroup',
        scopeKey: 'sub-a/rg-main',
        subscriptionId: 'sub-a',
        resourceGroupName: 'rg-main',
        expectedCost: 20,
        actualCost: 95.5,
      })
      await anomaly(t1, {
        status: 'Active',
        severity: 'High',
        ...day('2026-02-28'),
        scopeKind: 'Tenant',
        scopeKey: '',
        expectedCost: 200,
        actualCost: 500,
      })
      // Before the period: not in it.
      await anomaly(t1, {
        status: 'Active',
        severity: 'High',
        ...day('2026-01-10'),
        scopeKind: 'Tenant',
        scopeKey: '',
        expectedCost: 1,
        actualCost: 900,
      })
      // Another tenancy's: only in a report that covers it.
      await anomaly(t2, {
        status: 'Active',
        severity: 'High',
        ...day('2026-02-28'),
        scopeKind: 'Tenant',
        scopeKey: '',
        expectedCost: 70,
        actualCost: 170,
        currency: 'EUR',
      })

      await insight(t1, { category: 'OrphanedResource', resourceName: 'disk-1', savings: 19.5 })
      await insight(t1, { category: 'OrphanedResource', resourceName: 'disk-2', savings: 5 })
      await insight(t1, { category: 'StoppedVm', resourceName: 'vm-batch', savings: 40 })
      await insight(t1, { category: 'OverProvisioned', resourceName: 'vm-web', savings: 30, status: 'Implemented' })
      await insight(t1, {
        category: 'ScheduleOpportunity',
        resourceName: 'vm-x',
        savings: 12,
        status: 'Snoozed',
        snoozedUntil: '2026-02-20T00:00:00.000Z',
      })
      await insight(t1, {
        category: 'ScheduleOpportunity',
        resourceName: 'vm-y',
        savings: 100,
        status: 'Snoozed',
        snoozedUntil: '2026-04-01T00:00:00.000Z',
      })
      await insight(t2, { category: 'StoppedVm', resourceName: 'vm-eu', savings: 400, currency: 'EUR' })
      viewer1 = (await t.given.key(org, [{ tenancyId: t1.id, role: 'Viewer' }])).apiKey
    })

    it('lists the anomalies of the period by status and severity in all three formats', async () => {
      const report = await created({
        name: 'Anomalies, last 30 days',
        kind: 'AnomalySummary',
        parameters: { period: 'Last30Days' },
        tenancyIds: [t1.id],
      })
      expect(report.parameters).toEqual({ period: 'Last30Days' })
      const run = await runToEnd(report.id)
      expect(run).toMatchObject({
        status: 'Succeeded',
        rowCount: 5,
        periodStart: '2026-01-31',
        periodEnd: '2026-03-01',
      })
      expect(run.columns).toEqual([
        'Status',
        'Severity',
        'Raised',
        'Tenancy',
        'Scope',
        'Name',
        'Subscription',
        'Expected cost',
        'Actual cost',
        'Impact',
        'Currency',
      ])
      expect(run.rows).toEqual([
        ['Active', 'High', '2026-02-28', 'Production', 'Tenant', '(whole tenancy)', '', 200, 500, 300, 'USD'],
        ['Active', 'High', '2026-02-25', 'Production', 'Resource', 'vm-web', 'sub-a', 10, 60, 50, 'USD'],
        ['Active', 'Low', '2026-02-27', 'Production', 'Service', 'Storage', '', 50, 20, -30, 'USD'],
        [
          'Acknowledged',
          'Medium',
          '2026-02-26',
          'Production',
          'ResourceGroup',
          'rg-main',
          'sub-a',
          20,
          95.5,
          75.5,
          'USD',
        ],
        ['Resolved', 'High', '2026-02-20', 'Production', 'Subscription', 'sub-a', 'sub-a', 100, 400, 300, 'USD'],
      ])

      const { csv, sheet, pdf } = await files(report.id, run.id)
      expect(csv[0]).toEqual(run.columns)
      expect(csv.slice(1)).toEqual(run.rows.map((r) => r.map(String)))
      // The XLSX: the same numbers as the CSV, typed: days as dates, money as numbers in the currency's format.
      for (const [i, line] of csv.slice(1).entries()) {
        const row = sheet.getRow(i + 2)
        expect(row.getCell(3).value).toEqual(new Date(`${line[2]}T00:00:00.000Z`))
        for (const column of [8, 9, 10]) {
          expect(row.getCell(column).value).toBe(Number(line[column - 1]))
          expect(row.getCell(column).numFmt).toContain('USD')
        }
      }
      expect(sheet.getRow(7).getCell(10).value).toMatchObject({ formula: 'SUM(J2:J6)', result: 695.5 })
      expect(pdfPages(pdf)).toBe(1)
      writeFileSync(join(tmpdir(), `costwatch-anomaly-summary-${dialect}.pdf`), pdf)
    })

    it('lists the open insights by category, the largest monthly savings first', async () => {
      const report = await created({ name: 'Savings', kind: 'InsightSavings', tenancyIds: [t1.id] })
      const run = await runToEnd(report.id)
      expect(run).toMatchObject({
        status: 'Succeeded',
        rowCount: 4,
        periodStart: '2026-03-01',
        periodEnd: '2026-03-01',
      })
      expect(run.rows.map((r) => [r[0], r[1], r[7], r[8]])).toEqual([
        ['StoppedVm', 'vm-batch', 40, 'USD'],
        ['OrphanedResource', 'disk-1', 19.5, 'USD'],
        ['OrphanedResource', 'disk-2', 5, 'USD'],
        ['ScheduleOpportunity', 'vm-x', 12, 'USD'], // its snooze is over; vm-y's is not, vm-web's is implemented
      ])
      expect(run.rows[0]).toEqual([
        'StoppedVm',
        'vm-batch',
        'rg-main',
        'sub-a',
        'Production',
        'Medium',
        'vm-batch: StoppedVm',
        40,
        'USD',
      ])
      const { csv, sheet, pdf } = await files(report.id, run.id)
      expect(csv.slice(1)).toEqual(run.rows.map((r) => r.map(String)))
      for (const [i, line] of csv.slice(1).entries()) {
        expect(sheet.getRow(i + 2).getCell(8).value).toBe(Number(line[7]))
        expect(sheet.getRow(i + 2).getCell(8).numFmt).toContain('USD')
      }
      expect(sheet.getRow(6).getCell(8).value).toMatchObject({ formula: 'SUM(H2:H5)', result: 76.5 })
      expect(pdfPages(pdf)).toBe(1)
      writeFileSync(join(tmpdir(), `costwatch-insight-savings-${dialect}.pdf`), pdf)
    })

    it('covers the tenancies of the report only, each currency apart, and shows it to those who see them all', async () => {
      const wide = await created({ name: 'All savings', kind: 'InsightSavings', tenancyIds: null })
      const run = await runToEnd(wide.id)
      expect(run.rows.map((r) => [r[0], r[1], r[4], r[7], r[8]])).toEqual([
        ['StoppedVm', 'vm-eu', 'Europe', 400, 'EUR'],
        ['StoppedVm', 'vm-batch', 'Production', 40, 'USD'],
        ['OrphanedResource', 'disk-1', 'Production', 19.5, 'USD'],
        ['OrphanedResource', 'disk-2', 'Production', 5, 'USD'],
        ['ScheduleOpportunity', 'vm-x', 'Production', 12, 'USD'],
      ])
      const both = await created({
        name: 'All anomalies',
        kind: 'AnomalySummary',
        parameters: { period: 'Last30Days' },
        tenancyIds: [t1.id, t2.id],
      })
      const anomalies = await runToEnd(both.id)
      expect(anomalies.rows.filter((r) => r[10] === 'EUR')).toEqual([
        ['Active', 'High', '2026-02-28', 'Europe', 'Tenant', '(whole tenancy)', '', 70, 170, 100, 'EUR'],
      ])
      // A Viewer of Production sees neither: each covers a tenancy it cannot see.
      for (const report of [wide, both]) {
        expect((await t.request('GET', `${API}/reports/${report.id}`, viewer1)).statusCode).toBe(404)
        expect((await t.request('GET', `${API}/reports/${report.id}/runs`, viewer1)).statusCode).toBe(404)
      }
      const own = await created({
        name: 'Production anomalies',
        kind: 'AnomalySummary',
        parameters: { period: 'Last30Days' },
        tenancyIds: [t1.id],
      })
      const ownRun = await runToEnd(own.id)
      const seen = await t.request('GET', `${API}/reports/${own.id}/runs/${ownRun.id}`, viewer1)
      expect(seen.statusCode).toBe(200)
      expect(seen.json().rows.map((r: unknown[]) => r[3])).toEqual(Array(5).fill('Production'))
    })

    it('refuses parameters the kinds do not take, precisely', async () => {
      const bad = await t.request('POST', `${API}/reports`, org.ownerKey, {
        name: 'x',
        kind: 'AnomalySummary',
        parameters: { period: 'Custom', from: '2026-03-05', to: '2026-03-01', severity: 'High' },
        tenancyIds: [t1.id],
      })
      expect(bad.statusCode).toBe(400)
      expect(Object.keys(bad.json().errors).sort()).toEqual(['parameters.from', 'parameters.severity'])
      const savings = await t.request('POST', `${API}/reports`, org.ownerKey, {
        name: 'x',
        kind: 'InsightSavings',
        parameters: { period: 'LastMonth' },
        tenancyIds: [t1.id],
      })
      expect(savings.statusCode).toBe(400)
      expect(savings.json().errors).toEqual({ 'parameters.period': ['is not a parameter of InsightSavings'] })
    })

    it('says so in every format when there is nothing to list', async () => {
      const report = await created({
        name: 'Quiet month',
        kind: 'AnomalySummary',
        parameters: { period: 'Custom', from: '2025-06-01', to: '2025-06-30' },
        tenancyIds: [t1.id],
      })
      const run = await runToEnd(report.id)
      expect(run).toMatchObject({ status: 'Succeeded', rowCount: 0, rows: [] })
      const { csv, sheet, pdf } = await files(report.id, run.id)
      expect(csv).toEqual([run.columns])
      expect(sheet.getRow(2).getCell(1).value).toBe('Total')
      expect(pdfPages(pdf)).toBe(1)
    })
  })
}
