import { describe, expect, it } from 'vitest'
import type { Analyser } from '../../src/analysis/analyser.js'
import { useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { plantedEstate, SPIKE_DAY, writeFocusFiles } from '../support/focus-estate.js'

const API = '/api/public/v1'

for (const dialect of testDialects()) {
  describe(`${dialect}: a worker lost in the middle of an analysis run`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z', env: { COSTWATCH_SNAPSHOT_HOUR: '23' } })

    it('has its run finished by another worker, losing no anomaly and duplicating none', async () => {
      const org = await t.given.organisation()
      const tenantId = (await t.given.tenant(org)).id
      await t.services.importFocus(tenantId, writeFocusFiles(plantedEstate()))

      // After the anomalies are written, the first worker stops answering (its next step never returns).
      let reached!: () => void
      const stuck = new Promise<void>((resolve) => {
        reached = resolve
      })
      let release!: () => void
      const released = new Promise<void>((resolve) => {
        release = resolve
      })
      let calls = 0
      const hang: Analyser = {
        name: 'hang once',
        async analyse() {
          if (++calls > 1) return
          reached()
          await released
        },
      }
      t.services.analysers.push(hang)
      try {
        const first = t.worker({ workerId: 'first' })
        const firstRun = first.runOnce()
        await stuck
        const written = (await t.request('GET', `${API}/anomalies?pageSize=200`, org.ownerKey)).json().items
        expect(written).toHaveLength(10)
        const spike = written.find(
          (a: { scope: { kind: string }; dateRaised: string }) =>
            a.scope.kind === 'Tenant' && a.dateRaised === SPIKE_DAY,
        )
        const ack = await t.request('PATCH', `${API}/anomalies/${spike.id}`, org.ownerKey, { status: 'Acknowledged' })
        expect(ack.statusCode).toBe(200)

        // Its lease runs out; another worker takes the run over and does it all again.
        t.clock.advance(t.config.runLeaseMs + 1)
        expect(await t.worker({ workerId: 'second' }).runOnce()).toBe(true)
        const [run] = await t.services.analysisStore.ofTenant(tenantId)
        expect(run).toMatchObject({ status: 'Succeeded', attempts: 2, workerId: 'second' })

        // The first worker wakes up late: it cannot finish a run that is no longer its own.
        release()
        await firstRun
        expect((await t.services.analysisStore.byId(run!.id))?.status).toBe('Succeeded')

        const after = (await t.request('GET', `${API}/anomalies?pageSize=200`, org.ownerKey)).json().items
        expect(after.map((a: { id: string }) => a.id).sort()).toEqual(written.map((a: { id: string }) => a.id).sort())
        expect(after.find((a: { id: string }) => a.id === spike.id)).toMatchObject({ status: 'Acknowledged' })
        const rows = await t.db.kysely
          .selectFrom('anomalies')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('tenantId', '=', tenantId)
          .executeTakeFirstOrThrow()
        expect(Number(rows.n)).toBe(10)
      } finally {
        t.services.analysers.splice(t.services.analysers.indexOf(hang), 1)
        release()
      }
    })
  })
}
