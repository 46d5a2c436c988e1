import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createSimulatedConnector } from '../../src/connectors/simulated/index.js'
import { type Connector, ConnectorError } from '../../src/connectors/types.js'
import { bumpVersionOfTenancies } from '../../src/features/tenants/store.js'
import type { Principal } from '../../src/platform/auth/principal.js'
import { readVersion } from '../../src/platform/cache.js'
import { uuidV7Ids } from '../../src/platform/clock.js'
import { openDatabase } from '../../src/platform/db/index.js'
import { createServices } from '../../src/services.js'
import { createCollectionWorker } from '../../src/worker.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { ROOT } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'

/**
 * The tenant list keeps whole pages as bytes (src/platform/cache.ts) while the organisation's version and the
 * UTC day stay the same. These tests make every kind of change that
 * alters a page and read the page right after: it must be the page built afresh, on both dialects.
 */
const API = '/api/public/v1'
const TODAY = '2026-03-15'
const FOCUS_FILE = join(ROOT, 'test/fixtures/focus/azure-focus-small.csv')

interface Page {
  items: { id: string; name: string; lastSnapshot: { id: string; status: string } | null; costs: Cost }[]
  page: number
  pageSize: number
  totalCount: number
  totalPages: number
}
interface Cost {
  currency: string
  monthToDate: number
  previousMonth: number
  last30Days: number
}

/** The simulated estate, failing with a provider error before any cost. */
function failingConnector(): Connector {
  return {
    ...createSimulatedConnector(),
    async *dailyCosts() {
      yield* []
      throw new ConnectorError('provider_error', 'Cost Management answered 503 three times; try again later.')
    },
  }
}

