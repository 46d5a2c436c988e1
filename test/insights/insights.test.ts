import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { createSimulatedConnector } from '../../src/connectors/simulated/index.js'
import type { Connector, ResourceItem } from '../../src/connectors/types.js'
import type { InsightRecord } from '../../src/features/insights/schemas.js'
import { addDays } from '../../src/platform/time.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { costRowsOf } from '../support/cost-rows.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
const NOW = '2026-03-01T09:00:00.000Z'
const CATEGORIES = [
  'OrphanedResource',
  'StoppedVm',
  'OverProvisioned',
  'ScheduleOpportunity',
  'ReservedInstanceOpportunity',
  'UnusedResource',
  'HybridBenefitOpportunity',
  'ExpiredResource',
]

/** The simulated estate, with resources a test changes between snapshots (a disk attached, an IP associated). */
function changeableEstate() {
  const simulated = createSimulatedConnector()
  /** A change of a resource by ARM id; null deletes it. */
  const changes = new Map<string, (r: ResourceItem) => ResourceItem | null>()
  const connector: Connector = {
    ...simulated,
    async inventory(conn, ctx) {
      const inventory = await simulated.inventory(conn, ctx)
      const resources = inventory.resources.map((r) => (changes.has(r.armId) ? changes.get(r.armId)!(r) : r))
      return { ...inventory, resources: resources.filter((r): r is ResourceItem => r !== null) }
    },
  }
  return { connector, changes }
}

