import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AnalysisContext } from '../../src/analysis/analyser.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { ROOT } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'

const FOCUS_FILE = join(ROOT, 'test/fixtures/focus/azure-focus-small.csv')

for (const dialect of testDialects()) {
  describe(`${dialect}: analysis runs`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z', env: { COSTWATCH_SNAPSHOT_HOUR: '23' } })
    let org: OrgContext
    const seen: Omit<AnalysisContext, 'signal' | 'progress'>[] = []
    let failNext = false

    beforeAll(async () => {
      org = await t.given.organisation()
      t.services.analysers.push({
        name: 'recorder',
        async analyse({ signal: _signal, progress, ...ctx }) {
          progress('looking')
          if (failNext) {
            failNext = false
            throw new Error('the analyser broke')
          }
          seen.push(ctx)
        },
      })
    })

    it('a succeeded snapshot queues an analysis of the days it wrote, which a worker runs through every analyser', async () => {
      const tenant = await t.given.tenant(org)
      const snapshot = await t.services.snapshots.trigger(org.owner, tenant.id, false)
      const worker = t.worker()
      expect(await worker.runOnce()).toBe(true) // the snapshot
      const collected = (await t.services.snapshotStore.byId(snapshot.id))!
      expect(collected.status).toBe('Succeeded')
      const [queued] = await t.services.analysisStore.ofTenant(tenant.id)
      expect(queued).toMatchObject({
        status: 'Queued',
        sourceRunId: snapshot.id,
        rangeFrom: collected.periodStart,
        rangeTo: collected.periodEnd,
      })

      seen.length = 0
      expect(await worker.runOnce()).toBe(true) // the analysis
      expect(seen).toEqual([
        {
          tenantId: tenant.id,
          from: collected.periodStart,
          to: collected.periodEnd,
          now: new Date('2026-03-01T09:00:00.000Z'),
        },
      ])
      expect((await t.services.analysisStore.byId(queued!.id))?.status).toBe('Succeeded')
      expect(await worker.runOnce()).toBe(false)
    })

    it('imports while an analysis waits widen it instead of queueing another', async () => {
      const tenant = await t.given.tenant(org)
      await t.services.analysisStore.request(tenant.id, '2026-02-10', '2026-02-12', null)
      await t.services.analysisStore.request(tenant.id, '2026-01-05', '2026-02-11', null)
      const imported = await t.services.importFocus(tenant.id, [FOCUS_FILE])
      const runs = await t.services.analysisStore.ofTenant(tenant.id)
      expect(runs).toHaveLength(1)
      const importedRun = (await t.services.snapshotStore.byId(imported.run.id))!
      const from = [importedRun.periodStart!, '2026-01-05'].sort()[0]
      const to = [importedRun.periodEnd!, '2026-02-12'].sort()[1]
      expect(runs[0]).toMatchObject({ status: 'Queued', rangeFrom: from, rangeTo: to })
      seen.length = 0
      expect(await t.worker().runOnce()).toBe(true)
      expect(seen.map((s) => [s.tenantId, s.from, s.to])).toEqual([[tenant.id, from, to]])
    })

    it('a failed analysis goes back to the queue with its range, and its next attempt does the whole range again', async () => {
      const tenant = await t.given.tenant(org)
      await t.services.analysisStore.request(tenant.id, '2026-02-01', '2026-02-28', null)
      failNext = true
      seen.length = 0
      const worker = t.worker()
      expect(await worker.runOnce()).toBe(true)
      const [run] = await t.services.analysisStore.ofTenant(tenant.id)
      expect(run).toMatchObject({ status: 'Queued', attempts: 1 })
      expect(run!.notBefore).not.toBeNull()
      expect(t.logs.join('')).toContain(`analysis run ${run!.id} attempt 1 failed`)

      // A new request while the retry waits joins it.
      await t.services.analysisStore.request(tenant.id, '2026-03-01', '2026-03-01', null)
      t.clock.advance(31_000)
      expect(await worker.runOnce()).toBe(true)
      expect(seen.map((s) => [s.from, s.to])).toEqual([['2026-02-01', '2026-03-01']])
      expect((await t.services.analysisStore.byId(run!.id))?.status).toBe('Succeeded')
      t.clock.set('2026-03-01T09:00:00.000Z')
    })
  })
}
