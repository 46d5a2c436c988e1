import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DailyCostRow } from '../../src/connectors/types.js'
import type { BudgetRecord } from '../../src/features/budgets/schemas.js'
import { daysBetween } from '../../src/platform/time.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { collectRows, costRow } from '../support/cost-rows.js'
import { testDialects } from '../support/dialects.js'
import { webhookReceiver } from '../support/webhook-receiver.js'

const API = '/api/public/v1'
const PUBLIC_URL = 'https://costwatch.example.com'
const SUB = '44444444-dddd-4ddd-8ddd-444444444444'
const arm = (group: string, name: string) =>
  `/subscriptions/${SUB}/resourcegroups/${group}/providers/microsoft.compute/virtualmachines/${name}`

/**
 * Every day from August: a VM at 100 and a database at 20 (US$); the VM runs at 160 from 1 November. October's
 * first 17 days cost 17 × 120 = 2,040, November's 17 × 180 = 3,060.
 */
function rows(through: string): DailyCostRow[] {
  return daysBetween('2026-08-01', through).flatMap((date) => [
    costRow({
      subscriptionId: SUB,
      resourceArmId: arm('app', 'vm-pay'),
      date,
      cost: date >= '2026-11-01' ? 160 : 100,
      currency: 'USD',
    }),
    costRow({
      subscriptionId: SUB,
      resourceArmId: arm('db', 'sql-pay'),
      resourceGroupName: 'db',
      serviceName: 'SQL Database',
      meterId: 'meter-sql',
      date,
      cost: 20,
      currency: 'USD',
    }),
  ])
}

interface BudgetAlert {
  type: string
  data: {
    budgetId: string
    ruleId: string
    threshold: { kind: string; value: number; basis: string }
    periodFrom: string
    actual: number
    drivers: { service: string; cost: number; change: number }[]
    markerIds: string[]
    url: string
    summary: string
  }
}