for (const dialect of testDialects()) {
  describe(`${dialect}: insights`, () => {
    const t = useTestApp({ dialect, now: NOW, env: { COSTWATCH_SNAPSHOT_HOUR: '23' } })
    const estate = changeableEstate()
    let org: OrgContext
    let tenantId: string
    let otherTenantId: string

    const get = (url: string, key = org.ownerKey) => t.request('GET', `${API}${url}`, key)
    const patch = (id: string, body: unknown, key = org.ownerKey) =>
      t.request('PATCH', `${API}/insights/${id}`, key, body)
    /** Every page of a list, in order. */
    async function all(query = '', key = org.ownerKey): Promise<InsightRecord[]> {
      const items: InsightRecord[] = []
      for (let page = 1; ; page++) {
        const res = await get(`/insights?pageSize=50&page=${page}${query}`, key)
        expect(res.statusCode, res.body).toBe(200)
        items.push(...res.json().items)
        if (page >= res.json().totalPages) return items
      }
    }
    /** A snapshot of the tenant and its analysis, through the worker. */
    async function snapshotAndAnalyse(id: string) {
      await t.services.snapshots.trigger(org.owner, id, false)
      const worker = t.worker({ connectors: { simulated: estate.connector } })
      while (await worker.runOnce()) {}
      const [analysis] = await t.services.analysisStore.ofTenant(id)
      expect(analysis?.status).toBe('Succeeded')
    }
    const insightOf = async (id: string, category: string, name: RegExp) =>
      (await all(`&tenancyId=${id}&includeDismissed=true&category=${category}`)).find((i) =>
        name.test(i.resourceName ?? ''),
      )!

    beforeAll(async () => {
      org = await t.given.organisation()
      tenantId = (await t.given.tenant(org)).id
      otherTenantId = (await t.given.tenant(org)).id
      await snapshotAndAnalyse(tenantId)
      await snapshotAndAnalyse(otherTenantId)
    })

    it('the simulated estate shows every category after its first snapshot and analysis', async () => {
      const items = await all(`&tenancyId=${tenantId}`)
      expect(new Set(items.map((i) => i.category))).toEqual(new Set(CATEGORIES))
      for (const i of items) {
        expect(i).toMatchObject({ tenancyId: tenantId, status: 'Active', currency: 'USD', lastAction: null })
        expect(i.detectedAt).toBe(NOW)
      }
      // One insight per resource and category.
      expect(new Set(items.map((i) => `${i.resourceId} ${i.category}`)).size).toBe(items.length)
    })

    it("estimates savings from the resource's own observed costs of the last 30 complete days", async () => {
      const disk = await insightOf(tenantId, 'OrphanedResource', /^disk-/)
      const resource = (await get(`/tenants/${tenantId}/resources/${disk.resourceId}`)).json()
      const rows = await costRowsOf(t.db.kysely, tenantId)
        .select(['date', 'cost'])
        .where('resourceKey', '=', String(resource.armId).toLowerCase())
        .where('date', '>=', addDays('2026-03-01', -30))
        .where('date', '<=', addDays('2026-03-01', -1))
        .execute()
      expect(rows).toHaveLength(30 * 2) // two meters a day
      const observed = rows.reduce((sum, r) => sum + Number(r.cost), 0)
      expect(disk.estimatedMonthlySavings).toBe(Math.round(observed * 100) / 100)
      expect(disk.severity).toBe('Low')
    })

    it('lists largest saving first, id last, pages without repeats, and filters', async () => {
      const items = await all()
      for (let i = 1; i < items.length; i++) {
        const [a, b] = [items[i - 1]!, items[i]!]
        expect(
          a.estimatedMonthlySavings > b.estimatedMonthlySavings ||
            (a.estimatedMonthlySavings === b.estimatedMonthlySavings && a.id < b.id),
        ).toBe(true)
      }
      expect(new Set(items.map((i) => i.tenancyId))).toEqual(new Set([tenantId, otherTenantId]))
      const first = (await get('/insights?pageSize=3')).json()
      expect(first).toMatchObject({ page: 1, pageSize: 3, totalCount: items.length })
      expect(first.items.map((i: InsightRecord) => i.id)).toEqual(items.slice(0, 3).map((i) => i.id))
      expect((await get(`/insights?page=${items.length + 1}&pageSize=1`)).json().items).toEqual([])

      for (const category of CATEGORIES) {
        const byCategory = await all(`&category=${category}`)
        expect(byCategory.length).toBe(items.filter((i) => i.category === category).length)
      }
      const high = await all('&severity=High')
      expect(high.every((i) => i.severity === 'High')).toBe(true)
      expect(high.length).toBe(items.filter((i) => i.severity === 'High').length)
      const other = await all(`&tenancyId=${otherTenantId}`)
      expect(other.length).toBe(items.filter((i) => i.tenancyId === otherTenantId).length)
      expect((await get(`/insights?tenancyId=${randomUUID()}`)).json()).toMatchObject({ items: [], totalCount: 0 })

      for (const bad of ['category=Nope', 'severity=Huge', 'tenancyId=x', 'includeDismissed=yes', 'pageSize=201']) {
        const res = await get(`/insights?${bad}`)
        expect(res.statusCode, bad).toBe(400)
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      }
    })

    it('gets one insight; unknown, foreign and malformed ids are 404 or 400', async () => {
      const [one] = await all(`&tenancyId=${tenantId}`)
      expect((await get(`/insights/${one!.id}`)).json()).toEqual(one)
      expect((await get(`/insights/${one!.id.toUpperCase()}`)).statusCode).toBe(200)
      expect((await get(`/insights/${randomUUID()}`)).statusCode).toBe(404)
      expect((await get('/insights/not-a-uuid')).statusCode).toBe(400)
      const stranger = await t.given.organisation('Stranger')
      expect((await get(`/insights/${one!.id}`, stranger.ownerKey)).statusCode).toBe(404)
      expect((await patch(one!.id, { action: 'NotRelevant' }, stranger.ownerKey)).statusCode).toBe(404)
      expect((await get('/insights', stranger.ownerKey)).json().totalCount).toBe(0)
    })

    it('shows a scoped key the tenancies it can see only; Viewer reads, Editor acts', async () => {
      const viewer = await t.given.key(org, [{ tenancyId: otherTenantId, role: 'Viewer' }])
      const editor = await t.given.key(org, [{ tenancyId: otherTenantId, role: 'Editor' }])
      const visible = await all('', viewer.apiKey)
      expect(visible.length).toBeGreaterThan(0)
      expect(visible.every((i) => i.tenancyId === otherTenantId)).toBe(true)
      expect((await all(`&tenancyId=${tenantId}`, viewer.apiKey)).length).toBe(0)
      const [mine] = await all(`&tenancyId=${tenantId}`)
      const theirs = visible[visible.length - 1]!
      expect((await get(`/insights/${theirs.id}`, viewer.apiKey)).statusCode).toBe(200)
      expect((await get(`/insights/${mine!.id}`, viewer.apiKey)).statusCode).toBe(404)
      expect((await patch(theirs.id, { action: 'AcceptedRisk' }, viewer.apiKey)).statusCode).toBe(403)
      expect((await patch(mine!.id, { action: 'AcceptedRisk' }, editor.apiKey)).statusCode).toBe(404)
      const accepted = await patch(theirs.id, { action: 'AcceptedRisk' }, editor.apiKey)
      expect(accepted.statusCode, accepted.body).toBe(200)
      expect(accepted.json().lastAction).toEqual({
        action: 'AcceptedRisk',
        at: NOW,
        by: { type: 'ApiKey', id: editor.id, name: 'test key' },
        snoozeDays: null,
      })
    })

    it('takes each action as its status; a dismissed insight is listed only with includeDismissed', async () => {
      const items = await all(`&tenancyId=${tenantId}`)
      for (const [n, action] of (['NotRelevant', 'AcceptedRisk', 'Implemented', 'FalsePositive'] as const).entries()) {
        const target = items[items.length - 1 - n]!
        const res = await patch(target.id, { action })
        expect(res.statusCode, res.body).toBe(200)
        expect(res.json()).toMatchObject({ id: target.id, status: action, snoozedUntil: null, updatedAt: NOW })
        expect(res.json().lastAction).toMatchObject({ action, at: NOW, by: { type: 'ApiKey' }, snoozeDays: null })
        expect((await all(`&tenancyId=${tenantId}`)).map((i) => i.id)).not.toContain(target.id)
        expect((await all(`&tenancyId=${tenantId}&includeDismissed=TRUE`)).map((i) => i.id)).toContain(target.id)
      }
      // Repeating the current status is a 200 that changes nothing.
      const repeated = items[items.length - 1]!
      t.clock.advance(60_000)
      try {
        const again = await patch(repeated.id, { action: 'NotRelevant' })
        expect(again.statusCode).toBe(200)
        expect(again.json()).toMatchObject({ status: 'NotRelevant', updatedAt: NOW, lastAction: { at: NOW } })
      } finally {
        t.clock.set(NOW)
      }
    })

    it('refuses bad actions with a precise 400 and changes nothing', async () => {
      const [target] = await all(`&tenancyId=${tenantId}`)
      const cases: [unknown, string][] = [
        [{ action: 'AutoResolved' }, 'action'],
        [{ action: 'Active' }, 'action'],
        [{ action: 'Snoozed' }, 'snoozeDays'],
        [{ action: 'Snoozed', snoozeDays: null }, 'snoozeDays'],
        [{ action: 'Snoozed', snoozeDays: 0 }, 'snoozeDays'],
        [{ action: 'Snoozed', snoozeDays: 366 }, 'snoozeDays'],
        [{ action: 'Snoozed', snoozeDays: '400' }, 'snoozeDays'],
        [{ action: 'Snoozed', snoozeDays: '0' }, 'snoozeDays'],
        [{ action: 'Snoozed', snoozeDays: 2.5 }, 'snoozeDays'],
        [{ action: 'Snoozed', snoozeDays: 'seven' }, 'snoozeDays'],
        [{ action: 'NotRelevant', snoozeDays: 3 }, 'snoozeDays'],
        [{ action: 'Implemented', snoozeDays: '3' }, 'snoozeDays'],
        [{ action: 'NotRelevant', note: 'x' }, 'note'],
        [{}, 'action'],
      ]
      for (const [body, field] of cases) {
        const res = await patch(target!.id, body)
        expect(res.statusCode, JSON.stringify(body)).toBe(400)
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
        expect(JSON.stringify(res.json().errors ?? res.json().detail), JSON.stringify(body)).toContain(field)
      }
      expect((await t.request('PATCH', `${API}/insights/${target!.id}`, org.ownerKey)).statusCode).toBe(400)
      expect((await get(`/insights/${target!.id}`)).json()).toEqual(target)
    })

    it('snoozes for snoozeDays (integer or numeric string); once it passes the insight is Active again', async () => {
      const items = await all(`&tenancyId=${tenantId}`)
      const [a, b] = [items[0]!, items[1]!]
      const snoozed = await patch(a.id, { action: 'Snoozed', snoozeDays: '7' })
      expect(snoozed.statusCode, snoozed.body).toBe(200)
      expect(snoozed.json()).toMatchObject({
        status: 'Snoozed',
        snoozedUntil: '2026-03-08T09:00:00.000Z',
        lastAction: { action: 'Snoozed', at: NOW, snoozeDays: 7 },
      })
      expect((await patch(b.id, { action: 'Snoozed', snoozeDays: 365 })).json().snoozedUntil).toBe(
        '2027-03-01T09:00:00.000Z',
      )
      expect((await all(`&tenancyId=${tenantId}`)).map((i) => i.id)).not.toContain(a.id)
      try {
        t.clock.set('2026-03-08T08:59:59.999Z')
        expect((await get(`/insights/${a.id}`)).json().status).toBe('Snoozed')
        t.clock.set('2026-03-08T09:00:00.000Z')
        expect((await get(`/insights/${a.id}`)).json()).toMatchObject({ status: 'Active', snoozedUntil: null })
        const listed = await all(`&tenancyId=${tenantId}`)
        expect(listed.find((i) => i.id === a.id)).toMatchObject({ status: 'Active', lastAction: { action: 'Snoozed' } })
        expect(listed.map((i) => i.id)).not.toContain(b.id)
      } finally {
        t.clock.set(NOW)
      }
      // Snoozed again: a new snooze from now.
      expect((await patch(b.id, { action: 'Snoozed', snoozeDays: 1 })).json().snoozedUntil).toBe(
        '2026-03-02T09:00:00.000Z',
      )
    })

    it('a later snapshot: statuses people set survive, a gone condition is AutoResolved, a comeback is Active', async () => {
      const disk = await insightOf(tenantId, 'OrphanedResource', /^disk-/)
      const ip = await insightOf(tenantId, 'OrphanedResource', /^pip-/)
      const plan = await insightOf(tenantId, 'OrphanedResource', /^plan-/)
      expect((await patch(ip.id, { action: 'Implemented' })).statusCode).toBe(200)
      expect((await patch(plan.id, { action: 'FalsePositive' })).statusCode).toBe(200)
      const armOf = async (i: InsightRecord) =>
        String((await get(`/tenants/${tenantId}/resources/${i.resourceId}`)).json().armId)
      const stopped = await insightOf(tenantId, 'StoppedVm', /^vm-/)
      const [diskArm, ipArm, stoppedArm] = [await armOf(disk), await armOf(ip), await armOf(stopped)]
      const attach = (r: ResourceItem) => ({
        ...r,
        state: 'Attached',
        properties: { ...r.properties, diskState: 'Attached', managedBy: '/vm' },
      })
      const associate = (r: ResourceItem) => ({ ...r, properties: { ...r.properties, ipConfiguration: { id: '/n' } } })

      // The day after, with the disk attached: it resolves itself; the others keep what a person set.
      t.clock.set('2026-03-02T09:00:00.000Z')
      try {
        estate.changes.set(diskArm, attach)
        estate.changes.set(stoppedArm, () => null) // deleted: its costs of the last days still count, it does not
        await snapshotAndAnalyse(tenantId)
        expect((await get(`/insights/${disk.id}`)).json()).toMatchObject({ status: 'AutoResolved', lastAction: null })
        expect((await get(`/insights/${stopped.id}`)).json()).toMatchObject({ status: 'AutoResolved' })
        expect((await get(`/insights/${ip.id}`)).json()).toMatchObject({ status: 'Implemented' })
        expect((await get(`/insights/${plan.id}`)).json()).toMatchObject({ status: 'FalsePositive' })
        expect((await all(`&tenancyId=${tenantId}`)).map((i) => i.id)).not.toContain(disk.id)

        // The IP is associated: its condition goes, and it stays Implemented.
        t.clock.set('2026-03-03T09:00:00.000Z')
        estate.changes.set(ipArm, associate)
        await snapshotAndAnalyse(tenantId)
        expect((await get(`/insights/${ip.id}`)).json()).toMatchObject({ status: 'Implemented' })

        // Both come back: Active again, the IP with its history.
        t.clock.set('2026-03-04T09:00:00.000Z')
        estate.changes.clear()
        await snapshotAndAnalyse(tenantId)
        const back = (await get(`/insights/${ip.id}`)).json()
        expect(back).toMatchObject({
          id: ip.id,
          status: 'Active',
          detectedAt: '2026-03-04T09:00:00.000Z',
          lastAction: { action: 'Implemented', at: NOW },
        })
        expect((await get(`/insights/${disk.id}`)).json()).toMatchObject({ status: 'Active', lastAction: null })
        expect((await get(`/insights/${stopped.id}`)).json()).toMatchObject({ status: 'Active' })
        expect((await get(`/insights/${plan.id}`)).json()).toMatchObject({ status: 'FalsePositive' })
        const rows = await t.db.kysely.selectFrom('insights').select('id').where('tenantId', '=', tenantId).execute()
        expect(rows.length).toBe((await all(`&tenancyId=${tenantId}&includeDismissed=true`)).length)
      } finally {
        estate.changes.clear()
        t.clock.set(NOW)
      }
    })

    it('an analysis cut short and run again, or run twice, leaves one insight per resource and category', async () => {
      const before = await t.db.kysely
        .selectFrom('insights')
        .selectAll()
        .where('tenantId', '=', otherTenantId)
        .orderBy('id')
        .execute()
      // A later step of the run fails after the insights were written: the run's next attempt does it all again.
      let failOnce = true
      t.services.analysers.push({
        name: 'failing once',
        async analyse() {
          if (failOnce) {
            failOnce = false
            throw new Error('the worker went away')
          }
        },
      })
      try {
        await t.services.analysisStore.request(otherTenantId, '2026-02-01', '2026-02-28', null)
        const worker = t.worker({ connectors: { simulated: estate.connector } })
        expect(await worker.runOnce()).toBe(true)
        const [run] = await t.services.analysisStore.ofTenant(otherTenantId)
        expect(run).toMatchObject({ status: 'Queued', attempts: 1 })
        t.clock.advance(31_000)
        expect(await worker.runOnce()).toBe(true)
        expect((await t.services.analysisStore.byId(run!.id))?.status).toBe('Succeeded')
      } finally {
        t.services.analysers.pop()
        t.clock.set(NOW)
      }
      const after = await t.db.kysely
        .selectFrom('insights')
        .selectAll()
        .where('tenantId', '=', otherTenantId)
        .orderBy('id')
        .execute()
      // Same rows, unchanged: the same analysis twice writes nothing new.
      expect(after).toEqual(before)
    })
  })
}
