import { beforeAll, describe, expect, it } from 'vitest'
import type { EventRecord } from '../../src/features/events/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { estateCost, writeFocusFiles } from '../support/focus-estate.js'
import { perMonth, shiftedEstate } from './estate.js'

const API = '/api/public/v1'
const estate = shiftedEstate()

for (const dialect of testDialects()) {
  describe(`${dialect}: a marker's predicted against observed cost`, () => {
    // Costs through 2026-02-28; the import's newest day is not settled, so the settled days end on the 27th.
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z', env: { COSTWATCH_SNAPSHOT_HOUR: '23' } })
    let org: OrgContext
    let tenantId: string
    const marker = async (body: Record<string, unknown>) => {
      const res = await t.request('POST', `${API}/tenants/${tenantId}/events`, org.ownerKey, {
        category: 'Deployment',
        title: 'Deploy',
        ...body,
      })
      expect(res.statusCode, res.body).toBe(201)
      return res.json() as EventRecord
    }
    const impact = async (event: EventRecord) => {
      const res = await t.request('GET', `${API}/tenants/${tenantId}/events/${event.id}/impact`, org.ownerKey)
      expect(res.statusCode, res.body).toBe(200)
      return res.json()
    }

    beforeAll(async () => {
      org = await t.given.organisation()
      tenantId = (await t.given.tenant(org)).id
      await t.services.importFocus(tenantId, writeFocusFiles(estate))
      const worker = t.worker()
      while (await worker.runOnce()) {}
    })

    it('whole weeks: the settled days after the marker day against as many just before it, per month', async () => {
      const event = await marker({
        occurredAt: '2026-02-13T15:00:00Z',
        tagKey: 'team',
        tagValue: 'platform',
        prediction: { monthlyDelta: 120, currency: 'USD', source: 'Infracost', commit: 'abc' },
      })
      const body = await impact(event)
      // 14 settled days (the 14th to the 27th) against the 14 before the marker's day (30 Jan to 12 Feb).
      const vm2 = (r: { name: string }) => r.name === 'vm-web-2'
      const expected = perMonth(
        estateCost(estate, '2026-01-30', '2026-02-12', vm2),
        estateCost(estate, '2026-02-14', '2026-02-27', vm2),
        14,
      )
      expect(body.predicted).toEqual({ monthlyDelta: 120, currency: 'USD' })
      expect(body.observed.days).toBe(14)
      expect(body.observed.monthlyDelta).toBeCloseTo(expected, 0)
      expect(body.observed.monthlyDelta).toBeGreaterThan(1850)
      expect(body.observed.monthlyDelta).toBeLessThan(1950)
      // A universal marker of the same day sees the same rise on the whole tenant (the rest is unchanged).
      const universal = await impact(await marker({ occurredAt: '2026-02-13T15:00:00Z' }))
      expect(universal.predicted).toBeNull()
      expect(universal.observed.days).toBe(14)
      expect(universal.observed.monthlyDelta).toBeCloseTo(
        perMonth(estateCost(estate, '2026-01-30', '2026-02-12'), estateCost(estate, '2026-02-14', '2026-02-27'), 14),
        0,
      )
    })

    it('part weeks: the days before hold each weekday as often as the days after; no change reads as none', async () => {
      // db-1 (team=data) never changes; 10 settled days after the 17th (a Tuesday): the 18th to the 27th.
      const event = await marker({ occurredAt: '2026-02-17T09:00:00Z', tagKey: 'team', tagValue: 'data' })
      const body = await impact(event)
      expect(body.observed.days).toBe(10)
      const db1 = (r: { name: string }) => r.name === 'db-1'
      // Two weeks back: the 4th to the 13th, the same weekdays as the 18th to the 27th.
      const expected = perMonth(
        estateCost(estate, '2026-02-04', '2026-02-13', db1),
        estateCost(estate, '2026-02-18', '2026-02-27', db1),
        10,
      )
      expect(body.observed.monthlyDelta).toBeCloseTo(expected, 0)
      // Weekends at 70% would show as a change against the 10 days just before (two weekend days against four).
      const adjacent = perMonth(
        estateCost(estate, '2026-02-07', '2026-02-16', db1),
        estateCost(estate, '2026-02-18', '2026-02-27', db1),
        10,
      )
      expect(Math.abs(body.observed.monthlyDelta)).toBeLessThan(100)
      expect(Math.abs(adjacent)).toBeGreaterThan(3 * Math.abs(body.observed.monthlyDelta))
    })

    it('counts at most 28 days, and only settled ones: none yet is days 0 and a null change', async () => {
      const old = await impact(await marker({ occurredAt: '2026-01-30T12:00:00Z' }))
      expect(old.observed.days).toBe(28)
      // 28 days after the 25th of January would need the 28 days before to start in December, before the first
      // cost day: it compares the 21 days (three whole weeks) that both sides hold.
      const early = await impact(await marker({ occurredAt: '2026-01-25T12:00:00Z' }))
      expect(early.observed.days).toBe(21)
      const fresh = await impact(
        await marker({
          occurredAt: '2026-02-27T12:00:00Z',
          prediction: { monthlyDelta: -30.5, currency: 'EUR', source: 'manual' },
        }),
      )
      expect(fresh.predicted).toEqual({ monthlyDelta: -30.5, currency: 'EUR' })
      expect(fresh.observed).toEqual({ monthlyDelta: null, days: 0 })
      // Before the tenant's first cost day there is nothing to compare with.
      const first = await impact(await marker({ occurredAt: '2025-12-31T12:00:00Z' }))
      expect(first.observed).toEqual({ monthlyDelta: null, days: 0 })
    })
  })
}