for (const dialect of testDialects()) {
  describe(`${dialect}: a budget threshold alarms once a period, through the alert rules`, () => {
    const t = useTestApp({
      dialect,
      now: '2026-11-20T09:00:00.000Z',
      env: {
        COSTWATCH_SNAPSHOT_HOUR: '23',
        COSTWATCH_PUBLIC_URL: PUBLIC_URL,
        COSTWATCH_OUTBOUND_ALLOW: '127.0.0.1/32',
      },
    })
    let receiver: Awaited<ReturnType<typeof webhookReceiver>>
    let org: OrgContext
    let tenantId: string
    let payments: BudgetRecord
    let quiet: BudgetRecord
    let markerId: string
    let channelId: string
    const rules = {} as Record<'all' | 'quiet', string>

    /** Costs through `through`, settled through `settled`, then an analysis and its alert run, as after a snapshot. */
    const collect = async (through: string, settled: string) => {
      await collectRows(t, tenantId, rows(through), { settledThrough: settled, to: through })
      await t.services.analysisStore.request(tenantId, '2026-10-01', through, null)
      const worker = t.worker()
      while (await worker.runOnce()) {}
    }
    const alerts = () => receiver.events<BudgetAlert>().filter((e) => e.type === 'budget.threshold_crossed')

    beforeAll(async () => {
      receiver = await webhookReceiver()
      org = await t.given.organisation()
      tenantId = (await t.given.tenant(org, { name: 'Payments prod' })).id
      const channel = await t.request('POST', `${API}/notification-channels`, org.ownerKey, {
        name: 'Finance',
        type: 'Webhook',
        url: receiver.url(),
      })
      expect(channel.statusCode, channel.body).toBe(201)
      channelId = channel.json().id
      const budget = async (body: Record<string, unknown>) => {
        const res = await t.request('POST', `${API}/budgets`, org.ownerKey, {
          scope: { tenancyIds: [tenantId] },
          period: 'Monthly',
          currency: 'USD',
          startDate: '2026-01-01',
          ...body,
        })
        expect(res.statusCode, res.body).toBe(201)
        return res.json() as BudgetRecord
      }
      payments = await budget({
        name: 'Payments',
        amount: 5000,
        thresholds: [
          { kind: 'Percent', value: 50, basis: 'Actual' },
          { kind: 'Percent', value: 100, basis: 'Forecast' },
          { kind: 'Amount', value: 9000, basis: 'Forecast' },
        ],
      })
      quiet = await budget({
        name: 'Quiet',
        amount: 100000,
        thresholds: [{ kind: 'Percent', value: 90, basis: 'Actual' }],
      })
      const rule = async (name: string, budgetIds: string[]) => {
        const res = await t.request('POST', `${API}/notification-rules`, org.ownerKey, {
          name,
          channelIds: [channel.json().id],
          scope: { tenancyIds: [tenantId] },
          trigger: { type: 'BudgetThreshold', budgetIds },
        })
        expect(res.statusCode, res.body).toBe(201)
        return res.json().id as string
      }
      rules.all = await rule('Every budget', [])
      rules.quiet = await rule('Quiet only', [quiet.id])
      const marker = await t.request('POST', `${API}/tenants/${tenantId}/events`, org.ownerKey, {
        title: 'Scale payments VM up',
        category: 'Deployment',
        occurredAt: '2026-11-01T08:00:00Z',
      })
      expect(marker.statusCode, marker.body).toBe(201)
      markerId = marker.json().id
      await collect('2026-11-20', '2026-11-17')
    }, 120_000)

    afterAll(async () => {
      await receiver?.close()
    })

    it('sends each crossed threshold once, to the rules watching the budget, with drivers and markers', () => {
      const sent = alerts().map((a) => `${a.data.ruleId === rules.all ? 'all' : 'quiet'} ${a.data.threshold.value}`)
      // 3,060 spent of 5,000 (61%): 50% of actual crossed; the forecast (3,060 + 13 × 180 = 5,400) crosses 100%.
      expect(sent.sort()).toEqual(['all 100', 'all 50'])
      const actual = alerts().find((a) => a.data.threshold.value === 50)!
      expect(actual.data).toMatchObject({
        budgetId: payments.id,
        periodFrom: '2026-11-01',
        actual: 3060,
        url: `${PUBLIC_URL}/budgets/${payments.id}`,
        markerIds: [markerId],
      })
      expect(actual.data.summary).toContain("Budget 'Payments' (1 Nov 2026 – 30 Nov 2026) has spent US$3,060.00")
      // The VM drove it: 17 days at 160 against October's first 17 at 100.
      expect(actual.data.drivers[0]).toEqual({ service: 'Virtual Machines', cost: 2720, change: 1020 })
      expect(actual.data.drivers[1]).toEqual({ service: 'SQL Database', cost: 340, change: 0 })
    })

    it('shows the latched thresholds as Alarm since the day they crossed', async () => {
      const res = await t.request('GET', `${API}/budgets/${payments.id}`, org.ownerKey)
      expect(res.statusCode, res.body).toBe(200)
      expect((res.json() as BudgetRecord).status!.thresholds.map((x) => [x.state, x.since])).toEqual([
        ['Alarm', '2026-11-17'],
        ['Alarm', '2026-11-17'],
        ['Ok', null],
      ])
    })

    it('sends nothing again in the same period, however many runs follow', async () => {
      const before = alerts().length
      t.clock.set('2026-11-22T09:00:00.000Z')
      await collect('2026-11-22', '2026-11-19')
      expect(alerts().length).toBe(before)
      const res = await t.request('GET', `${API}/budgets/${payments.id}`, org.ownerKey)
      // Still since the 17th: the latch keeps the day it alarmed.
      expect((res.json() as BudgetRecord).status!.thresholds[0]).toMatchObject({ state: 'Alarm', since: '2026-11-17' })
    })

    it('alarms again in the next period once crossed there', async () => {
      const before = alerts().length
      // 3 December: December has two settled days (360, under 50%) and is forecast at 31 × 180 = 5,580.
      t.clock.set('2026-12-04T09:00:00.000Z')
      await collect('2026-12-03', '2026-12-02')
      const fresh = alerts().slice(before)
      expect(fresh.map((a) => [a.data.periodFrom, a.data.threshold.value])).toEqual([['2026-12-01', 100]])
      const res = await t.request('GET', `${API}/budgets/${payments.id}`, org.ownerKey)
      const status = (res.json() as BudgetRecord).status!
      expect(status.periodFrom).toBe('2026-12-01')
      expect(status.thresholds.map((x) => x.state)).toEqual(['Ok', 'Alarm', 'Ok'])
    })

    it('restarts the latches when what a threshold measures changes', async () => {
      const before = alerts().length
      const patched = await t.request('PATCH', `${API}/budgets/${payments.id}`, org.ownerKey, { amount: 5400 })
      expect(patched.statusCode, patched.body).toBe(200)
      await t.services.analysisStore.request(tenantId, '2026-12-01', '2026-12-03', null)
      const worker = t.worker()
      while (await worker.runOnce()) {}
      const fresh = alerts().slice(before)
      expect(fresh.map((a) => [a.data.periodFrom, a.data.threshold.value])).toEqual([['2026-12-01', 100]])
    })

    it("lists the budgets at risk in the scope's daily digest", async () => {
      const res = await t.request('POST', `${API}/notification-rules`, org.ownerKey, {
        name: 'Morning digest',
        channelIds: [channelId],
        scope: { tenancyIds: [tenantId] },
        trigger: { type: 'Digest' },
        frequency: 'Daily',
        digestHour: 8,
      })
      expect(res.statusCode, res.body).toBe(201)
      // The next morning's digest (one is due after the rule was made).
      t.clock.set('2026-12-05T09:00:00.000Z')
      await t.services.alerts.scheduleDigests(t.clock.now())
      const worker = t.worker()
      while (await worker.runOnce()) {}
      const digests = receiver
        .events<{ type: string; data: { ruleId: string; budgetsAtRisk: Record<string, unknown>[] } }>()
        .filter((e) => e.type === 'digest' && e.data.ruleId === res.json().id)
      expect(digests).toHaveLength(1)
      // December is forecast at about 5,580 against 5,400: Payments; Quiet is far from its 100,000.
      expect(digests[0]!.data.budgetsAtRisk).toEqual([
        expect.objectContaining({ budgetId: payments.id, name: 'Payments', amount: 5400, currency: 'USD' }),
      ])
    })
  })
}
