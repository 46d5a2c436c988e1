import { beforeAll, describe, expect, it } from 'vitest'
import { RECENT_CHANGES, simulatedEstate } from '../../src/connectors/simulated/estate.js'
import { latestDuePeriod, periodOf } from '../../src/features/alerts/period.js'
import type { AnomalyRecord } from '../../src/features/anomalies/schemas.js'
import { webhookBody } from '../../src/features/notifications/message.js'
import type { DeliveryRequest, NotificationEvent } from '../../src/features/notifications/public.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { addDays } from '../../src/platform/time.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { givenChannel } from './support.js'

const API = '/api/public/v1'
const TODAY = '2026-03-01'
const PUBLIC_URL = 'https://costwatch.example.com'

/** A delivery the alert runs queued (one channel per rule here): what it is about, and the event it sends. */
interface Sent {
  request: Pick<DeliveryRequest, 'ruleId' | 'eventKey' | 'event'>
}

for (const dialect of testDialects()) {
  describe(`${dialect}: alert rules evaluated after a simulated tenant's first analysis`, () => {
    const t = useTestApp({
      dialect,
      now: `${TODAY}T09:00:00.000Z`,
      env: { COSTWATCH_SNAPSHOT_HOUR: '23', COSTWATCH_PUBLIC_URL: PUBLIC_URL },
    })
    const cloudTenantId = 'alerts-estate.onmicrosoft.com'
    const estate = simulatedEstate(cloudTenantId)
    const [spikeResource] = estate.resources.filter((r) => r.change === 'spike')
    const [outageResource] = estate.resources.filter((r) => r.change === 'outage')
    const team = spikeResource!.tags.team!
    const spikeDay = addDays(TODAY, -RECENT_CHANGES.spike.daysAgo)
    // Thresholds from the data: twice the spiking resource's usual day, well under its spike (six times its day).
    const minImpact = Math.round(spikeResource!.dailyCost * 2)
    let org: OrgContext
    let tenant: TenantRecord
    let otherTenant: TenantRecord
    let channel: string
    let anomalies: AnomalyRecord[]
    let spike: AnomalyRecord
    const sent: Sent[] = []
    const rules: Record<string, string> = {}

    const sentFor = (name: string) => sent.filter((s) => s.request.ruleId === rules[name])
    const eventsOf = (name: string) => sentFor(name).map((s) => s.request.event)
    const seen = new Set<string>()
    /** Runs every queued run, then adds the deliveries queued meanwhile to `sent`, as the table holds them. */
    const runWorker = async () => {
      const worker = t.worker()
      while (await worker.runOnce()) {}
      const rows = await t.db.kysely
        .selectFrom('notificationDeliveries')
        .select(['id', 'ruleId', 'eventKey', 'payload', 'channelId'])
        .where('organisationId', '=', org.organisationId)
        .orderBy('id')
        .execute()
      for (const row of rows) {
        if (seen.has(row.id)) continue
        seen.add(row.id)
        expect(row.channelId).toBe(channel)
        sent.push({
          request: { ruleId: row.ruleId, eventKey: row.eventKey, event: JSON.parse(row.payload) as NotificationEvent },
        })
      }
    }
    const createRule = async (name: string, body: Record<string, unknown>) => {
      const res = await t.request('POST', `${API}/notification-rules`, org.ownerKey, {
        name,
        channelIds: [channel],
        ...body,
      })
      expect(res.statusCode, res.body).toBe(201)
      rules[name] = res.json().id
      return res.json()
    }
    /** The tags a rule's tag filter compares for an anomaly: its resource's or its group's own, from the inventory. */
    const tagsOf = async (a: AnomalyRecord): Promise<Record<string, string> | null> => {
      if (a.scope.kind === 'Resource') {
        const res = await t.request('GET', `${API}/tenants/${tenant.id}/resources/${a.scope.resourceId}`, org.ownerKey)
        return res.json().tags
      }
      if (a.scope.kind === 'ResourceGroup') {
        const res = await t.request(
          'GET',
          `${API}/tenants/${tenant.id}/resource-groups?pageSize=200&subscriptionId=${a.scope.subscriptionId}`,
          org.ownerKey,
        )
        const group = res
          .json()
          .items.find((g: { name: string }) => g.name.toLowerCase() === a.scope.resourceGroupName!.toLowerCase())
        return group?.tags ?? {}
      }
      return null
    }

    beforeAll(async () => {
      org = await t.given.organisation()
      channel = await givenChannel(t, org)
      const created = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'Payments estate',
        cloudTenantId,
        credentialType: 'ManagedIdentity',
      })
      expect(created.statusCode, created.body).toBe(201)
      tenant = created.json()
      otherTenant = await t.given.tenant(org)
      // A deploy the evening before the spike, tagged for the spike's team: visible on its resource and group.
      const marker = await t.request('POST', `${API}/tenants/${tenant.id}/events`, org.ownerKey, {
        occurredAt: `${addDays(spikeDay, -1)}T22:00:00Z`,
        title: 'api v2.3.1',
        category: 'Deployment',
        tagKey: 'team',
        tagValue: team,
      })
      expect(marker.statusCode, marker.body).toBe(201)

      await t.request('POST', `${API}/tenants/${tenant.id}/snapshots?deepHistory=true`, org.ownerKey)
      // Rules before the first analysis: the first is "over US$x or 50% on tag team=<the spike's team>, at once".
      // The snapshot is queued but not run, so the rules exist when the analysis commits.
      await createRule('Team', {
        scope: { tenancyIds: [tenant.id], tags: [{ key: 'TEAM', value: team }] },
        trigger: { type: 'AnomalyRaised', minImpact, minImpactPercent: 50, combine: 'any' },
      })
      await createRule('Nobody', {
        scope: { tenancyIds: [tenant.id], tags: [{ key: 'team', value: 'payments-nobody' }] },
        trigger: { type: 'AnomalyRaised' },
      })
      await createRule('Outage group', {
        scope: { tenancyIds: [tenant.id], resourceGroup: outageResource!.resourceGroupName!.toUpperCase() },
        trigger: { type: 'AnomalyRaised' },
      })
      await createRule('Service', {
        scope: { tenancyIds: null, service: spikeResource!.serviceName },
        trigger: { type: 'AnomalyRaised' },
      })
      await createRule('Other tenancy', { scope: { tenancyIds: [otherTenant.id] }, trigger: { type: 'AnomalyRaised' } })
      await createRule('High only', {
        scope: { tenancyIds: null },
        trigger: { type: 'AnomalyRaised', minSeverity: 'High' },
      })
      await createRule('Both thresholds', {
        scope: { tenancyIds: null },
        trigger: { type: 'AnomalyRaised', minImpact: 1e9, minImpactPercent: 0, combine: 'all' },
      })
      await createRule('Every anomaly', { scope: { tenancyIds: null }, trigger: { type: 'AnomalyRaised' } })
      await createRule('Savings', {
        scope: { tenancyIds: [tenant.id] },
        trigger: { type: 'InsightFound', minMonthlySavings: 50 },
      })
      await createRule('Daily', {
        scope: { tenancyIds: [tenant.id] },
        trigger: { type: 'AnomalyRaised' },
        frequency: 'Daily',
      })
      await runWorker()
      const res = await t.request('GET', `${API}/anomalies?tenancyId=${tenant.id}&pageSize=200`, org.ownerKey)
      anomalies = res.json().items
      spike = anomalies.find(
        (a) => a.scope.kind === 'Resource' && a.dateRaised === spikeDay && a.description.includes(spikeResource!.name),
      )!
      expect(spike, JSON.stringify(anomalies.map((a) => [a.scope, a.dateRaised]))).toBeDefined()
    }, 120_000)

    it("queues one alert run in the analysis run's transaction, which succeeds", async () => {
      const [analysis] = await t.services.analysisStore.ofTenant(tenant.id)
      expect(analysis?.status).toBe('Succeeded')
      const runs = (await t.services.alertStore.runsOf(org.organisationId)).filter((r) => r.source === 'analysis')
      expect(runs).toHaveLength(1)
      expect(runs[0]).toMatchObject({ status: 'Succeeded', tenantId: tenant.id, sourceRunId: analysis!.id })
    })

    it('alerts the tag rule about the spike, with what, where, how much and why', async () => {
      const events = eventsOf('Team')
      const alert = events.find(
        (e) => e.data.anomalyId === spike.id || e.data.incidentId === spike.incidentId,
      ) as NotificationEvent
      expect(alert, JSON.stringify(events.map((e) => e.message.title))).toBeDefined()
      expect(alert.type).toBe('anomaly.raised')
      const lead = anomalies.find((a) => a.id === alert.data.anomalyId)!
      expect(alert.data).toMatchObject({
        anomalyId: lead.id,
        tenancyId: tenant.id,
        incidentId: lead.incidentId,
        severity: lead.severity,
        currency: lead.currency,
        impactPercent: lead.episode.totalImpactPercent,
        episode: { start: lead.episode.start, end: lead.episode.end, ongoing: lead.episode.ongoing },
        ruleId: rules.Team,
        url: `${PUBLIC_URL}/anomalies/${lead.id}`,
      })
      expect(alert.data.impact).toBeCloseTo(lead.episode.totalImpact, 2)
      const m = alert.message
      expect(m.title).toContain('Payments estate')
      expect(m.title).toMatch(/US\$[\d,]+\.\d\d/)
      const facts = Object.fromEntries(m.facts.map((f) => [f.label, f.value]))
      expect(Object.keys(facts)).toEqual(
        expect.arrayContaining(['Tenancy', 'Scope', 'Expected', 'Actual', 'Impact', 'Severity', 'Since']),
      )
      expect(facts.Tenancy).toBe('Payments estate')
      expect(facts.Severity).toBe(lead.severity)
      // The scope by name: the resource's name, or its group's.
      expect(facts.Scope).toContain(
        lead.scope.kind === 'Resource' ? spikeResource!.name : (lead.scope.resourceGroupName ?? ''),
      )
      if (lead.drivers.length > 0) {
        const drivers = m.sections.find((s) => s.heading === 'Top drivers')!
        expect(drivers.lines).toHaveLength(Math.min(5, lead.drivers.length))
        expect(drivers.lines[0]).toContain(lead.drivers[0]!.label)
      }
      const cause = m.sections.find((s) => s.heading === 'Likely cause')
      expect(cause?.lines[0]).toMatch(/^Deployment 'api v2\.3\.1', \d+ hours? before$/)
      if (lead.episode.start === spikeDay) expect(cause?.lines[0]).toBe("Deployment 'api v2.3.1', 2 hours before")
      expect(m.link?.url).toMatch(new RegExp(`^${PUBLIC_URL}/tenants/${tenant.id}(\\?scope=)?`))
      expect(m.actions).toEqual([{ label: 'Acknowledge', url: `${PUBLIC_URL}/anomalies/${lead.id}` }])
      expect(Buffer.byteLength(webhookBody(alert))).toBeLessThan(20_000)
    })

    it('sends every matching incident once, and only what the tag filter and thresholds admit', async () => {
      const events = eventsOf('Team')
      expect(events.length).toBeGreaterThan(0)
      const incidents = events.map((e) => e.data.incidentId)
      expect(new Set(incidents).size).toBe(incidents.length)
      for (const e of events) {
        const lead = anomalies.find((a) => a.id === e.data.anomalyId)!
        const tags = await tagsOf(lead)
        expect(
          Object.entries(tags ?? {}).some(([k, v]) => k.toLowerCase() === 'team' && v === team),
          JSON.stringify(lead.scope),
        ).toBe(true)
        expect(Math.abs(lead.episode.totalImpact) >= minImpact || Math.abs(lead.episode.totalImpactPercent) >= 50).toBe(
          true,
        )
        expect(sentFor('Team').find((s) => s.request.event === e)!.request.eventKey).toBe(
          `rule:${rules.Team}:anomaly:${lead.id}:${{ Low: 1, Medium: 2, High: 3 }[lead.severity]}`,
        )
      }
      // Tenant and subscription anomalies never match a tag filter; every other anomaly out of scope is left out.
      const alerted = new Set(events.map((e) => e.data.incidentId))
      for (const a of anomalies.filter((x) => !alerted.has(x.incidentId))) {
        const tags = await tagsOf(a)
        const inScope = Object.entries(tags ?? {}).some(([k, v]) => k.toLowerCase() === 'team' && v === team)
        const over = Math.abs(a.episode.totalImpact) >= minImpact || Math.abs(a.episode.totalImpactPercent) >= 50
        expect(inScope && over, `${JSON.stringify(a.scope)} should have alerted`).toBe(false)
      }
    })

    it('one alert per incident: the incident of several matching anomalies is sent once, led by its head', () => {
      const events = eventsOf('Every anomaly')
      const incidents = new Map<string, AnomalyRecord[]>()
      for (const a of anomalies) incidents.set(a.incidentId, [...(incidents.get(a.incidentId) ?? []), a])
      expect(events).toHaveLength(incidents.size)
      for (const e of events) {
        const members = incidents.get(e.data.incidentId as string)!
        expect(e.data.matchedInIncident).toBe(members.length)
        if (members.some((a) => a.id === e.data.incidentId)) expect(e.data.anomalyId).toBe(e.data.incidentId)
      }
      // The estate's incidents hold several anomalies: some alert stands for more than one.
      expect(events.some((e) => (e.data.matchedInIncident as number) > 1)).toBe(true)
    })

    it('each scope filter excludes what it should', () => {
      expect(eventsOf('Nobody')).toEqual([])
      expect(eventsOf('Other tenancy')).toEqual([])
      expect(eventsOf('Both thresholds')).toEqual([])
      const group = eventsOf('Outage group')
      expect(group.length).toBeGreaterThan(0)
      for (const e of group) {
        const lead = anomalies.find((a) => a.id === e.data.anomalyId)!
        expect(lead.scope.resourceGroupName?.toLowerCase()).toBe(outageResource!.resourceGroupName!.toLowerCase())
      }
      for (const e of eventsOf('Service')) {
        const lead = anomalies.find((a) => a.id === e.data.anomalyId)!
        expect(lead.scope).toMatchObject({ kind: 'Service', serviceName: spikeResource!.serviceName })
      }
      const high = eventsOf('High only')
      expect(high.every((e) => e.data.severity === 'High')).toBe(true)
      const highIncidents = new Set(anomalies.filter((a) => a.severity === 'High').map((a) => a.incidentId))
      expect(new Set(high.map((e) => e.data.incidentId))).toEqual(highIncidents)
      // A Daily rule's matches wait for its digest.
      expect(eventsOf('Daily')).toEqual([])
    })

    it('an InsightFound rule sends each insight the analysis found with the savings asked, once', async () => {
      const res = await t.request('GET', `${API}/insights?tenancyId=${tenant.id}&pageSize=200`, org.ownerKey)
      const insights: { id: string; estimatedMonthlySavings: number }[] = res.json().items
      const over = insights.filter((i) => i.estimatedMonthlySavings >= 50).map((i) => i.id)
      // The estate has insights on both sides of the threshold: the rule must tell them apart.
      expect(over.length).toBeGreaterThan(0)
      expect(over.length).toBeLessThan(insights.length)
      const events = eventsOf('Savings')
      expect(events.map((e) => e.type)).toEqual(over.map(() => 'insight.found'))
      expect(events.map((e) => e.data.insightId).sort()).toEqual([...over].sort())
      const [first] = events
      expect(first!.data.url).toBe(`${PUBLIC_URL}/insights/${first!.data.insightId}`)
      expect(first!.message.title).toMatch(/^Saving found on .+ \(Payments estate\): US\$[\d,]+\.\d\d a month$/)
    })

    it('the preview shows, for the last 30 days, what the rule alerted about', async () => {
      const preview = await t.request('POST', `${API}/notification-rules/preview`, org.ownerKey, {
        scope: { tenancyIds: [tenant.id], tags: [{ key: 'TEAM', value: team }] },
        trigger: { type: 'AnomalyRaised', minImpact, minImpactPercent: 50, combine: 'any' },
      })
      expect(preview.statusCode, preview.body).toBe(200)
      const body = preview.json()
      expect(body).toMatchObject({ from: addDays(TODAY, -29), to: TODAY })
      expect(body.count).toBe(eventsOf('Team').length)
      expect(body.items.map((i: { anomalyId: string }) => i.anomalyId).sort()).toEqual(
        eventsOf('Team')
          .map((e) => e.data.anomalyId)
          .sort(),
      )
      const item = body.items.find((i: { anomalyId: string }) => i.anomalyId === eventsOf('Team')[0]!.data.anomalyId)
      const lead = anomalies.find((a) => a.id === item.anomalyId)!
      expect(item).toMatchObject({
        tenancyId: tenant.id,
        severity: lead.severity,
        start: lead.episode.start,
        currency: lead.currency,
      })
      const none = await t.request('POST', `${API}/notification-rules/preview`, org.ownerKey, {
        scope: { tenancyIds: [tenant.id], tags: [{ key: 'team', value: 'payments-nobody' }] },
        trigger: { type: 'AnomalyRaised' },
      })
      expect(none.json()).toMatchObject({ count: 0, items: [] })
    })

    it('a re-run sends nothing again; a rise of severity alerts again as anomaly.updated', async () => {
      const before = sent.length
      const [analysis] = await t.services.analysisStore.ofTenant(tenant.id)
      t.clock.advance(60_000)
      await t.services.analysisStore.request(tenant.id, analysis!.rangeFrom, analysis!.rangeTo, null)
      await runWorker()
      expect(sent.length).toBe(before)

      // As if the rule had sent its incidents while their anomalies were Low (what it records, and the deliveries'
      // keys): the next run finds them higher.
      const raised = eventsOf('Every anomaly').filter((e) => e.data.severity !== 'Low')
      expect(raised.length).toBeGreaterThan(0)
      const ruleId = rules['Every anomaly']!
      await t.db.kysely.updateTable('alertSends').set({ level: 1 }).where('ruleId', '=', ruleId).execute()
      for (const s of sentFor('Every anomaly')) {
        await t.db.kysely
          .updateTable('notificationDeliveries')
          .set({ eventKey: s.request.eventKey.replace(/:\d$/, ':1') })
          .where('ruleId', '=', ruleId)
          .where('eventKey', '=', s.request.eventKey)
          .execute()
      }
      t.clock.advance(60_000)
      await t.services.analysisStore.request(tenant.id, analysis!.rangeFrom, analysis!.rangeTo, null)
      await runWorker()
      const again = sent.slice(before).map((s) => s.request)
      expect(again.every((r) => r.ruleId === rules['Every anomaly'])).toBe(true)
      expect(again.map((r) => r.event.type)).toEqual(again.map(() => 'anomaly.updated'))
      expect(new Set(again.map((r) => r.event.data.incidentId))).toEqual(new Set(raised.map((e) => e.data.incidentId)))
      expect(again[0]!.event.message.title).toMatch(/^Anomaly now (High|Medium) on /)
    })

    it('schedules a Daily digest once per period in its time zone, and catches up only the latest missed one', async () => {
      // 08:00 in New York is 13:00 UTC in March (before daylight saving time starts on 8 March).
      const digest = await createRule('NY digest', {
        scope: { tenancyIds: [tenant.id] },
        trigger: { type: 'Digest' },
        frequency: 'Daily',
        timeZone: 'America/New_York',
      })
      await createRule('NY quiet', {
        scope: { tenancyIds: [tenant.id] },
        trigger: { type: 'Digest' },
        frequency: 'Daily',
        timeZone: 'America/New_York',
        sendWhenQuiet: true,
      })
      const digestRuns = async (name: string) =>
        (await t.services.alertStore.runsOf(org.organisationId)).filter((r) => r.ruleId === rules[name])
      const schedule = () => t.services.alerts.scheduleDigests(t.clock.now())
      // Before 08:00 in New York on the day the rule was made: no period has ended since.
      await schedule()
      expect(await digestRuns('NY digest')).toEqual([])

      t.clock.set(`${TODAY}T13:00:00.000Z`)
      await Promise.all([schedule(), schedule(), schedule()])
      await schedule()
      const first = await digestRuns('NY digest')
      expect(first.map((r) => r.periodKey)).toEqual([TODAY])
      // The 'Daily' rule (08:00 UTC) was made at 09:00 UTC: its first period ends tomorrow.
      expect(await digestRuns('Daily')).toEqual([])

      const before = sent.length
      await runWorker()
      const [summary] = sent.slice(before).filter((s) => s.request.ruleId === digest.id)
      expect(summary?.request.event.type).toBe('digest')
      expect(summary!.request.eventKey).toBe(`rule:${digest.id}:digest:${TODAY}`)
      // Every anomaly the analyses of the period wrote, one per incident, top ones listed by impact.
      const incidents = new Set(anomalies.map((a) => a.incidentId))
      expect(summary!.request.event.data.anomalyCount).toBe(incidents.size)
      const top = summary!.request.event.message.sections.find((s) => s.heading === 'Top anomalies')!
      expect(top.lines.length).toBeGreaterThan(0)
      expect(top.lines[0]).toMatch(/(Active|Acknowledged|Resolved)$/)
      const impacts = (summary!.request.event.data.anomalies as { impact: number }[]).map((a) => Math.abs(a.impact))
      expect(impacts).toEqual([...impacts].sort((a, b) => b - a))
      expect(Buffer.byteLength(webhookBody(summary!.request.event))).toBeLessThan(20_000)

      // Three days later: one run for the latest period, not one for each missed day.
      t.clock.set(`${addDays(TODAY, 3)}T14:00:00.000Z`)
      await schedule()
      expect((await digestRuns('NY digest')).map((r) => r.periodKey).sort()).toEqual([TODAY, addDays(TODAY, 3)])
      expect((await digestRuns('Daily')).map((r) => r.periodKey)).toEqual([addDays(TODAY, 3)])
      const laterBefore = sent.length
      await runWorker()
      const later = sent.slice(laterBefore)
      // Nothing happened in that period: no summary but the one that asks to be sent when quiet...
      const quiet = later.filter((s) => s.request.ruleId === rules['NY quiet'])
      expect(quiet.map((s) => s.request.event.message.title)).toEqual([expect.stringContaining('nothing to report')])
      expect(later.filter((s) => s.request.ruleId === digest.id)).toEqual([])
      // ...and the Daily AnomalyRaised rule's matches, gathered since it was made: every incident, once.
      const daily = later.filter((s) => s.request.ruleId === rules.Daily)
      expect(daily.map((s) => s.request.event.type)).toEqual(['digest'])
      expect(daily[0]!.request.event.data.anomalyCount).toBe(incidents.size)
      expect(later).toHaveLength(2)
      t.clock.set(`${addDays(TODAY, 4)}T14:00:00.000Z`)
      await schedule()
      const lastBefore = sent.length
      await runWorker()
      expect(sent.slice(lastBefore).map((s) => s.request.ruleId)).toEqual([rules['NY quiet']])
    })

    it('digest periods follow the local clock across daylight saving time', () => {
      const ny = {
        frequency: 'Daily' as const,
        digestHour: 8,
        digestWeekday: 'Monday' as const,
        timeZone: 'America/New_York',
      }
      // 8 March 2026: clocks go forward, the day has 23 hours.
      const dst = periodOf(ny, '2026-03-08')
      expect(dst.from.toISOString()).toBe('2026-03-07T13:00:00.000Z')
      expect(dst.to.toISOString()).toBe('2026-03-08T12:00:00.000Z')
      const weekly = { ...ny, frequency: 'Weekly' as const, digestWeekday: 'Friday' as const, timeZone: 'Asia/Tokyo' }
      // Sunday 1 March 2026, 09:00 in Tokyo: the latest Friday 08:00 there is 27 February, 23:00 UTC on the 26th.
      const due = latestDuePeriod(weekly, new Date('2026-03-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'))
      expect(due).toMatchObject({ key: '2026-02-27' })
      expect(due!.to.toISOString()).toBe('2026-02-26T23:00:00.000Z')
      expect(due!.from.toISOString()).toBe('2026-02-19T23:00:00.000Z')
    })
  })
}
