import { beforeAll, describe, expect, it } from 'vitest'
import { RECENT_CHANGES, simulatedEstate } from '../../src/connectors/simulated/estate.js'
import type { AnomalyRecord } from '../../src/features/anomalies/schemas.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { addDays } from '../../src/platform/time.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'

/**
 * A new simulated tenant, as a user connects one: created through the API, its 30-day deep-history snapshot
 * requested, the worker running the snapshot and the analysis it queues. Its anomalies page then holds the estate's
 * planted changes, whatever the day: a Sunday in March, a Thursday in July, a Saturday in November.
 */
const DAYS = ['2026-03-01', '2026-07-16', '2026-11-28']

for (const dialect of testDialects()) {
  for (const today of DAYS) {
    describe(`${dialect}: a new simulated tenant on ${today} shows anomalies after its deep-history snapshot`, () => {
      const t = useTestApp({ dialect, now: `${today}T09:00:00.000Z`, env: { COSTWATCH_SNAPSHOT_HOUR: '23' } })
      const cloudTenantId = `day-one-${today}.onmicrosoft.com`
      const estate = simulatedEstate(cloudTenantId)
      const planted = (change: string) => estate.resources.filter((r) => r.change === change)
      let org: OrgContext
      let tenant: TenantRecord
      let anomalies: AnomalyRecord[]
      let seconds: number

      beforeAll(async () => {
        org = await t.given.organisation()
        const created = await t.request('POST', `${API}/tenants`, org.ownerKey, {
          name: 'Fresh estate',
          cloudTenantId,
          credentialType: 'ManagedIdentity',
        })
        expect(created.statusCode, created.body).toBe(201)
        tenant = created.json()
        const started = Date.now()
        const queued = await t.request('POST', `${API}/tenants/${tenant.id}/snapshots?deepHistory=true`, org.ownerKey)
        expect(queued.statusCode, queued.body).toBe(202)
        const worker = t.worker()
        while (await worker.runOnce()) {}
        const res = await t.request('GET', `${API}/anomalies?tenancyId=${tenant.id}&pageSize=200`, org.ownerKey)
        expect(res.statusCode, res.body).toBe(200)
        anomalies = res.json().items
        seconds = (Date.now() - started) / 1000
      }, 120_000)

      const onGroup = (change: string) => {
        const [first] = planted(change)
        return anomalies.filter(
          (a) =>
            a.scope.kind === 'ResourceGroup' &&
            a.scope.subscriptionId === first!.subscriptionId &&
            a.scope.resourceGroupName === first!.resourceGroupName,
        )
      }

      it('within a minute, every one dated in the 30 days collected', async () => {
        const [snapshot] = (await t.request('GET', `${API}/tenants/${tenant.id}/snapshots`, org.ownerKey)).json().items
        expect(snapshot).toMatchObject({ status: 'Succeeded', deepHistory: true, periodStart: addDays(today, -30) })
        const [analysis] = await t.services.analysisStore.ofTenant(tenant.id)
        expect(analysis?.status).toBe('Succeeded')
        expect(seconds).toBeLessThan(60)
        expect(anomalies.length).toBeGreaterThanOrEqual(3)
        for (const a of anomalies) {
          expect(a.dateRaised >= addDays(today, -30) && a.dateRaised <= today, a.dateRaised).toBe(true)
        }
      })

      it('a spike of one resource within the last 10 days', async () => {
        const [resource] = planted('spike')
        const day = addDays(today, -RECENT_CHANGES.spike.daysAgo)
        expect(day >= addDays(today, -10)).toBe(true)
        const spike = anomalies.find(
          (a) => a.scope.kind === 'Resource' && a.dateRaised === day && a.description.includes(resource!.name),
        )
        expect(spike, JSON.stringify(anomalies.map((a) => [a.scope, a.dateRaised]))).toBeDefined()
        expect(spike!.impact).toBeGreaterThan(25)
        expect(spike!.episode).toMatchObject({ start: day, end: day, days: 1, ongoing: false })
      })

      it("an outage of a group's workload: one drop of two days", () => {
        const day = addDays(today, -RECENT_CHANGES.outage.daysAgo)
        const [drop] = onGroup('outage').filter((a) => a.dateRaised === day)
        expect(drop, JSON.stringify(onGroup('outage'))).toBeDefined()
        expect(drop!.impact).toBeLessThan(-25)
        expect(drop!.episode).toMatchObject({ start: day, end: addDays(day, 1), days: 2, ongoing: false })
      })

      it("a level shift of another group's costs, which settles as its new level", () => {
        const day = addDays(today, -RECENT_CHANGES.levelShift.daysAgo)
        const group = onGroup('levelShift')
        const shift = group.find((a) => a.dateRaised === day)
        expect(shift, JSON.stringify(group)).toBeDefined()
        expect(shift!.impact).toBeGreaterThan(25)
        // Confirmed over three days, then the new level: nothing more on the group after it.
        expect(shift!.episode.days).toBeGreaterThanOrEqual(3)
        expect(shift!.episode.ongoing).toBe(false)
        expect(group.filter((a) => a.dateRaised > day)).toEqual([])
      })
    })
  }
}