for (const dialect of testDialects()) {
  describe(`${dialect}: the tenant list served from kept pages stays exact`, () => {
    // The daily schedule at 23:00, so a worker turn at 09:00 queues nothing by itself (scheduleDaily is called here).
    const t = useTestApp({ dialect, now: `${TODAY}T09:00:00.000Z`, env: { COSTWATCH_SNAPSHOT_HOUR: '23' } })
    let org: OrgContext

    const read = async (query: string, key = org.ownerKey) => {
      const res = await t.request('GET', `${API}/tenants?${query}`, key)
      expect(res.statusCode, res.body).toBe(200)
      return res
    }
    /** The page built afresh by the service, past any kept bytes, as JSON. */
    const fresh = async (page: number, pageSize: number, who: Principal = org.owner): Promise<Page> =>
      JSON.parse(JSON.stringify(await t.services.tenants.list(who, { page, pageSize })))
    /** Reads the page through the app and checks it is the page built afresh. */
    const exact = async (page = 1, pageSize = 50, key = org.ownerKey, who: Principal = org.owner) => {
      const body = (await read(`page=${page}&pageSize=${pageSize}`, key)).json() as Page
      expect(body).toEqual(await fresh(page, pageSize, who))
      return body
    }
    const itemOf = (page: Page, id: string) => page.items.find((i) => i.id === id)!

    it('a kept page is the same bytes with the same headers as the page first built', async () => {
      org = await t.given.organisation()
      for (const name of ['Bravo', 'Alpha', 'Charlie']) await t.given.tenant(org, { name })
      const first = await read('page=1&pageSize=2')
      const again = await read('page=1&pageSize=2')
      expect(again.body).toBe(first.body)
      for (const res of [first, again]) {
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
        expect(res.headers['cache-control']).toBe('no-store')
        expect(res.headers['x-content-type-options']).toBe('nosniff')
        expect(res.headers.link).toBe(
          `<${API}/tenants?page=1&pageSize=2>; rel="first", <${API}/tenants?page=2&pageSize=2>; rel="next", ` +
            `<${API}/tenants?page=2&pageSize=2>; rel="last"`,
        )
      }
      expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id'])
      expect(first.json()).toEqual(await fresh(1, 2))
      expect(first.json()).toMatchObject({
        totalCount: 3,
        totalPages: 2,
        items: [{ name: 'Alpha' }, { name: 'Bravo' }],
      })
      // Another query string for the same page: the same bytes, its own links.
      const reordered = await read('pageSize=2&page=2')
      expect(reordered.headers.link).toContain(`<${API}/tenants?pageSize=2&page=1>; rel="prev"`)
      expect(reordered.json()).toEqual(await fresh(2, 2))
    })

    it('(a) a snapshot queued through the API shows on the very next read', async () => {
      const before = await exact()
      const tenant = before.items[0]!
      const res = await t.request('POST', `${API}/tenants/${tenant.id}/snapshots`, org.ownerKey)
      expect(res.statusCode, res.body).toBe(202)
      const after = await exact()
      expect(itemOf(after, tenant.id).lastSnapshot).toEqual({ id: res.json().id, status: 'Queued', completedAt: null })
    })

    it('a claim, a lease running out and requeueing each show at once', async () => {
      const queue = t.services.snapshotStore.runs
      const claimed = await queue.claim('a-worker-that-dies', 1000)
      expect(claimed).not.toBeNull()
      const running = await exact()
      expect(running.items.find((i) => i.lastSnapshot?.id === claimed!.id)?.lastSnapshot?.status).toBe('Running')
      t.clock.advance(1001)
      expect(await queue.recoverExpired(3)).toEqual({ requeued: 1, failed: 0, runIds: [claimed!.id] })
      const requeued = await exact()
      expect(requeued.items.find((i) => i.lastSnapshot?.id === claimed!.id)?.lastSnapshot?.status).toBe('Queued')
    })

    it('(b) a worker run changes the status and the costs', async () => {
      const before = await exact()
      const tenant = before.items.find((i) => i.lastSnapshot?.status === 'Queued')!
      expect(tenant.costs.last30Days).toBe(0)
      expect(await t.worker().runOnce()).toBe(true)
      const after = await exact()
      const item = itemOf(after, tenant.id)
      expect(item.lastSnapshot).toMatchObject({ id: tenant.lastSnapshot!.id, status: 'Succeeded' })
      expect(item.costs.last30Days).toBeGreaterThan(0)
      expect(item.costs.monthToDate).toBeGreaterThan(0)
    })

    it('a failed run and a FOCUS import show at once', async () => {
      const before = await exact()
      const tenant = before.items.find((i) => i.lastSnapshot === null)!
      await t.services.snapshots.trigger(org.owner, tenant.id, false)
      expect(itemOf(await exact(), tenant.id).lastSnapshot?.status).toBe('Queued')
      expect(await t.worker({ connectors: { simulated: failingConnector() } }).runOnce()).toBe(true)
      expect(itemOf(await exact(), tenant.id).lastSnapshot?.status).toBe('Failed')

      t.clock.advance(1000)
      const imported = await t.services.importFocus(tenant.id, [FOCUS_FILE])
      expect(itemOf(await exact(), tenant.id).lastSnapshot).toEqual({
        id: imported.run.id,
        status: 'Succeeded',
        completedAt: imported.run.completedAt,
      })
    })

    it("the daily schedule's runs show at once", async () => {
      const before = await exact()
      t.clock.advance(1000) // requested after the runs before, so the latest whatever the ids
      const queued = await t.services.snapshots.scheduleDaily(t.clock.now(), 0, async () =>
        before.items.map((i) => i.id),
      )
      expect(queued).toBe(before.items.length)
      const after = await exact()
      for (const item of after.items) {
        expect(item.lastSnapshot?.status).toBe('Queued')
        expect(item.lastSnapshot?.id).not.toBe(itemOf(before, item.id).lastSnapshot?.id)
      }
      while (await t.worker().runOnce()) {}
      expect((await exact()).items.map((i) => i.lastSnapshot?.status)).toEqual(['Succeeded', 'Succeeded', 'Succeeded'])
    })

    it('(c) a tenant created shifts the pages and the totalCount', async () => {
      const page1 = await exact(1, 2)
      const page2 = await exact(2, 2)
      expect(page1.totalCount).toBe(3)
      const res = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'Aardvark',
        cloudTenantId: `aardvark-${dialect}.onmicrosoft.com`,
        credentialType: 'ManagedIdentity',
      })
      expect(res.statusCode, res.body).toBe(201)
      const after1 = await exact(1, 2)
      const after2 = await exact(2, 2)
      expect(after1).toMatchObject({ totalCount: 4, totalPages: 2 })
      expect(after1.items.map((i) => i.name)).toEqual(['Aardvark', page1.items[0]!.name])
      expect(after2.items.map((i) => i.name)).toEqual([page1.items[1]!.name, page2.items[0]!.name])
      expect((await read('page=2&pageSize=2')).headers.link).not.toContain('rel="next"')
    })

    it('(d) another process writing is seen by the app at once', async () => {
      const before = await exact()
      const other = openDatabase(t.databaseUrl)
      try {
        const services = createServices({ db: other, config: t.config, clock: t.clock, ids: uuidV7Ids })
        const created = await services.tenants.create(org.owner, {
          name: 'Zulu, from another process',
          cloudTenantId: `zulu-${dialect}.onmicrosoft.com`,
          credentialType: 'ManagedIdentity',
        })
        const withTenant = await exact()
        expect(withTenant.totalCount).toBe(before.totalCount + 1)
        expect(withTenant.items.at(-1)).toMatchObject({ id: created.id, lastSnapshot: null })

        const run = await services.snapshots.trigger(org.owner, created.id, false)
        expect(itemOf(await exact(), created.id).lastSnapshot).toEqual({
          id: run.id,
          status: 'Queued',
          completedAt: null,
        })

        const worker = createCollectionWorker({ db: other, config: t.config, services, clock: t.clock, ids: uuidV7Ids })
        expect(await worker.runOnce()).toBe(true)
        const item = itemOf(await exact(), created.id)
        expect(item.lastSnapshot).toMatchObject({ id: run.id, status: 'Succeeded' })
        expect(item.costs.last30Days).toBeGreaterThan(0)
      } finally {
        await other.close()
      }
    })

    it('(e) the UTC day rolling over recomputes the costs', async () => {
      const before = await exact()
      const collected = before.items.filter((i) => i.costs.last30Days > 0)
      expect(collected.length).toBeGreaterThan(0)
      // The first collected day leaves the 30-day window; nothing is collected for the new day yet.
      t.clock.set('2026-03-16T00:00:00.000Z')
      try {
        const after = await exact()
        for (const item of collected)
          expect(itemOf(after, item.id).costs.last30Days).toBeLessThan(item.costs.last30Days)
        // A new month: month to date starts again, the previous month is March's.
        t.clock.set('2026-04-01T00:00:00.000Z')
        const april = await exact()
        for (const item of collected) {
          expect(itemOf(april, item.id).costs).toMatchObject({ monthToDate: 0, previousMonth: item.costs.monthToDate })
        }
      } finally {
        t.clock.set(`${TODAY}T09:00:00.000Z`)
      }
      expect(await exact()).toEqual(before)
    })

    it('a scoped key has its own pages, exact as well', async () => {
      const all = await exact()
      const [first, second] = all.items
      const { apiKey } = await t.given.key(org, [
        { tenancyId: second!.id, role: 'Viewer' },
        { tenancyId: first!.id, role: 'Editor' },
      ])
      const scoped: Principal = {
        ...org.owner,
        isOwner: false,
        tenancyRoles: new Map([
          [first!.id, 'Editor'],
          [second!.id, 'Viewer'],
        ]),
      }
      const before = await exact(1, 50, apiKey, scoped)
      expect(before.items.map((i) => i.id)).toEqual([first!.id, second!.id])
      expect(before.totalCount).toBe(2)
      expect(await exact()).toEqual(all) // the owner's page is another page
      const res = await t.request('POST', `${API}/tenants/${first!.id}/snapshots`, apiKey)
      expect(res.statusCode, res.body).toBe(202)
      expect(itemOf(await exact(1, 50, apiKey, scoped), first!.id).lastSnapshot?.status).toBe('Queued')
      while (await t.worker().runOnce()) {}
    })

    it("a write to several organisations' tenancies bumps each organisation's version once", async () => {
      const other = await t.given.organisation('Other')
      const theirs = await t.given.tenant(other, { name: 'Theirs' })
      const ours = (await exact()).items[0]!
      const before = [
        await readVersion(t.db.kysely, org.organisationId),
        await readVersion(t.db.kysely, other.organisationId),
      ]
      await bumpVersionOfTenancies(t.db.kysely, [theirs.id, ours.id, theirs.id])
      expect([
        await readVersion(t.db.kysely, org.organisationId),
        await readVersion(t.db.kysely, other.organisationId),
      ]).toEqual(before.map((v) => v + 1))
    })

    it('pages of a long list: no repeats, no gaps, the order of ORDER BY name, id', async () => {
      const big = await t.given.organisation('Big')
      const count = 450
      // Repeated names (37 of them), so the order within a name is the id's.
      for (let i = 0; i < count; i++) await t.given.tenant(big, { name: `Estate ${(i * 7919) % 37}` })
      /** The list's order straight from the table, uncached. */
      const tableOrder = async () =>
        (
          await t.db.kysely
            .selectFrom('tenants')
            .select('id')
            .where('organisationId', '=', big.organisationId)
            .orderBy('name')
            .orderBy('id')
            .execute()
        ).map((r) => r.id)
      const expected = await tableOrder()
      const pageSize = 7
      const walk = async (total = count) => {
        const seen: string[] = []
        for (let page = 1; ; page++) {
          const body = (await read(`page=${page}&pageSize=${pageSize}`, big.ownerKey)).json() as Page
          expect(body.totalCount).toBe(total)
          if (body.items.length === 0) break
          seen.push(...body.items.map((i) => i.id))
        }
        return seen
      }
      const first = await walk()
      expect(new Set(first).size).toBe(count)
      expect(first).toEqual(expected)
      expect(await walk()).toEqual(expected) // again, from kept pages
      // One more tenant at the very start moves every page.
      const added = await t.given.tenant(big, { name: 'Estate 0' })
      const moved = await walk(count + 1)
      expect(moved).toEqual(await tableOrder())
      expect(moved).toContain(added.id)
      expect(moved).toHaveLength(count + 1)
    })
  })
}
