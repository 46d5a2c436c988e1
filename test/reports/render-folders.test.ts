import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ReportRecord, ReportRunRecord } from '../../src/features/reports/schemas.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { reportTestEnv, seedCosts } from './seed.js'

const API = '/api/public/v1'

/** What a worker killed while rendering leaves behind: the run's temporary folder, with part of a file. */
function leftBehind(runId: string): string {
  const folder = mkdtempSync(join(tmpdir(), `costwatch-report-${runId}-`))
  writeFileSync(join(folder, 'report.csv'), 'Rank,Resou')
  return folder
}

/**
 * A report run killed mid-way leaves its temporary folder behind; it goes when the run is recovered (requeued or
 * failed for good), retried, or when a worker starts and the run is no longer running.
 */
for (const dialect of testDialects()) {
  describe(`${dialect}: the temporary folders of killed report runs`, () => {
    const t = useTestApp({
      dialect,
      env: reportTestEnv(),
    })
    let org: OrgContext
    let tenant: TenantRecord
    let report: ReportRecord
    const made: string[] = []
    const folder = (runId: string) => {
      const path = leftBehind(runId)
      made.push(path)
      return path
    }
    const queue = async (): Promise<ReportRunRecord> => {
      const res = await t.request('POST', `${API}/reports/${report.id}/runs`, org.ownerKey)
      expect(res.statusCode, res.body).toBe(202)
      return res.json()
    }
    const statusOf = async (runId: string) =>
      (await t.request('GET', `${API}/reports/${report.id}/runs/${runId}`, org.ownerKey)).json()
    /** A worker that claims the run and dies without a word. */
    const killedWhileRendering = async (runId: string) => {
      const claimed = await t.services.reportStore.runs.claim(`doomed-${Math.random()}`, t.config.runLeaseMs)
      expect(claimed?.id).toBe(runId)
      return folder(runId)
    }

    beforeAll(async () => {
      org = await t.given.organisation('Folders Ltd')
      tenant = await t.given.tenant(org, { name: 'Production' })
      await seedCosts(t.db, tenant.id, [{ name: 'vm-web', daily: 10 }], { last: '2026-03-01', days: 5 })
      const res = await t.request('POST', `${API}/reports`, org.ownerKey, {
        name: 'Top',
        kind: 'TopResources',
        tenancyIds: [tenant.id],
      })
      expect(res.statusCode, res.body).toBe(201)
      report = res.json()
    })
    afterAll(() => {
      for (const path of made) rmSync(path, { recursive: true, force: true })
    })

    it('removes the folder when the run is recovered and done again', async () => {
      const worker = t.worker({ workerId: 'rescuer' })
      await worker.runOnce() // its start, with nothing to do
      const run = await queue()
      const killed = await killedWhileRendering(run.id)
      t.clock.advance(t.config.runLeaseMs + 1000)
      expect(await worker.runOnce()).toBe(true)
      expect(await statusOf(run.id)).toMatchObject({ status: 'Succeeded' })
      expect(existsSync(killed)).toBe(false)
    })

    it('removes the folder when the recovery fails the run for good, with nothing else to claim', async () => {
      const worker = t.worker({ workerId: 'rescuer' })
      await worker.runOnce()
      const run = await queue()
      // Killed in every attempt it had: the recovery of the last one fails it.
      for (let attempt = 1; attempt < t.config.runMaxAttempts; attempt++) {
        await killedWhileRendering(run.id)
        t.clock.advance(t.config.runLeaseMs + 1000)
        await t.services.reportStore.runs.recoverExpired(t.config.runMaxAttempts)
      }
      const killed = await killedWhileRendering(run.id)
      t.clock.advance(t.config.runLeaseMs + 1000)
      expect(await worker.runOnce()).toBe(false)
      expect(await statusOf(run.id)).toMatchObject({ status: 'Failed', error: { code: 'attempts_exhausted' } })
      expect(existsSync(killed)).toBe(false)
    })

    it('at start, a worker removes the folders of runs no longer running, and keeps the others', async () => {
      // A run that failed for good after its worker was killed, its folder never tidied (say its recovery ran in
      // a process that died before it could).
      const given = await queue()
      await killedWhileRendering(given.id)
      t.clock.advance(t.config.runLeaseMs + 1000)
      await t.services.reportStore.runs.recoverExpired(1)
      expect((await statusOf(given.id)).status).toBe('Failed')
      const stale = folder(given.id)
      // A run another worker of this machine is rendering now, and a run this database does not know.
      const running = await queue()
      const live = await killedWhileRendering(running.id)
      const foreign = folder('0f0f0f0f-0000-4000-8000-000000000001')

      await t.worker({ workerId: 'fresh' }).runOnce()
      expect(existsSync(stale)).toBe(false)
      expect(existsSync(live)).toBe(true)
      expect(existsSync(foreign)).toBe(true)
      expect((await statusOf(running.id)).status).toBe('Running')
    })
  })
}
