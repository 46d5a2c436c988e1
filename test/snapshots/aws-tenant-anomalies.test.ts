import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { addDays, toDay } from '../../src/platform/time.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { exportCsv, sampleExport } from '../support/focus-providers.js'
import { uploadAndWait } from '../support/focus-pull.js'
import { webhookReceiver } from '../support/webhook-receiver.js'

const API = '/api/public/v1'
const PUBLIC_URL = 'https://costwatch.example.com'
const money = (n: number) => n.toFixed(6)

/**
 * An AWS account's FOCUS export pushed to a FocusUpload tenant, with a spike on one EC2 instance five days ago:
 * the import's analysis raises it, it is listed on the tenant, an alert rule of the tenancy delivers it, signed, to
 * a local webhook receiver, and a marker shows on the tenant's and the account's charts.
 */
for (const dialect of testDialects()) {
  describe(`${dialect}: anomalies and alerts on an AWS tenant`, () => {
    // Today, as the webhook's timestamp must be recent for the receiver's check.
    const now = new Date()
    const today = toDay(now)
    const t = useTestApp({
      dialect,
      now: now.toISOString(),
      env: {
        COSTWATCH_SNAPSHOT_HOUR: '23',
        COSTWATCH_PUBLIC_URL: PUBLIC_URL,
        COSTWATCH_OUTBOUND_ALLOW: '127.0.0.1/32',
      },
    })
    // Sixty days up to yesterday; the instance's steady US$20 a day, eight times that on the spike's day.
    const spikeDay = addDays(today, -5)
    const sample = sampleExport('aws-1.2', { seed: 7, days: 60, resources: 4, firstDay: addDays(today, -60) })
    const spikeResource = sample.rows.find((r) => r.ResourceId?.includes(':instance/'))!.ResourceId!
    const account = sample.rows.find((r) => r.ResourceId === spikeResource)!.SubAccountId!
    for (const row of sample.rows) {
      if (row.ResourceId !== spikeResource) continue
      const day = row.ChargePeriodStart!.slice(0, 10)
      const cost = day === spikeDay ? 160 : 20 + ((Date.parse(day) / 86_400_000) % 3) * 0.1
      for (const c of ['BilledCost', 'EffectiveCost', 'ListCost', 'ContractedCost']) row[c] = money(cost)
    }
    let receiver: Awaited<ReturnType<typeof webhookReceiver>>
    let org: OrgContext
    let tenant: TenantRecord
    let secret: string

    beforeAll(async () => {
      receiver = await webhookReceiver()
      org = await t.given.organisation()
      tenant = (
        await t.request('POST', `${API}/tenants`, org.ownerKey, { name: 'AWS prod', costSource: 'FocusUpload' })
      ).json()
      const channel = await t.request('POST', `${API}/notification-channels`, org.ownerKey, {
        name: 'On-call',
        type: 'Webhook',
        url: receiver.url('/hooks/costwatch'),
      })
      expect(channel.statusCode, channel.body).toBe(201)
      secret = channel.json().secret
      const rule = await t.request('POST', `${API}/notification-rules`, org.ownerKey, {
        name: 'AWS prod',
        channelIds: [channel.json().id],
        scope: { tenancyIds: [tenant.id], tags: [] },
        trigger: { type: 'AnomalyRaised', minImpact: 50, minImpactPercent: 200, combine: 'any' },
        frequency: 'Immediate',
      })
      expect(rule.statusCode, rule.body).toBe(201)

      const run = await uploadAndWait(t, org, tenant.id, exportCsv(sample), 'aws-focus.csv')
      expect(run.status, JSON.stringify(run)).toBe('Succeeded')
      // Then the analysis the import requested and the alerts' evaluation, as the worker runs them.
      const worker = t.worker()
      while (await worker.runOnce()) {}
    }, 120_000)

    afterAll(async () => {
      await receiver?.close()
    })

    it('raises the spike, lists it on the tenant and delivers it to the webhook, signed', async () => {
      const listed = await t.request('GET', `${API}/anomalies?tenancyId=${tenant.id}&pageSize=200`, org.ownerKey)
      expect(listed.statusCode, listed.body).toBe(200)
      const items = listed.json().items as {
        id: string
        incidentId: string | null
        tenancyId: string
        dateRaised: string
        description: string
        scope: { kind: string; subscriptionId: string | null }
      }[]
      const onSpike = items.filter((a) => a.dateRaised === spikeDay)
      expect(onSpike.length, JSON.stringify(items)).toBeGreaterThan(0)
      expect(items.every((a) => a.tenancyId === tenant.id)).toBe(true)
      // The instance itself, in its account (an AWS resource has no resource group) and in the inventory, and the
      // account above it.
      const resources = (
        await t.request('GET', `${API}/tenants/${tenant.id}/resources?pageSize=100`, org.ownerKey)
      ).json().items as { id: string; armId: string; name: string }[]
      const instance = resources.find((r) => r.armId === spikeResource)!
      expect(instance, JSON.stringify(resources)).toBeDefined()
      expect(
        onSpike.find((a) => a.scope.kind === 'Resource' && a.description.includes(instance.name)),
        JSON.stringify(onSpike),
      ).toMatchObject({ scope: { subscriptionId: account, resourceGroupName: null, resourceId: instance.id } })
      expect(onSpike.find((a) => a.scope.kind === 'Subscription')).toMatchObject({ scope: { subscriptionId: account } })
      // Nothing else moved: the other days' noise raises nothing.
      expect(
        items.filter((a) => a.dateRaised !== spikeDay),
        JSON.stringify(items),
      ).toEqual([])

      const verifier = new Webhook(secret)
      const events = receiver.received.map(
        (r) =>
          verifier.verify(r.body, r.headers as Record<string, string>) as {
            type: string
            data: Record<string, unknown>
          },
      )
      expect(events.length).toBeGreaterThan(0)
      expect(events.every((e) => e.type === 'anomaly.raised' && e.data.tenancyId === tenant.id)).toBe(true)
      const delivered = events.find((e) =>
        onSpike.some((a) => e.data.anomalyId === a.id || (a.incidentId && e.data.incidentId === a.incidentId)),
      )
      expect(delivered, JSON.stringify(events.map((e) => e.data))).toBeDefined()
      expect(delivered!.data.url).toBe(`${PUBLIC_URL}/anomalies/${delivered!.data.anomalyId}`)
      expect(delivered!.data.impact as number).toBeGreaterThan(100)
      const rows = await t.db.kysely
        .selectFrom('notificationDeliveries')
        .select(['status', 'eventType'])
        .where('organisationId', '=', org.organisationId)
        .execute()
      expect(rows.length).toBe(receiver.received.length)
      expect(rows.every((r) => r.status === 'Succeeded' && r.eventType === 'anomaly.raised')).toBe(true)
    })

    it("shows a marker on the tenant's chart and on the account's", async () => {
      const created = await t.request('POST', `${API}/tenants/${tenant.id}/events`, org.ownerKey, {
        title: 'Scaled out the web tier',
        category: 'Deployment',
        occurredAt: `${spikeDay}T08:00:00Z`,
      })
      expect(created.statusCode, created.body).toBe(201)
      const range = `from=${addDays(today, -30)}T00:00:00.000Z&to=${today}T23:59:59.999Z`
      for (const scope of ['tenant', `subscription:${account}`]) {
        const res = await t.request(
          'GET',
          `${API}/tenants/${tenant.id}/events/visible?scope=${encodeURIComponent(scope)}&${range}`,
          org.ownerKey,
        )
        expect(res.statusCode, res.body).toBe(200)
        expect(
          res.json().items.map((e: { title: string }) => e.title),
          scope,
        ).toEqual(['Scaled out the web tier'])
      }
    })
  })
}
