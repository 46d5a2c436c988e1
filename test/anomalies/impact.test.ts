import { beforeAll, describe, expect, it } from 'vitest'
import type { EventRecord } from '../../src/features/events/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { estateCost, plantedEstate, SPIKE_DAY, writeFocusFiles } from '../support/focus-estate.js'

const API = '/api/public/v1'
const roundCents = (v: number) => Math.round(v * 100) / 100
const estate = plantedEstate()

for (const dialect of testDialects()) {
  describe(`${dialect}: cost impact of an event marker`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z', env: { COSTWATCH_SNAPSHOT_HOUR: '23' } })
    let org: OrgContext
    let tenantId: string
    let otherTenantId: string
    const marker = async (tenant: string, body: Record<string, unknown>) => {
      const res = await t.request('POST', `${API}/tenants/${tenant}/events`, org.ownerKey, {
        category: 'Deployment',
        title: 'Deploy',
        ...body,
      })
      expect(res.statusCode, res.body).toBe(201)
      return res.json() as EventRecord
    }
    const impact = (event: EventRecord, query = '', key: string | null = org.ownerKey, tenant = tenantId) =>
      t.request('GET', `${API}/tenants/${tenant}/events/${event.id}/impact${query}`, key)

    beforeAll(async () => {
      org = await t.given.organisation()
      tenantId = (await t.given.tenant(org)).id
      otherTenantId = (await t.given.tenant(org)).id
      await t.services.importFocus(tenantId, writeFocusFiles(estate))
      const worker = t.worker()
      while (await worker.runOnce()) {}
    })

    it('compares the N days before the marker day with N days from it, on the whole tenant, to the cent', async () => {
      const event = await marker(tenantId, { occurredAt: `${SPIKE_DAY}T10:00:00Z` })
      const res = await impact(event, '?days=3')
      expect(res.statusCode, res.body).toBe(200)
      const before = estateCost(estate, '2026-02-17', '2026-02-19')
      const after = estateCost(estate, '2026-02-20', '2026-02-22')
      const body = res.json()
      expect(body).toMatchObject({
        eventId: event.id,
        tenantId,
        scope: 'tenant',
        days: 3,
        currency: 'EUR',
        before: { from: '2026-02-17', to: '2026-02-19', cost: before },
        after: { from: '2026-02-20', to: '2026-02-22', cost: after },
        change: Math.round((after - before) * 100) / 100,
        changePercent: Math.round(((after - before) / before) * 10000) / 100,
        complete: true,
      })
      expect(body.change).toBeGreaterThan(150) // the spike, less the weekend after it
      // Every scope's anomaly of the spike, none of the outage ten days before.
      expect(body.anomalies.map((a: { scope: { kind: string } }) => a.scope.kind).sort()).toEqual([
        'Resource',
        'ResourceGroup',
        'Service',
        'Subscription',
        'Tenant',
      ])
    })

    it('defaults to 7 days; three settled days after the marker, compares daily averages over 3 days and 7', async () => {
      const event = await marker(tenantId, { occurredAt: '2026-02-24T23:30:00-02:00' }) // the 25th in UTC
      const body = (await impact(event)).json()
      const before = estateCost(estate, '2026-02-18', '2026-02-24')
      // The import's newest day (the 28th) is not settled: it counts in after.cost (collected so far), not in the
      // average of the 25th to the 27th.
      const settled = estateCost(estate, '2026-02-25', '2026-02-27')
      const daily = settled / 3 - before / 7
      expect(body).toMatchObject({
        days: 7,
        before: { from: '2026-02-18', to: '2026-02-24', cost: before, dailyAverage: roundCents(before / 7) },
        after: {
          from: '2026-02-25',
          to: '2026-03-03',
          cost: estateCost(estate, '2026-02-25', '2026-02-28'),
          dailyAverage: roundCents(settled / 3),
        },
        daysBefore: 7,
        daysAfter: 3,
        dailyChange: roundCents(daily),
        change: roundCents(daily * 7),
        changePercent: Math.round((10000 * daily) / (before / 7)) / 100,
        complete: false,
      })
      // Not three days against seven: the sums' difference would be most of a week's cost.
      expect(Math.abs(body.change)).toBeLessThan(Math.abs(settled - before) / 4)
    })

    it('counts only settled days after the marker: one, averages and no percentage; none, nothing to compare', async () => {
      const oneDay = await marker(tenantId, { occurredAt: '2026-02-27T12:00:00Z' })
      const before = estateCost(estate, '2026-02-20', '2026-02-26')
      const after = estateCost(estate, '2026-02-27', '2026-02-27')
      expect((await impact(oneDay)).json()).toMatchObject({
        before: { cost: before, dailyAverage: roundCents(before / 7) },
        after: { cost: estateCost(estate, '2026-02-27', '2026-02-28'), dailyAverage: after },
        daysBefore: 7,
        daysAfter: 1,
        dailyChange: roundCents(after - before / 7),
        changePercent: null,
      })
      // A day old, on the import's newest day: no settled day yet.
      const yesterday = await marker(tenantId, { occurredAt: '2026-02-28T12:00:00Z' })
      expect((await impact(yesterday)).json()).toMatchObject({
        after: { cost: estateCost(estate, '2026-02-28', '2026-02-28'), dailyAverage: null },
        daysBefore: 7,
        daysAfter: 0,
        dailyChange: null,
        change: 0,
        changePercent: null,
      })
      // Today is never settled, even where costs were collected for it: seen on the 27th, the 27th and the 28th
      // are in after.cost but not in the average, over the two settled days.
      t.clock.set('2026-02-27T09:00:00.000Z')
      try {
        const twoDays = await marker(tenantId, { occurredAt: '2026-02-25T08:00:00Z' })
        const settled = estateCost(estate, '2026-02-25', '2026-02-26')
        const body = (await impact(twoDays, '?days=3')).json()
        expect(body).toMatchObject({
          after: { cost: estateCost(estate, '2026-02-25', '2026-02-27'), dailyAverage: roundCents(settled / 2) },
          daysAfter: 2,
          complete: false,
        })
        expect(body.changePercent).not.toBeNull()
        const today = await marker(tenantId, { occurredAt: '2026-02-27T10:00:00Z' })
        expect((await impact(today)).json()).toMatchObject({ daysBefore: 7, daysAfter: 0, changePercent: null })
      } finally {
        t.clock.set('2026-03-01T09:00:00.000Z')
      }
    })

    it("holds no day before the tenant's first day of cost", async () => {
      const early = await marker(tenantId, { occurredAt: '2026-01-04T10:00:00Z' })
      const before = estateCost(estate, '2026-01-01', '2026-01-03')
      expect((await impact(early)).json()).toMatchObject({
        before: { from: '2025-12-28', cost: before, dailyAverage: roundCents(before / 3) },
        daysBefore: 3,
        daysAfter: 7,
        complete: true,
      })
    })

    it('a tagged marker measures only the resources whose own tags match it, and their anomalies', async () => {
      const web = await marker(tenantId, { occurredAt: `${SPIKE_DAY}T10:00:00Z`, tagKey: 'TEAM', tagValue: 'web' })
      const body = (await impact(web, '?days=2')).json()
      const isWeb = (r: { name: string }) => r.name === 'vm-web-1'
      expect(body).toMatchObject({
        scope: 'tag:TEAM=web',
        before: { cost: estateCost(estate, '2026-02-18', '2026-02-19', isWeb) },
        after: { cost: estateCost(estate, '2026-02-20', '2026-02-21', isWeb) },
      })
      expect(body.anomalies).toHaveLength(1)
      expect(body.anomalies[0]).toMatchObject({ scope: { kind: 'Resource' }, dateRaised: SPIKE_DAY })

      const platform = await marker(tenantId, {
        occurredAt: `${SPIKE_DAY}T10:00:00Z`,
        tagKey: 'team',
        tagValue: 'platform', // vm-web-2 spells its key `Team`
      })
      const isPlatform = (r: { name: string }) => r.name === 'vm-web-2'
      const other = (await impact(platform, '?days=2')).json()
      expect(other.before.cost).toBe(estateCost(estate, '2026-02-18', '2026-02-19', isPlatform))
      expect(other.after.cost).toBe(estateCost(estate, '2026-02-20', '2026-02-21', isPlatform))
      expect(other.anomalies).toEqual([])

      const nobody = await marker(tenantId, { occurredAt: `${SPIKE_DAY}T10:00:00Z`, tagKey: 'team', tagValue: 'none' })
      expect((await impact(nobody)).json()).toMatchObject({
        before: { cost: 0 },
        after: { cost: 0 },
        change: 0,
        changePercent: null,
        anomalies: [],
      })
    })

    it('answers 400 to a bad days, 404 to a marker it cannot see', async () => {
      const event = await marker(tenantId, { occurredAt: `${SPIKE_DAY}T10:00:00Z` })
      for (const query of ['?days=0', '?days=91', '?days=abc', '?days=2.5']) {
        expect((await impact(event, query)).statusCode, query).toBe(400)
      }
      expect((await impact(event, '?days=90')).statusCode).toBe(200)
      expect((await impact(event, '', org.ownerKey, otherTenantId)).statusCode).toBe(404)
      const unknown = { ...event, id: '0190aaaa-0000-7000-8000-000000000000' }
      expect((await impact(unknown)).statusCode).toBe(404)
      const elsewhere = await t.given.key(org, [{ tenancyId: otherTenantId, role: 'Viewer' }])
      expect((await impact(event, '', elsewhere.apiKey)).statusCode).toBe(404)
      const viewer = await t.given.key(org, [{ tenancyId: tenantId, role: 'Viewer' }])
      expect((await impact(event, '', viewer.apiKey)).statusCode).toBe(200)
      expect((await impact(event, '', null)).statusCode).toBe(401)
    })
  })
}
