import { beforeAll, describe, expect, it } from 'vitest'
import type { AnomalyRecord } from '../../src/features/anomalies/schemas.js'
import type { EventRecord } from '../../src/features/events/schemas.js'
import { addDays } from '../../src/platform/time.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { DROP_DAY, plantedEstate, SPIKE_DAY, SUBSCRIPTION, writeFocusFiles } from '../support/focus-estate.js'

const API = '/api/public/v1'
type Page = { items: AnomalyRecord[]; page: number; pageSize: number; totalCount: number; totalPages: number }
const kinds = (items: AnomalyRecord[]) => items.map((a) => `${a.dateRaised} ${a.scope.kind}`).sort()

for (const dialect of testDialects()) {
  describe(`${dialect}: anomalies`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z', env: { COSTWATCH_SNAPSHOT_HOUR: '23' } })
    let org: OrgContext
    let mine: string
    let theirs: string
    let vmWeb1: string
    const list = async (query: string, key = org.ownerKey) => {
      const res = await t.request('GET', `${API}/anomalies${query}`, key)
      expect(res.statusCode, res.body).toBe(200)
      return res.json() as Page
    }
    const ofTenant = async (tenantId: string) => (await list(`?tenancyId=${tenantId}&pageSize=200`)).items
    const find = async (tenantId: string, kind: string, day: string) =>
      (await ofTenant(tenantId)).find((a) => a.scope.kind === kind && a.dateRaised === day)!
    const marker = async (tenantId: string, body: Record<string, unknown>) => {
      const res = await t.request('POST', `${API}/tenants/${tenantId}/events`, org.ownerKey, {
        category: 'Deployment',
        ...body,
      })
      expect(res.statusCode, res.body).toBe(201)
      return res.json() as EventRecord
    }

    beforeAll(async () => {
      org = await t.given.organisation()
      mine = (await t.given.tenant(org)).id
      theirs = (await t.given.tenant(org)).id
      const files = writeFocusFiles(plantedEstate())
      // The same FOCUS files imported into two tenancies, each analysed by a worker's analysis run.
      for (const tenantId of [mine, theirs]) await t.services.importFocus(tenantId, files)
      const worker = t.worker()
      while (await worker.runOnce()) {}
      const resources = await t.request(
        'GET',
        `${API}/tenants/${mine}/resources?armResourceName=vm-web-1`,
        org.ownerKey,
      )
      vmWeb1 = resources.json().items[0].id
    })

    it('an import queues an analysis run that raises the planted spike and outage at every scope, and no decoy', async () => {
      for (const tenantId of [mine, theirs]) {
        const [run] = await t.services.analysisStore.ofTenant(tenantId)
        expect(run).toMatchObject({ status: 'Succeeded', rangeFrom: '2026-01-01', rangeTo: '2026-02-28' })
      }
      const items = await ofTenant(mine)
      expect(kinds(items)).toEqual(
        [
          ...['Resource', 'ResourceGroup', 'Service', 'Subscription', 'Tenant'].map((k) => `${DROP_DAY} ${k}`),
          ...['Resource', 'ResourceGroup', 'Service', 'Subscription', 'Tenant'].map((k) => `${SPIKE_DAY} ${k}`),
        ].sort(),
      )
      const spike = items.find((a) => a.scope.kind === 'Resource' && a.dateRaised === SPIKE_DAY)!
      expect(spike).toMatchObject({
        tenancyId: mine,
        scope: {
          kind: 'Resource',
          subscriptionId: SUBSCRIPTION,
          resourceGroupName: 'web-prod',
          resourceId: vmWeb1,
          serviceName: null,
        },
        severity: 'High', // +390 is over 10 times the minimum impact of 25, and over 50%
        status: 'Active',
        currency: 'EUR',
        detectedAt: '2026-03-01T09:00:00.000Z',
        statusChangedAt: null,
        statusChangedBy: null,
        drivers: [],
      })
      expect(spike.expectedCost).toBeGreaterThan(95)
      expect(spike.expectedCost).toBeLessThan(105)
      expect(spike.actualCost).toBeCloseTo(5 * 100 * (1 + 0.02 * Math.sin(50 * 1.7 + 1)), 1)
      expect(spike.impact).toBeCloseTo(spike.actualCost - spike.expectedCost, 1)
      const drop = items.find((a) => a.scope.kind === 'Resource' && a.dateRaised === DROP_DAY)!
      expect(drop.impact).toBeLessThan(0)
      // About -180 a day for two days: one episode, whose total impact (over 10 times the minimum, over 50%) is High.
      expect(drop.severity).toBe('High')
      expect(drop.episode).toMatchObject({ start: DROP_DAY, days: 2, ongoing: false })
      expect(drop.episode.totalImpact).toBeLessThan(drop.impact * 1.8)
      expect(drop.episode.maxImpact).toBeLessThanOrEqual(drop.impact)
      expect(items.some((a) => a.description.includes('st-logs'))).toBe(false)
    })

    it('a parent explained by one child keeps both, names the child, and lists its drivers', async () => {
      const group = await find(mine, 'ResourceGroup', SPIKE_DAY)
      expect(group.scope).toMatchObject({ subscriptionId: SUBSCRIPTION, resourceGroupName: 'web-prod' })
      expect(group.description).toMatch(
        /^Cost of resource group web-prod was .* EUR expected \(\+\d+\.\d\d%\), driven by resource vm-web-1\.$/,
      )
      expect(group.drivers[0]).toMatchObject({ label: 'vm-web-1', scope: { kind: 'Resource', resourceId: vmWeb1 } })
      expect(group.drivers[0]!.share).toBeGreaterThan(0.9)
      expect(group.drivers[0]!.change).toBeCloseTo(group.drivers[0]!.actualCost - group.drivers[0]!.expectedCost, 1)
      const subscription = await find(mine, 'Subscription', SPIKE_DAY)
      expect(subscription.drivers.map((d) => d.label)).toEqual(['web-prod', 'data-prod'])
      expect(subscription.drivers[0]!.scope).toMatchObject({ kind: 'ResourceGroup', resourceGroupName: 'web-prod' })
      const tenant = await find(mine, 'Tenant', DROP_DAY)
      expect(tenant.description).toContain('driven by resource db-1')
      expect(tenant.drivers).toMatchObject([{ scope: { kind: 'Subscription', subscriptionId: SUBSCRIPTION } }])
      const service = await find(mine, 'Service', SPIKE_DAY)
      expect(service.scope).toMatchObject({ kind: 'Service', serviceName: 'Virtual Machines', subscriptionId: null })
    })

    it('lists newest dateRaised first with id last, pages without repeats, and gets one', async () => {
      const all = await list('?pageSize=200')
      expect(all.totalCount).toBe(20)
      const keys = all.items.map((a) => [a.dateRaised, a.id])
      expect(keys).toEqual([...keys].sort((a, b) => (a[0]! < b[0]! ? 1 : a[0]! > b[0]! ? -1 : a[1]! < b[1]! ? 1 : -1)))
      const pages = [
        await list('?pageSize=7&page=1'),
        await list('?pageSize=7&page=2'),
        await list('?pageSize=7&page=3'),
      ]
      expect(pages.map((p) => p.totalPages)).toEqual([3, 3, 3])
      expect(pages.flatMap((p) => p.items.map((a) => a.id))).toEqual(all.items.map((a) => a.id))
      expect((await list('?pageSize=7&page=4')).items).toEqual([])
      const one = await t.request('GET', `${API}/anomalies/${all.items[3]!.id.toUpperCase()}`, org.ownerKey)
      expect(one.statusCode, one.body).toBe(200)
      expect(one.json()).toEqual(all.items[3])
    })

    it('filters by severity, status, dateRaised and tenancyId, alone and together', async () => {
      // The spikes are High everywhere; the two-day outage is High where it halves the scope, Medium elsewhere.
      const high = (await list('?severity=High&pageSize=200')).items.map((a) => a.dateRaised)
      expect(high.filter((d) => d === SPIKE_DAY)).toHaveLength(10)
      expect(high.filter((d) => d === DROP_DAY).length).toBeGreaterThanOrEqual(2)
      const medium = (await list('?severity=Medium&pageSize=200')).items
      expect(medium.every((a) => a.dateRaised === DROP_DAY && a.episode.totalImpactPercent > -50)).toBe(true)
      expect(high.length + medium.length).toBe(20)
      expect((await list('?severity=Low')).totalCount).toBe(0)
      expect((await list(`?dateRaised=${DROP_DAY}&pageSize=200`)).items.every((a) => a.dateRaised === DROP_DAY)).toBe(
        true,
      )
      expect((await list(`?dateRaised=${DROP_DAY}`)).totalCount).toBe(10)
      expect((await list('?dateRaised=2026-02-11')).totalCount).toBe(0)
      expect((await list(`?tenancyId=${theirs}&pageSize=200`)).items.every((a) => a.tenancyId === theirs)).toBe(true)
      expect((await list(`?tenancyId=${theirs}&severity=High&dateRaised=${SPIKE_DAY}`)).totalCount).toBe(5)
      const theirsDrop = await find(theirs, 'Tenant', DROP_DAY)
      await t.request('PATCH', `${API}/anomalies/${theirsDrop.id}`, org.ownerKey, { status: 'Resolved' })
      expect((await list('?status=Resolved')).items.map((a) => a.id)).toEqual([theirsDrop.id])
      expect((await list(`?status=Resolved&tenancyId=${mine}`)).totalCount).toBe(0)
      expect((await list('?status=Active')).totalCount).toBe(19)
    })

    it('filters by a range of days raised and by the chart a scope names, its own and its inner scopes', async () => {
      const ofMine = async (query: string) => kinds((await list(`?tenancyId=${mine}&pageSize=200&${query}`)).items)
      const at = (day: string, ...scopeKinds: string[]) => scopeKinds.map((k) => `${day} ${k}`)
      const everyKind = ['Resource', 'ResourceGroup', 'Service', 'Subscription', 'Tenant']
      expect(await ofMine(`from=${DROP_DAY}&to=${DROP_DAY}`)).toEqual(at(DROP_DAY, ...everyKind))
      expect(await ofMine(`from=2026-02-11&to=${SPIKE_DAY}`)).toEqual(at(SPIKE_DAY, ...everyKind))
      expect(await ofMine('from=2026-02-11')).toEqual(at(SPIKE_DAY, ...everyKind))
      expect(await ofMine('to=2026-02-19')).toEqual(at(DROP_DAY, ...everyKind))
      expect(await ofMine('from=2026-02-21&to=2026-02-28')).toEqual([])
      expect((await list(`?from=${DROP_DAY}&to=${SPIKE_DAY}`)).totalCount).toBe(20) // both tenancies
      // The outage's second day: no anomaly was raised on it, but its episodes were still going on.
      const dayAfter = addDays(DROP_DAY, 1)
      expect(await ofMine(`from=${dayAfter}&to=${dayAfter}`)).toEqual([])
      expect(await ofMine(`from=${dayAfter}&to=${dayAfter}&range=active`)).toEqual(at(DROP_DAY, ...everyKind))
      expect(await ofMine(`from=${dayAfter}&to=${dayAfter}&range=active&view=incidents`)).toHaveLength(1)
      expect(await ofMine(`from=${addDays(SPIKE_DAY, 1)}&range=active`)).toEqual([])
      const bad = await t.request('GET', `${API}/anomalies?range=sometimes`, org.ownerKey)
      expect(bad.statusCode, bad.body).toBe(400)

      // vm-web-1 (web-prod) spiked; db-1 (data-prod) dropped; both groups are in SUBSCRIPTION.
      expect(await ofMine(`scope=resource:${vmWeb1.toUpperCase()}`)).toEqual(at(SPIKE_DAY, 'Resource'))
      expect(await ofMine('scope=resourceGroup:web-prod')).toEqual(at(SPIKE_DAY, 'Resource', 'ResourceGroup'))
      expect(await ofMine(`scope=resourceGroup:WEB-PROD&subscriptionId=${SUBSCRIPTION}`)).toEqual(
        at(SPIKE_DAY, 'Resource', 'ResourceGroup'),
      )
      expect(await ofMine('scope=resourceGroup:web-prod&subscriptionId=another')).toEqual([])
      expect(await ofMine('scope=resourceGroup:data-prod')).toEqual(at(DROP_DAY, 'Resource', 'ResourceGroup'))
      const inSubscription = ['Resource', 'ResourceGroup', 'Subscription']
      expect(await ofMine(`scope=subscription:${SUBSCRIPTION}`)).toEqual([
        ...at(DROP_DAY, ...inSubscription),
        ...at(SPIKE_DAY, ...inSubscription),
      ])
      expect(await ofMine('scope=subscription:22222222-bbbb-4bbb-8bbb-222222222222')).toEqual([])
      expect(await ofMine('scope=tenant')).toEqual(await ofMine(''))
      expect(await ofMine(`scope=subscription:${SUBSCRIPTION}&from=2026-02-11&to=2026-02-28`)).toEqual(
        at(SPIKE_DAY, ...inSubscription),
      )

      const reversed = await t.request('GET', `${API}/anomalies?from=${SPIKE_DAY}&to=${DROP_DAY}`, org.ownerKey)
      expect(reversed.statusCode).toBe(400)
      expect(reversed.json()).toMatchObject({ status: 400, errors: { from: ['must not be after to'] } })
      const badScope = await t.request('GET', `${API}/anomalies?scope=resource:vm-web-1`, org.ownerKey)
      expect(badScope.statusCode).toBe(400)
      expect(badScope.json().errors.scope[0]).toMatch(/^must be tenant, subscription:/)
      for (const query of ['?from=2026-02-30', '?to=tomorrow', '?scope=group:web-prod']) {
        const res = await t.request('GET', `${API}/anomalies${query}`, org.ownerKey)
        expect(res.statusCode, query).toBe(400)
        expect(res.headers['content-type']).toContain('application/problem+json')
      }
    })

    it('answers 400 to bad filters and paging', async () => {
      for (const query of [
        '?severity=Huge',
        '?severity=high',
        '?status=Open',
        '?dateRaised=2026-13-01',
        '?dateRaised=yesterday',
        '?tenancyId=not-a-uuid',
        '?page=0',
        '?pageSize=201',
        '?pageSize=abc',
      ]) {
        const res = await t.request('GET', `${API}/anomalies${query}`, org.ownerKey)
        expect(res.statusCode, query).toBe(400)
        expect(res.headers['content-type']).toContain('application/problem+json')
      }
      expect((await t.request('GET', `${API}/anomalies/not-a-uuid`, org.ownerKey)).statusCode).toBe(400)
    })

    it('moves any status to Acknowledged or Resolved, records who and when, and repeats change nothing', async () => {
      const editor = await t.given.key(org, [{ tenancyId: mine, role: 'Editor' }], { name: 'ci editor' })
      const anomaly = await find(mine, 'Service', DROP_DAY)
      const patch = (body: unknown, key = editor.apiKey) =>
        t.request('PATCH', `${API}/anomalies/${anomaly.id}`, key, body)

      t.clock.set('2026-03-01T10:00:00.000Z')
      const acknowledged = await patch({ status: 'Acknowledged' })
      expect(acknowledged.statusCode, acknowledged.body).toBe(200)
      expect(acknowledged.json()).toMatchObject({
        status: 'Acknowledged',
        statusChangedAt: '2026-03-01T10:00:00.000Z',
        statusChangedBy: { type: 'ApiKey', id: editor.id, name: 'ci editor' },
        impact: anomaly.impact,
      })
      t.clock.set('2026-03-01T11:00:00.000Z')
      const again = await patch({ status: 'Acknowledged' }, org.ownerKey)
      expect(again.statusCode).toBe(200)
      expect(again.json()).toEqual(acknowledged.json()) // no change: not even who and when
      const resolved = await patch({ status: 'Resolved' })
      expect(resolved.json()).toMatchObject({ status: 'Resolved', statusChangedAt: '2026-03-01T11:00:00.000Z' })
      const reopened = await patch({ status: 'Acknowledged' })
      expect(reopened.json()).toMatchObject({ status: 'Acknowledged' })

      for (const body of [{ status: 'Active' }, { status: 'Closed' }, {}, { status: 'Resolved', note: 'x' }]) {
        const res = await patch(body)
        expect(res.statusCode, JSON.stringify(body)).toBe(400)
        expect(res.headers['content-type']).toContain('application/problem+json')
      }
      const active = await patch({ status: 'Active' })
      expect(active.json().errors.status[0]).toMatch(/Acknowledged or Resolved/)
      const malformed = await t.request('PATCH', `${API}/anomalies/${anomaly.id}`, org.ownerKey, '{"status":', {
        'content-type': 'application/json',
      })
      expect(malformed.statusCode).toBe(400)
      const after = (await t.request('GET', `${API}/anomalies/${anomaly.id}`, org.ownerKey)).json()
      expect(after).toMatchObject({ status: 'Acknowledged', statusChangedAt: '2026-03-01T11:00:00.000Z' })
      expect((await patch({ status: 'Resolved' }, org.ownerKey)).statusCode).toBe(200)
      t.clock.set('2026-03-01T09:00:00.000Z')
    })

    it('shows a key scoped to one tenancy only that tenancy, and needs Editor to change a status', async () => {
      const viewer = await t.given.key(org, [{ tenancyId: theirs, role: 'Viewer' }])
      const seen = await list('?pageSize=200', viewer.apiKey)
      expect(seen.totalCount).toBe(10)
      expect(seen.items.every((a) => a.tenancyId === theirs)).toBe(true)
      expect((await list(`?tenancyId=${mine}`, viewer.apiKey)).totalCount).toBe(0)
      const notMine = await find(mine, 'Tenant', SPIKE_DAY)
      const theirsSpike = await find(theirs, 'Tenant', SPIKE_DAY)
      expect((await t.request('GET', `${API}/anomalies/${notMine.id}`, viewer.apiKey)).statusCode).toBe(404)
      expect((await t.request('GET', `${API}/anomalies/${theirsSpike.id}`, viewer.apiKey)).statusCode).toBe(200)
      const denied = await t.request('PATCH', `${API}/anomalies/${theirsSpike.id}`, viewer.apiKey, {
        status: 'Acknowledged',
      })
      expect(denied.statusCode).toBe(403)
      // An Editor of the other tenancy cannot tell this anomaly exists.
      const theirEditor = await t.given.key(org, [{ tenancyId: theirs, role: 'Editor' }])
      const hidden = await t.request('PATCH', `${API}/anomalies/${notMine.id}`, theirEditor.apiKey, {
        status: 'Resolved',
      })
      expect(hidden.statusCode).toBe(404)
      expect((await find(theirs, 'Tenant', SPIKE_DAY)).status).toBe('Active')
      const unknown = '0190aaaa-0000-7000-8000-000000000000'
      expect((await t.request('GET', `${API}/anomalies/${unknown}`, org.ownerKey)).statusCode).toBe(404)
      const other = await t.given.organisation('Other')
      expect((await t.request('GET', `${API}/anomalies/${notMine.id}`, other.ownerKey)).statusCode).toBe(404)
      expect((await list('', other.ownerKey)).totalCount).toBe(0)
    })

    it('relates the markers of the 3 days before, visible on the scope: tagged ones on matching and broad scopes', async () => {
      const universal = await marker(mine, { title: 'Release 7', occurredAt: '2026-02-18T12:00:00Z' })
      await marker(mine, { title: 'Too early', occurredAt: '2026-02-16T23:59:59Z' })
      await marker(mine, { title: 'Too late', occurredAt: '2026-02-21T00:00:00Z' })
      const web = await marker(mine, {
        title: 'Web deploy',
        occurredAt: '2026-02-20T08:00:00+01:00',
        tagKey: 'TEAM',
        tagValue: 'web',
      })
      const data = await marker(mine, {
        title: 'Data deploy',
        occurredAt: '2026-02-17T00:00:00Z',
        tagKey: 'team',
        tagValue: 'data',
      })
      const ids = (a: AnomalyRecord) => a.relatedEvents.map((e) => e.title)
      expect(ids(await find(mine, 'Resource', SPIKE_DAY))).toEqual(['Release 7', 'Web deploy'])
      // Broad scopes show every marker; FOCUS files carry no group tags, so a tagged marker is not on a group chart.
      for (const kind of ['Tenant', 'Subscription', 'Service']) {
        expect(ids(await find(mine, kind, SPIKE_DAY)), kind).toEqual(['Data deploy', 'Release 7', 'Web deploy'])
      }
      expect(ids(await find(mine, 'ResourceGroup', SPIKE_DAY))).toEqual(['Release 7'])
      expect((await find(theirs, 'Tenant', SPIKE_DAY)).relatedEvents).toEqual([])
      const related = (
        await t.request('GET', `${API}/anomalies/${(await find(mine, 'Resource', SPIKE_DAY)).id}`, org.ownerKey)
      ).json()
      expect(related.relatedEvents).toEqual([universal, web])
      // db-1's outage on the 10th: the data marker is a week later, so nothing; one the day before is related.
      expect((await find(mine, 'Resource', DROP_DAY)).relatedEvents).toEqual([])
      const before = await marker(mine, {
        title: 'Data migration',
        occurredAt: '2026-02-09T22:00:00Z',
        tagKey: 'team',
        tagValue: 'data',
      })
      await marker(mine, { title: 'Web change', occurredAt: '2026-02-09T22:00:00Z', tagKey: 'team', tagValue: 'web' })
      expect((await find(mine, 'Resource', DROP_DAY)).relatedEvents).toEqual([before])
      expect(data.id).toBeTruthy()
    })

    it('a re-run and a re-import update the numbers, keep a status a person set, and never duplicate', async () => {
      const before = await ofTenant(mine)
      const spike = before.find((a) => a.scope.kind === 'Resource' && a.dateRaised === SPIKE_DAY)!
      await t.request('PATCH', `${API}/anomalies/${spike.id}`, org.ownerKey, { status: 'Acknowledged' })
      const acknowledged = (await t.request('GET', `${API}/anomalies/${spike.id}`, org.ownerKey)).json()

      await t.services.analysisStore.request(mine, '2026-01-01', '2026-02-28', null)
      expect(await t.worker().runOnce()).toBe(true)
      const rerun = await ofTenant(mine)
      expect(rerun.map((a) => a.id).sort()).toEqual(before.map((a) => a.id).sort())
      expect(rerun.find((a) => a.id === spike.id)).toEqual(acknowledged)

      // The provider restates the spike day: larger. The same anomaly gets the new numbers and keeps its status.
      await t.services.importFocus(mine, writeFocusFiles(plantedEstate({ spikeFactor: 7 })))
      expect(await t.worker().runOnce()).toBe(true)
      const restated = await ofTenant(mine)
      expect(restated.map((a) => a.id).sort()).toEqual(before.map((a) => a.id).sort())
      const updated = restated.find((a) => a.id === spike.id)!
      expect(updated.actualCost).toBeCloseTo((spike.actualCost * 7) / 5, 1)
      expect(updated).toMatchObject({
        status: 'Acknowledged',
        statusChangedAt: acknowledged.statusChangedAt,
        detectedAt: spike.detectedAt,
      })
    })
  })
}
