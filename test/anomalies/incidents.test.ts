import { beforeAll, describe, expect, it } from 'vitest'
import type { Estate } from '../../eval/estate.js'
import type { AnomalyRecord } from '../../src/features/anomalies/schemas.js'
import type { EventRecord } from '../../src/features/events/schemas.js'
import { addDays } from '../../src/platform/time.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { DROP_DAY, plantedEstate, SPIKE_DAY, SUBSCRIPTION, writeFocusFiles } from '../support/focus-estate.js'

const API = '/api/public/v1'
type Page = { items: AnomalyRecord[]; totalCount: number }

/** The estate's first days only, through `last`. */
function through(estate: Estate, last: string): Estate {
  const n = estate.days.indexOf(last) + 1
  return {
    ...estate,
    days: estate.days.slice(0, n),
    resources: estate.resources.map((r) => ({ ...r, costs: r.costs.slice(0, n) })),
  }
}

/** db-1 at `factor` times its cost from `from` on (to the end of the estate). */
function changed(estate: Estate, from: string, factor: number): Estate {
  const start = estate.days.indexOf(from)
  const db = estate.resources.find((r) => r.name === 'db-1')!
  for (let d = start; d < db.costs.length; d++) db.costs[d]! *= factor
  return estate
}

for (const dialect of testDialects()) {
  describe(`${dialect}: anomaly episodes, incidents and feedback`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z', env: { COSTWATCH_SNAPSHOT_HOUR: '23' } })
    let org: OrgContext
    let planted: string
    const list = async (query: string, key = org.ownerKey) => {
      const res = await t.request('GET', `${API}/anomalies${query}`, key)
      expect(res.statusCode, res.body).toBe(200)
      return res.json() as Page
    }
    const ofTenant = async (tenantId: string, query = '') =>
      (await list(`?tenancyId=${tenantId}&pageSize=200${query}`)).items
    const analyse = async () => {
      const worker = t.worker()
      while (await worker.runOnce()) {}
    }
    const importEstate = async (tenantId: string, estate: Estate) => {
      await t.services.importFocus(tenantId, writeFocusFiles(estate))
      await analyse()
    }

    beforeAll(async () => {
      org = await t.given.organisation()
      planted = (await t.given.tenant(org)).id
      await importEstate(planted, plantedEstate())
    })

    it('groups the anomalies one change explains into one incident headed by the broadest scope', async () => {
      const items = await ofTenant(planted)
      for (const day of [SPIKE_DAY, DROP_DAY]) {
        const members = items.filter((a) => a.dateRaised === day)
        expect(members.map((a) => a.scope.kind).sort()).toEqual([
          'Resource',
          'ResourceGroup',
          'Service',
          'Subscription',
          'Tenant',
        ])
        const head = members.find((a) => a.scope.kind === 'Tenant')!
        expect(members.every((a) => a.incidentId === head.id && a.incidentSize === 5)).toBe(true)
        const inIncident = await ofTenant(planted, `&incidentId=${head.id.toUpperCase()}`)
        expect(inIncident.map((a) => a.id).sort()).toEqual(members.map((a) => a.id).sort())
      }
      // One item per incident: the two heads, each with its size.
      const heads = await ofTenant(planted, '&view=incidents')
      expect(heads.map((a) => [a.dateRaised, a.scope.kind, a.incidentSize])).toEqual([
        [SPIKE_DAY, 'Tenant', 5],
        [DROP_DAY, 'Tenant', 5],
      ])
      expect((await ofTenant(planted, '&view=anomalies')).length).toBe(10)
      // Stable over re-runs, also one over the outage's second day only, where some members' episodes have ended.
      const before = items.map((a) => [a.id, a.incidentId]).sort()
      await t.services.analysisStore.request(planted, '2026-02-11', '2026-02-11', null)
      await analyse()
      await t.services.analysisStore.request(planted, '2026-01-01', '2026-02-28', null)
      await analyse()
      expect((await ofTenant(planted)).map((a) => [a.id, a.incidentId]).sort()).toEqual(before)
      const unknown = '0190aaaa-0000-7000-8000-000000000000'
      expect(await ofTenant(planted, `&incidentId=${unknown}`)).toEqual([])
      for (const query of ['?incidentId=nope', '?view=heads']) {
        const res = await t.request('GET', `${API}/anomalies${query}`, org.ownerKey)
        expect(res.statusCode, query).toBe(400)
        expect(res.headers['content-type']).toContain('application/problem+json')
      }
    })

    it('makes a two-day burst of three resources in two groups and two services one incident', async () => {
      const tenantId = (await t.given.tenant(org)).id
      const estate = plantedEstate()
      const burst = [estate.days.indexOf('2026-02-24'), estate.days.indexOf('2026-02-25')]
      for (const r of estate.resources.filter((r) => r.name !== 'st-logs')) for (const d of burst) r.costs[d]! *= 3
      await importEstate(tenantId, estate)
      const members = (await ofTenant(tenantId)).filter((a) => a.dateRaised >= '2026-02-24')
      expect(members.map((a) => a.scope.kind).sort()).toEqual([
        'Resource',
        'Resource',
        'Resource',
        'ResourceGroup',
        'ResourceGroup',
        'Service',
        'Service',
        'Subscription',
        'Tenant',
      ])
      const head = members.find((a) => a.scope.kind === 'Tenant')!
      expect(members.every((a) => a.incidentId === head.id && a.incidentSize === 9)).toBe(true)
      expect(members.every((a) => a.episode.days === 2)).toBe(true)
      const heads = (await ofTenant(tenantId, '&view=incidents')).map((a) => [a.dateRaised, a.incidentSize])
      expect(heads).toEqual([
        ['2026-02-24', 9],
        [SPIKE_DAY, 5],
        [DROP_DAY, 5],
      ])
    })

    it('keeps an anomaly a person marked when a restatement removes its incident, heading itself', async () => {
      const tenantId = (await t.given.tenant(org)).id
      await importEstate(tenantId, plantedEstate())
      const spike = (await ofTenant(tenantId)).filter((a) => a.dateRaised === SPIKE_DAY)
      const resource = spike.find((a) => a.scope.kind === 'Resource')!
      expect(resource.incidentId).not.toBe(resource.id)
      const res = await t.request('PATCH', `${API}/anomalies/${resource.id}`, org.ownerKey, { feedback: 'Confirmed' })
      expect(res.statusCode, res.body).toBe(200)
      // The provider restates the spike day: no spike. The others go; the one with feedback stays, alone.
      await importEstate(tenantId, plantedEstate({ spikeFactor: 1 }))
      const after = (await ofTenant(tenantId)).filter((a) => a.dateRaised === SPIKE_DAY)
      expect(after.map((a) => [a.id, a.incidentId, a.incidentSize])).toEqual([[resource.id, resource.id, 1]])
      const heads = await ofTenant(tenantId, '&view=incidents')
      expect(heads.map((a) => a.id)).toContain(resource.id)
    })

    it('names a service anomaly its resources as drivers, and a subscription by its display name', async () => {
      const items = await ofTenant(planted)
      const service = items.find((a) => a.scope.kind === 'Service' && a.dateRaised === SPIKE_DAY)!
      expect(service.scope.serviceName).toBe('Virtual Machines')
      expect(service.drivers[0]).toMatchObject({ label: 'vm-web-1', scope: { kind: 'Resource' } })
      expect(service.drivers[0]!.share).toBeGreaterThan(0.9)
      expect(service.description).toContain('driven by resource vm-web-1')
      const sqlService = items.find((a) => a.scope.kind === 'Service' && a.dateRaised === DROP_DAY)!
      expect(sqlService.drivers.map((d) => d.label)).toEqual(['db-1'])
      const subscription = items.find((a) => a.scope.kind === 'Subscription' && a.dateRaised === SPIKE_DAY)!
      expect(subscription.description).toMatch(/^Cost of subscription Subscription 11111111 was /)
      expect(subscription.description).not.toContain(SUBSCRIPTION)
      const tenant = items.find((a) => a.scope.kind === 'Tenant' && a.dateRaised === SPIKE_DAY)!
      expect(tenant.drivers[0]).toMatchObject({
        label: 'Subscription 11111111',
        scope: { subscriptionId: SUBSCRIPTION },
      })
    })

    it('keeps a multi-day outage one anomaly, and a re-run with one more day extends its ongoing episode', async () => {
      const tenantId = (await t.given.tenant(org)).id
      // db-1 down to 10% from 2026-02-24: the files end on the 25th, then the 26th comes, then the 27th (back up).
      const outage = (last: string) => {
        const estate = changed(plantedEstate(), '2026-02-24', 0.1)
        const up = estate.days.indexOf('2026-02-27')
        const db = estate.resources.find((r) => r.name === 'db-1')!
        for (let d = up; d < db.costs.length; d++) db.costs[d]! *= 10
        return through(estate, last)
      }
      const resourceEpisode = async () => {
        const found = (await ofTenant(tenantId)).filter((a) => a.scope.kind === 'Resource' && a.dateRaised > SPIKE_DAY)
        expect(found).toHaveLength(1)
        return found[0]!
      }
      // The newest day of an import may be left unjudged until it settles: the episode reaches the last day judged.
      await importEstate(tenantId, outage('2026-02-25'))
      const first = await resourceEpisode()
      expect(first.episode).toMatchObject({ start: '2026-02-24', end: null, ongoing: true })
      expect(['2026-02-24', '2026-02-25']).toContain(first.episode.lastDay)

      await importEstate(tenantId, outage('2026-02-26'))
      const longer = await resourceEpisode()
      expect(longer.id).toBe(first.id)
      expect(longer.episode).toMatchObject({
        start: '2026-02-24',
        end: null,
        ongoing: true,
        lastDay: addDays(first.episode.lastDay, 1),
        days: first.episode.days + 1,
      })
      expect(longer.episode.totalImpact).toBeLessThan(first.episode.totalImpact)
      expect(longer.incidentId).toBe(first.incidentId)

      await importEstate(tenantId, outage('2026-02-28'))
      const ended = await resourceEpisode()
      expect(ended.id).toBe(first.id)
      expect(ended.episode).toMatchObject({ start: '2026-02-24', end: '2026-02-26', ongoing: false, days: 3 })
      // Every scope the outage moved: one episode each, all in one incident.
      const later = (await ofTenant(tenantId)).filter((a) => a.dateRaised > SPIKE_DAY)
      expect(later).toHaveLength(5)
      expect(new Set(later.map((a) => a.incidentId)).size).toBe(1)
    })

    it('Expected on a level shift adopts the new level at once through the run it queues', async () => {
      const tenantId = (await t.given.tenant(org)).id
      await importEstate(tenantId, changed(plantedEstate(), '2026-02-14', 2))
      const shiftOf = async () =>
        (await ofTenant(tenantId)).filter((a) => a.dateRaised >= '2026-02-14' && a.dateRaised < SPIKE_DAY)
      const before = await shiftOf()
      const resource = before.find((a) => a.scope.kind === 'Resource')!
      expect(resource.episode.start).toBe('2026-02-14')
      expect(resource.episode.days).toBeGreaterThan(1)
      const head = before.find((a) => a.id === resource.incidentId)!
      expect(head.scope.kind).toBe('Tenant')

      const editor = await t.given.key(org, [{ tenancyId: tenantId, role: 'Editor' }], { name: 'planner' })
      const viewer = await t.given.key(org, [{ tenancyId: tenantId, role: 'Viewer' }])
      const patch = (id: string, body: unknown, key = editor.apiKey) =>
        t.request('PATCH', `${API}/anomalies/${id}`, key, body)
      const runs = async () => (await t.services.analysisStore.ofTenant(tenantId)).length
      const runsBefore = await runs()
      for (const body of [{ feedback: 'Planned' }, { feedback: 'expected' }, { feedback: 3 }]) {
        const res = await patch(head.id, body)
        expect(res.statusCode, JSON.stringify(body)).toBe(400)
        expect(res.headers['content-type']).toContain('application/problem+json')
      }
      expect((await patch(head.id, { feedback: 'Expected' }, viewer.apiKey)).statusCode).toBe(403)
      expect(await runs()).toBe(runsBefore)
      expect((await t.request('GET', `${API}/anomalies/${head.id}`, org.ownerKey)).json().feedback).toBeNull()

      t.clock.set('2026-03-01T10:00:00.000Z')
      const marked = await patch(head.id, { feedback: 'Expected' })
      expect(marked.statusCode, marked.body).toBe(200)
      expect(marked.json()).toMatchObject({
        feedback: 'Expected',
        feedbackAt: '2026-03-01T10:00:00.000Z',
        feedbackBy: { type: 'ApiKey', id: editor.id, name: 'planner' },
        status: 'Active',
      })
      expect(await runs()).toBe(runsBefore + 1)
      const [queued] = await t.services.analysisStore.ofTenant(tenantId)
      expect(queued).toMatchObject({ status: 'Queued', rangeFrom: '2026-02-14', rangeTo: '2026-02-28' })
      await analyse()
      t.clock.set('2026-03-01T09:00:00.000Z')

      // Every scope of the incident took the new level on its first day: one-day episodes, nothing after them.
      const after = await shiftOf()
      expect(after.map((a) => a.id).sort()).toEqual(before.map((a) => a.id).sort())
      for (const a of after) {
        expect(a.episode, a.scope.kind).toMatchObject({ start: '2026-02-14', days: 1, ongoing: false })
        expect(a.incidentId).toBe(head.id)
      }
      const resourceAfter = after.find((a) => a.id === resource.id)!
      expect(resourceAfter.episode.totalImpact).toBeLessThan(resource.episode.totalImpact)
      const onShiftedScopes = new Set(after.map((a) => JSON.stringify(a.scope)))
      const laterOnThem = (await ofTenant(tenantId)).filter(
        (a) => a.dateRaised > '2026-02-14' && onShiftedScopes.has(JSON.stringify(a.scope)) && !after.includes(a),
      )
      expect(laterOnThem.filter((a) => a.dateRaised !== SPIKE_DAY)).toEqual([])
    })

    it('counts feedback per tenancy: NotAnAnomaly, Expected and Confirmed', async () => {
      const tenantId = (await t.given.tenant(org)).id
      await importEstate(tenantId, plantedEstate())
      const counts = async (key = org.ownerKey) => {
        const res = await t.request('GET', `${API}/tenants/${tenantId}/anomaly-feedback`, key)
        expect(res.statusCode, res.body).toBe(200)
        return res.json()
      }
      expect(await counts()).toEqual({ tenantId, anomalies: 10, expected: 0, notAnAnomaly: 0, confirmed: 0 })
      const items = await ofTenant(tenantId)
      const spike = items.filter((a) => a.dateRaised === SPIKE_DAY)
      for (const a of spike.slice(0, 2)) {
        expect(
          (await t.request('PATCH', `${API}/anomalies/${a.id}`, org.ownerKey, { feedback: 'NotAnAnomaly' })).statusCode,
        ).toBe(200)
      }
      const runsBefore = (await t.services.analysisStore.ofTenant(tenantId)).length
      await t.request('PATCH', `${API}/anomalies/${spike[2]!.id}`, org.ownerKey, {
        feedback: 'Confirmed',
        status: 'Acknowledged',
      })
      expect((await t.services.analysisStore.ofTenant(tenantId)).length).toBe(runsBefore) // only Expected re-judges
      const viewer = await t.given.key(org, [{ tenancyId: tenantId, role: 'Viewer' }])
      expect(await counts(viewer.apiKey)).toEqual({
        tenantId,
        anomalies: 10,
        expected: 0,
        notAnAnomaly: 2,
        confirmed: 1,
      })
      // Clearing takes it back; a re-run keeps feedback and status a person gave.
      await t.request('PATCH', `${API}/anomalies/${spike[1]!.id}`, org.ownerKey, { feedback: null })
      await t.services.analysisStore.request(tenantId, '2026-01-01', '2026-02-28', null)
      await analyse()
      expect(await counts()).toMatchObject({ anomalies: 10, notAnAnomaly: 1, confirmed: 1 })
      const kept = (await t.request('GET', `${API}/anomalies/${spike[2]!.id}`, org.ownerKey)).json()
      expect(kept).toMatchObject({ feedback: 'Confirmed', status: 'Acknowledged' })
      const other = await t.given.key(org, [{ tenancyId: planted, role: 'Viewer' }])
      expect((await t.request('GET', `${API}/tenants/${tenantId}/anomaly-feedback`, other.apiKey)).statusCode).toBe(404)
      expect((await t.request('GET', `${API}/tenants/not-a-uuid/anomaly-feedback`, org.ownerKey)).statusCode).toBe(400)
    })

    it('names the newest deployment marker on or before the start as the likely cause', async () => {
      const post = async (body: Record<string, unknown>) => {
        const res = await t.request('POST', `${API}/tenants/${planted}/events`, org.ownerKey, body)
        expect(res.statusCode, res.body).toBe(201)
        return res.json() as EventRecord
      }
      const older = await post({ category: 'Deployment', title: 'v1', occurredAt: '2026-02-17T09:00:00Z' })
      const deploy = await post({ category: 'Deployment', title: 'v2', occurredAt: '2026-02-19T09:00:00Z' })
      await post({ category: 'Incident', title: 'Pager', occurredAt: '2026-02-20T01:00:00Z' })
      await post({ category: 'Deployment', title: 'Too late', occurredAt: '2026-02-21T09:00:00Z' })
      const spike = (await ofTenant(planted)).find((a) => a.scope.kind === 'Tenant' && a.dateRaised === SPIKE_DAY)!
      const res = await t.request('GET', `${API}/anomalies/${spike.id}`, org.ownerKey)
      expect(res.json().relatedEvents.map((e: EventRecord) => e.title)).toEqual(['v1', 'v2', 'Pager'])
      expect(res.json().likelyCause).toEqual(deploy)
      expect(older.id).not.toBe(deploy.id)
      const drop = (await ofTenant(planted)).find((a) => a.scope.kind === 'Tenant' && a.dateRaised === DROP_DAY)!
      expect(drop.likelyCause).toBeNull()
    })
  })
}
