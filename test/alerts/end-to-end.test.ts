import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RECENT_CHANGES, simulatedEstate } from '../../src/connectors/simulated/estate.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { addDays, toDay } from '../../src/platform/time.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { webhookReceiver } from '../support/webhook-receiver.js'

const API = '/api/public/v1'
const PUBLIC_URL = 'https://costwatch.example.com'

/**
 * The user story, end to end: a webhook channel on a local receiver, the rule "anomalies over US$x or 50% on
 * tag team=<team>, at once", a new simulated tenant whose first analysis raises the planted spike; the receiver gets
 * a signed `anomaly.raised` naming it, checked with the standardwebhooks package.
 */
for (const dialect of testDialects()) {
  describe(`${dialect}: a tenant's first analysis reaches a webhook as a signed anomaly.raised`, () => {
    // Today, as the webhook's timestamp must be recent for the receiver's check.
    const now = new Date()
    const t = useTestApp({
      dialect,
      now: now.toISOString(),
      env: {
        COSTWATCH_SNAPSHOT_HOUR: '23',
        COSTWATCH_PUBLIC_URL: PUBLIC_URL,
        COSTWATCH_OUTBOUND_ALLOW: '127.0.0.1/32',
      },
    })
    const cloudTenantId = 'end-to-end.onmicrosoft.com'
    const [spikeResource] = simulatedEstate(cloudTenantId).resources.filter((r) => r.change === 'spike')
    const team = spikeResource!.tags.team!
    const spikeDay = addDays(toDay(now), -RECENT_CHANGES.spike.daysAgo)
    let receiver: Awaited<ReturnType<typeof webhookReceiver>>
    let org: OrgContext
    let tenant: TenantRecord
    let secret: string

    beforeAll(async () => {
      receiver = await webhookReceiver()

      org = await t.given.organisation()
      const channel = await t.request('POST', `${API}/notification-channels`, org.ownerKey, {
        name: 'On-call',
        type: 'Webhook',
        url: receiver.url('/hooks/costwatch'),
      })
      expect(channel.statusCode, channel.body).toBe(201)
      secret = channel.json().secret
      const rule = await t.request('POST', `${API}/notification-rules`, org.ownerKey, {
        name: 'Team',
        channelIds: [channel.json().id],
        scope: { tenancyIds: null, tags: [{ key: 'team', value: team }] },
        // Twice the spiking resource's usual day: well under its spike.
        trigger: {
          type: 'AnomalyRaised',
          minImpact: Math.round(spikeResource!.dailyCost * 2),
          minImpactPercent: 50,
          combine: 'any',
        },
        frequency: 'Immediate',
      })
      expect(rule.statusCode, rule.body).toBe(201)
      const created = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'Payments estate',
        cloudTenantId,
        credentialType: 'ManagedIdentity',
      })
      tenant = created.json()
      await t.request('POST', `${API}/tenants/${tenant.id}/snapshots?deepHistory=true`, org.ownerKey)
      const worker = t.worker()
      while (await worker.runOnce()) {}
    }, 120_000)

    afterAll(async () => {
      await receiver?.close()
    })

    it('the receiver gets the spike, signed, with its link and drivers', async () => {
      expect(receiver.received.length).toBeGreaterThan(0)
      const verifier = new Webhook(secret)
      const events = receiver.received.map((r) => ({
        headers: r.headers,
        event: verifier.verify(r.body, r.headers as Record<string, string>) as {
          type: string
          data: Record<string, unknown>
        },
      }))
      expect(events.every((e) => e.event.type === 'anomaly.raised')).toBe(true)
      const res = await t.request('GET', `${API}/anomalies?tenancyId=${tenant.id}&pageSize=200`, org.ownerKey)
      const spike = res
        .json()
        .items.find(
          (a: { scope: { kind: string }; dateRaised: string; description: string }) =>
            a.scope.kind === 'Resource' && a.dateRaised === spikeDay && a.description.includes(spikeResource!.name),
        )
      expect(spike).toBeDefined()
      const alert = events.find(
        (e) => e.event.data.incidentId === spike.incidentId || e.event.data.anomalyId === spike.id,
      )
      expect(alert, JSON.stringify(events.map((e) => e.event.data))).toBeDefined()
      expect(alert!.event.data).toMatchObject({
        tenancyId: tenant.id,
        url: `${PUBLIC_URL}/anomalies/${alert!.event.data.anomalyId}`,
      })
      expect(typeof alert!.event.data.impact).toBe('number')
      expect(alert!.headers['content-type']).toContain('application/json')
      const rows = await t.db.kysely
        .selectFrom('notificationDeliveries')
        .select(['status', 'outcome', 'eventType'])
        .where('organisationId', '=', org.organisationId)
        .execute()
      expect(rows.length).toBe(receiver.received.length)
      expect(rows.every((r) => r.status === 'Succeeded' && r.eventType === 'anomaly.raised')).toBe(true)
    })
  })
}
