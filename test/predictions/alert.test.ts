import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventRecord } from '../../src/features/events/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { estateCost } from '../support/focus-estate.js'
import { webhookReceiver } from '../support/webhook-receiver.js'
import { perMonth, shiftedEstate, writeEstate } from './estate.js'

const API = '/api/public/v1'
const PUBLIC_URL = 'https://costwatch.example.com'
const estate = shiftedEstate()
const files = writeEstate(estate, 'USD')

interface Received {
  type: string
  data: Record<string, unknown> & { ruleId: string; eventId: string; summary: string }
}

for (const dialect of testDialects()) {
  describe(`${dialect}: an alert when a change costs more than predicted`, () => {
    // Costs through 28 Feb; the settled days end on the 27th.
    const t = useTestApp({
      dialect,
      now: '2026-03-01T09:00:00.000Z',
      env: {
        COSTWATCH_SNAPSHOT_HOUR: '23',
        COSTWATCH_PUBLIC_URL: PUBLIC_URL,
        COSTWATCH_OUTBOUND_ALLOW: '127.0.0.1/32',
      },
    })
    let receiver: Awaited<ReturnType<typeof webhookReceiver>>
    const received = () => receiver.events<Received>()
    let org: OrgContext
    let tenantId: string
    const rules = {} as Record<'over' | 'never' | 'platform', string>
    const markers = {} as Record<'payments' | 'generous' | 'fresh' | 'plain' | 'universal', EventRecord>

    const marker = async (body: Record<string, unknown>) => {
      const res = await t.request('POST', `${API}/tenants/${tenantId}/events`, org.ownerKey, {
        category: 'Deployment',
        ...body,
      })
      expect(res.statusCode, res.body).toBe(201)
      return res.json() as EventRecord
    }
    const prediction = (monthlyDelta: number) => ({
      monthlyDelta,
      currency: 'USD',
      source: 'Infracost',
      commit: '1af413ad15ad6cbdfca667361231231231231231',
      pullRequestUrl: 'https://github.com/acme/infra/pull/1996',
    })

    beforeAll(async () => {
      receiver = await webhookReceiver()
      org = await t.given.organisation()
      tenantId = (await t.given.tenant(org)).id
      const channel = await t.request('POST', `${API}/notification-channels`, org.ownerKey, {
        name: 'Deploys',
        type: 'Webhook',
        url: receiver.url(),
      })
      expect(channel.statusCode, channel.body).toBe(201)
      const rule = async (name: string, trigger: Record<string, unknown>, scope: Record<string, unknown> = {}) => {
        const res = await t.request('POST', `${API}/notification-rules`, org.ownerKey, {
          name,
          channelIds: [channel.json().id],
          scope: { tenancyIds: [tenantId], ...scope },
          trigger: { type: 'PredictionExceeded', ...trigger },
          frequency: 'Immediate',
        })
        expect(res.statusCode, res.body).toBe(201)
        return res.json().id as string
      }
      rules.over = await rule('Over estimate', { minExcess: 500, minExcessPercent: 100 })
      rules.never = await rule('Far over estimate', { minExcess: 5000 })
      rules.platform = await rule('Platform', {}, { tags: [{ key: 'TEAM', value: 'platform' }] })
      // vm-web-2 (Team=platform) rises by about US$1,900 a month from 14 Feb.
      const platform = { tagKey: 'Team', tagValue: 'platform', occurredAt: '2026-02-13T15:00:00Z' }
      markers.payments = await marker({ ...platform, title: 'Deploy payments 4.2', prediction: prediction(120) })
      markers.generous = await marker({ ...platform, title: 'Deploy generous', prediction: prediction(2000) })
      markers.fresh = await marker({
        ...platform,
        title: 'Deploy fresh',
        occurredAt: '2026-02-24T10:00:00Z',
        prediction: prediction(0),
      })
      markers.plain = await marker({ ...platform, title: 'Deploy without estimate' })
      markers.universal = await marker({
        title: 'Release everything',
        occurredAt: '2026-02-13T15:00:00Z',
        prediction: prediction(100),
      })
      await t.services.importFocus(tenantId, files)
      const worker = t.worker()
      while (await worker.runOnce()) {}
    }, 120_000)

    afterAll(async () => {
      await receiver?.close()
    })

    it('fires once per marker and rule whose observed change exceeds the prediction by the thresholds', () => {
      const sent = received().map(
        (r) =>
          `${r.type} ${r.data.ruleId === rules.over ? 'over' : r.data.ruleId === rules.platform ? 'platform' : r.data.ruleId} ${r.data.eventId}`,
      )
      expect(sent.sort()).toEqual(
        [
          `prediction.exceeded over ${markers.payments.id}`,
          `prediction.exceeded over ${markers.universal.id}`,
          `prediction.exceeded platform ${markers.payments.id}`,
        ].sort(),
      )
    })

    it('says what was estimated and what it is running at, with the commit, the pull request and the chart', () => {
      const alert = received().find((r) => r.data.ruleId === rules.over && r.data.eventId === markers.payments.id)!
      const vm2 = (r: { name: string }) => r.name === 'vm-web-2'
      const observed = perMonth(
        estateCost(estate, '2026-01-30', '2026-02-12', vm2),
        estateCost(estate, '2026-02-14', '2026-02-27', vm2),
        14,
      )
      const running = `+US$${Math.round(observed).toLocaleString('en-GB')}/month`
      expect(running).toMatch(/^\+US\$1,[89]\d\d\/month$/)
      expect(alert.data.summary).toBe(
        `'Deploy payments 4.2' (commit 1af413ad15ad): this deploy was estimated at +US$120/month and is running at ` +
          `${running} (over the 14 settled days after it, against as many before).`,
      )
      expect(alert.data).toMatchObject({
        tenancyId: tenantId,
        title: 'Deploy payments 4.2',
        predicted: 120,
        days: 14,
        currency: 'USD',
        source: 'Infracost',
        commit: '1af413ad15ad6cbdfca667361231231231231231',
        pullRequestUrl: 'https://github.com/acme/infra/pull/1996',
        url: `${PUBLIC_URL}/tenants/${tenantId}/markers`,
        chartUrl: `${PUBLIC_URL}/tenants/${tenantId}`,
      })
      expect(alert.data.observed as number).toBeCloseTo(observed, 0)
      expect(alert.data.excess as number).toBeCloseTo(observed - 120, 0)
    })

    it('a later analysis sends nothing again', async () => {
      const before = received().length
      await t.services.importFocus(tenantId, files)
      const worker = t.worker()
      while (await worker.runOnce()) {}
      const runs = await t.db.kysely.selectFrom('alertRuns').select('id').execute()
      expect(runs.length).toBeGreaterThanOrEqual(2)
      expect(received().length).toBe(before)
    })

    it('refuses a PredictionExceeded digest and fields of other triggers', async () => {
      const channelId = (await t.request('GET', `${API}/notification-channels`, org.ownerKey)).json().items[0].id
      const res = await t.request('POST', `${API}/notification-rules`, org.ownerKey, {
        name: 'Weekly',
        channelIds: [channelId],
        scope: { tenancyIds: [tenantId] },
        trigger: { type: 'PredictionExceeded', minExcess: -1, minImpact: 3 },
        frequency: 'Weekly',
      })
      expect(res.statusCode).toBe(400)
      expect(Object.keys(res.json().errors)).toEqual(['trigger.minExcess'])
      const digest = await t.request('POST', `${API}/notification-rules`, org.ownerKey, {
        name: 'Weekly',
        channelIds: [channelId],
        scope: { tenancyIds: [tenantId] },
        trigger: { type: 'PredictionExceeded', minExcess: 1, minImpact: 3 },
        frequency: 'Weekly',
      })
      expect(digest.statusCode).toBe(400)
      expect(Object.keys(digest.json().errors).sort()).toEqual(['frequency', 'trigger.minImpact'])
    })
  })
}
