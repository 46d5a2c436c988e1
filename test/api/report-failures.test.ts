import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { StreamingRenderer } from '../../src/features/reports/render/document.js'
import { type OpenRenderer, STREAMING_RENDERERS } from '../../src/features/reports/render/pipeline.js'
import { reportRunKind, reportSource } from '../../src/features/reports/run.js'
import type { ReportRecord } from '../../src/features/reports/schemas.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { createWorker } from '../../src/platform/runs/worker.js'
import { seedCosts } from '../reports/seed.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'

/** The real XLSX renderer, except that it throws once it has written the first batch of rows. */
const xlsxThatFails: OpenRenderer = async (path, input) => {
  const real: StreamingRenderer = await STREAMING_RENDERERS.xlsx(path, input)
  return {
    async write(rows) {
      await real.write(rows)
      throw new Error('the sheet refused a row')
    },
    end: (totals, rowCount) => real.end(totals, rowCount),
    abandon: () => real.abandon?.(),
  }
}

for (const dialect of testDialects()) {
  describe(`${dialect}: a report run that fails`, () => {
    const t = useTestApp({
      dialect,
      env: {
        COSTWATCH_SNAPSHOT_HOUR: '23',
        COSTWATCH_BLOB_URL: mkdtempSync(join(tmpdir(), 'costwatch-blobs-')),
      },
    })
    let org: OrgContext
    let tenant: TenantRecord
    let report: ReportRecord

    beforeAll(async () => {
      org = await t.given.organisation('Failing Ltd')
      tenant = await t.given.tenant(org, { name: 'Production' })
      await seedCosts(
        t.db,
        tenant.id,
        [
          { name: 'vm-web', daily: 10 },
          { name: 'vm-db', daily: 4 },
        ],
        { last: '2026-03-01', days: 5 },
      )
      const res = await t.request('POST', `${API}/reports`, org.ownerKey, {
        name: 'Cost by resource',
        kind: 'CostByDimension',
        parameters: { dimension: 'Resource', period: 'Last30Days' },
        tenancyIds: [tenant.id],
      })
      expect(res.statusCode, res.body).toBe(201)
      report = res.json()
    })

    const runOf = async (runId: string) =>
      (await t.request('GET', `${API}/reports/${report.id}/runs/${runId}`, org.ownerKey)).json()
    const attemptsOf = async (runId: string) =>
      (await t.db.kysely.selectFrom('reportRuns').select('attempts').where('id', '=', runId).executeTakeFirstOrThrow())
        .attempts
    async function expectNoFiles(runId: string) {
      expect(await t.services.blobs.list(`report-runs/${runId}`)).toEqual([])
      for (const format of ['csv', 'xlsx', 'pdf']) {
        const res = await t.request('GET', `${API}/reports/${report.id}/runs/${runId}/${format}`, org.ownerKey)
        expect(res.statusCode, res.body).toBe(409)
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      }
    }
    async function queue(): Promise<string> {
      const res = await t.request('POST', `${API}/reports/${report.id}/runs`, org.ownerKey)
      expect(res.statusCode, res.body).toBe(202)
      return res.json().id
    }

    it('is retried with backoff when its renderer throws, then ends Failed saying which file, with no file', async () => {
      // The report run kind as the worker wires it, with the XLSX renderer swapped for one that throws.
      const worker = createWorker({
        db: t.db,
        kinds: [
          reportRunKind({
            store: t.services.reportStore,
            blobs: t.services.blobs,
            source: reportSource(t.db.kysely, t.db.dialect),
            clock: t.clock,
            renderers: { xlsx: xlsxThatFails },
          }),
        ],
        events: t.services.runEvents,
        clock: t.clock,
        workerId: 'failing-renderer',
        maxAttempts: t.config.runMaxAttempts,
      })
      const runId = await queue()

      expect(await worker.runOnce()).toBe(true)
      // Back in the queue for a later attempt, not failed yet, and nothing stored meanwhile.
      expect(await runOf(runId)).toMatchObject({ status: 'Queued', error: null })
      await expectNoFiles(runId)
      t.clock.advance(29_000)
      expect(await worker.runOnce()).toBe(false) // the first pause is 30 s
      t.clock.advance(1_000)
      expect(await worker.runOnce()).toBe(true)
      expect((await runOf(runId)).status).toBe('Queued')
      t.clock.advance(120_000) // then 2 min
      expect(await worker.runOnce()).toBe(true)

      const failed = await runOf(runId)
      expect(await attemptsOf(runId)).toBe(t.config.runMaxAttempts)
      expect(failed).toMatchObject({
        status: 'Failed',
        rowCount: null,
        columns: [],
        rows: [],
        error: {
          code: 'render_failed',
          message: 'The XLSX file could not be rendered: the sheet refused a row',
        },
      })
      expect(failed.completedAt).toBe(t.clock.now().toISOString())
      await expectNoFiles(runId)
      const problem = (await t.request('GET', `${API}/reports/${report.id}/runs/${runId}/pdf`, org.ownerKey)).json()
      expect(problem.detail).toContain('Failed')
      expect(await worker.runOnce()).toBe(false) // failed for good
    })

    it('fails at once, without retrying, when its definition can no longer run', async () => {
      const res = await t.request('POST', `${API}/reports`, org.ownerKey, {
        name: 'Outdated',
        kind: 'TopResources',
        tenancyIds: [tenant.id],
      })
      const outdated: ReportRecord = res.json()
      // Parameters a later version no longer accepts, as an older database may hold them.
      await t.db.kysely
        .updateTable('reports')
        .set({ parameters: JSON.stringify({ count: 5000 }) })
        .where('id', '=', outdated.id)
        .execute()
      const queued = await t.request('POST', `${API}/reports/${outdated.id}/runs`, org.ownerKey)
      expect(queued.statusCode, queued.body).toBe(202)
      expect(await t.worker().runOnce()).toBe(true)
      const failed = (await t.request('GET', queued.headers.location as string, org.ownerKey)).json()
      expect(failed).toMatchObject({
        status: 'Failed',
        error: { code: 'invalid_report', message: "The report's parameters are no longer valid; edit the report." },
      })
      expect(await attemptsOf(failed.id)).toBe(1)
    })

    it('leaves no part of its files when the store refuses one, and the retry stores all three', async () => {
      const runId = await queue()
      // A folder where the XLSX file should go: the CSV is stored, then the XLSX cannot be.
      mkdirSync(join(t.services.blobs.location, 'report-runs', runId, 'report.xlsx', 'in-the-way'), {
        recursive: true,
      })
      const worker = t.worker()
      expect(await worker.runOnce()).toBe(true)
      expect(await runOf(runId)).toMatchObject({ status: 'Queued', error: null })
      await expectNoFiles(runId) // the CSV stored before the XLSX was refused is gone too
      expect(t.logs.join('')).toContain('The XLSX file could not be stored in the file store')

      t.clock.advance(30_000)
      expect(await worker.runOnce()).toBe(true)
      expect(await runOf(runId)).toMatchObject({ status: 'Succeeded', rowCount: 2, error: null })
      expect(await attemptsOf(runId)).toBe(2)
      expect(await t.services.blobs.list(`report-runs/${runId}`)).toEqual(
        ['csv', 'pdf', 'xlsx'].map((f) => `report-runs/${runId}/report.${f}`),
      )
      const csv = await t.request('GET', `${API}/reports/${report.id}/runs/${runId}/csv`, org.ownerKey)
      expect(csv.statusCode).toBe(302)
    })
  })
}
