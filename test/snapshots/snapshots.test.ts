import { describe, expect, it } from 'vitest'
import { createSimulatedConnector } from '../../src/connectors/simulated/index.js'
import { type Connector, ConnectorError } from '../../src/connectors/types.js'
import { fixedClock } from '../../src/platform/clock.js'
import { type OrgContext, type TestApp, useTestApp } from '../support/app.js'
import { simulatedConnection } from '../support/connection.js'
import { costRowsOf } from '../support/cost-rows.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
const TODAY = '2026-03-01'

async function costTotal(t: TestApp, tenantId: string) {
  const row = await costRowsOf(t.db.kysely, tenantId)
    .select((eb) => [
      eb.fn.sum<number>('cost').as('total'),
      eb.fn.countAll<number>().as('rows'),
      eb.fn.min('date').as('first'),
      eb.fn.max('date').as('last'),
    ])
    .executeTakeFirstOrThrow()
  return { total: Number(row.total ?? 0), rows: Number(row.rows), first: row.first, last: row.last }
}

/**
 * What the simulated estate bills in the window, computed straight from the connector as collected today (its
 * planted changes are counted back from the day of collection).
 */
async function expectedTotal(cloudTenantId: string, from: string, to: string) {
  let total = 0
  const conn = simulatedConnection({ id: 'x', cloudTenantId })
  const clock = fixedClock(`${TODAY}T09:00:00.000Z`)
  for await (const batch of createSimulatedConnector().dailyCosts(conn, { from, to }, { clock }))
    for (const r of batch) total += r.cost
  return total
}

/** The simulated estate, failing with a provider error once `failAfterDays` days of costs were delivered. */
function failingConnector(failAfterDays: number): Connector {
  const inner = createSimulatedConnector()
  return {
    ...inner,
    async *dailyCosts(conn, window, context) {
      let days = 0
      for await (const batch of inner.dailyCosts(conn, window, context)) {
        if (days++ === failAfterDays)
          throw new ConnectorError('provider_error', 'Cost Management answered 503 three times; try again later.')
        yield batch
      }
    },
  }
}

for (const dialect of testDialects()) {
  describe(`${dialect}: snapshot runs`, () => {
    const t = useTestApp({ dialect, now: `${TODAY}T09:00:00.000Z` })
    let org: OrgContext

    it('trigger answers 202 with Location and a queued run; a second trigger is a 409 naming it', async () => {
      org = await t.given.organisation()
      const tenant = await t.given.tenant(org)
      const res = await t.request('POST', `${API}/tenants/${tenant.id}/snapshots`, org.ownerKey)
      expect(res.statusCode, res.body).toBe(202)
      const run = res.json()
      expect(res.headers.location).toBe(`${API}/tenants/${tenant.id}/snapshots/${run.id}`)
      expect(run).toMatchObject({
        tenantId: tenant.id,
        status: 'Queued',
        deepHistory: false,
        requestedAt: `${TODAY}T09:00:00.000Z`,
        startedAt: null,
        error: null,
        progress: null,
        trigger: 'Manual',
      })
      const again = await t.request('POST', `${API}/tenants/${tenant.id}/snapshots?deepHistory=true`, org.ownerKey)
      expect(again.statusCode).toBe(409)
      expect(again.json()).toMatchObject({ status: 409, activeRunId: run.id })
      expect((await t.request('GET', `${API}/tenants/${tenant.id}/snapshots`, org.ownerKey)).json().totalCount).toBe(1)
    })

    it('a worker runs it to Succeeded with stats, inventory, costs and the tenant summary', async () => {
      const tenant = await t.given.tenant(org)
      const queued = (
        await t.request('POST', `${API}/tenants/${tenant.id}/snapshots?deepHistory=TRUE`, org.ownerKey)
      ).json()
      const worker = t.worker()
      // The first test's run is older, so it is claimed first; run until this one is done.
      while (await worker.runOnce()) {}
      const run = (await t.request('GET', `${API}/tenants/${tenant.id}/snapshots/${queued.id}`, org.ownerKey)).json()
      expect(run).toMatchObject({
        status: 'Succeeded',
        deepHistory: true,
        periodStart: '2026-01-30',
        periodEnd: TODAY,
        error: null,
      })
      expect(run.stats.subscriptions).toBe(4)
      expect(run.stats.resources).toBe(240)
      expect(run.stats.resourceGroups).toBeGreaterThanOrEqual(12)
      expect(run.stats.costRows).toBeGreaterThan(240 * 25)
      const costs = await costTotal(t, tenant.id)
      expect(costs.first).toBe('2026-01-30') // 30 days before today
      expect(costs.last).toBe(TODAY)
      expect(costs.total).toBeCloseTo(await expectedTotal(tenant.cloudTenantId!, '2026-01-30', TODAY), 4)
      const record = (await t.request('GET', `${API}/tenants/${tenant.id}`, org.ownerKey)).json()
      expect(record.lastSnapshot).toEqual({ id: queued.id, status: 'Succeeded', completedAt: `${TODAY}T09:00:00.000Z` })
      expect(record.costs.currency).toBe('USD')
      expect(record.costs.last30Days).toBeCloseTo(await expectedTotal(tenant.cloudTenantId!, '2026-01-31', TODAY), 1)
      expect(record.costs.monthToDate).toBeCloseTo(await expectedTotal(tenant.cloudTenantId!, '2026-03-01', TODAY), 1)
      expect(record.costs.previousMonth).toBeCloseTo(
        await expectedTotal(tenant.cloudTenantId!, '2026-02-01', '2026-02-28'),
        1,
      )
    })

    it('a re-run over overlapping days replaces costs, never adds them', async () => {
      const tenant = await t.given.tenant(org)
      const worker = t.worker()
      await t.services.snapshots.trigger(org.owner, tenant.id, true)
      while (await worker.runOnce()) {}
      const first = await costTotal(t, tenant.id)
      t.clock.set(`${TODAY}T18:00:00.000Z`)
      await t.services.snapshots.trigger(org.owner, tenant.id, false)
      while (await worker.runOnce()) {}
      const runs = (await t.request('GET', `${API}/tenants/${tenant.id}/snapshots`, org.ownerKey)).json().items
      expect(runs.map((r: { status: string }) => r.status)).toEqual(['Succeeded', 'Succeeded'])
      expect(runs[0].periodStart).toBe('2026-02-27') // at least the last three days are collected again
      const second = await costTotal(t, tenant.id)
      expect({ ...second, total: 0 }).toEqual({ ...first, total: 0 })
      expect(second.total).toBeCloseTo(first.total, 6) // the same rows, summed in another order
      t.clock.set(`${TODAY}T09:00:00.000Z`)
    })

    it('a failing connector gives Failed with a readable error and leaves the previous data intact', async () => {
      const tenant = await t.given.tenant(org)
      await t.services.snapshots.trigger(org.owner, tenant.id, true)
      while (await t.worker().runOnce()) {}
      const before = await costTotal(t, tenant.id)
      const inventoryBefore = await t.db.kysely
        .selectFrom('resources')
        .select(['id', 'lastSeenAt'])
        .where('tenantId', '=', tenant.id)
        .orderBy('id')
        .execute()
      t.clock.set('2026-03-02T09:00:00.000Z')
      const run = await t.services.snapshots.trigger(org.owner, tenant.id, true)
      const worker = t.worker({ connectors: { simulated: failingConnector(5) } })
      while (await worker.runOnce()) {}
      const failed = (await t.request('GET', `${API}/tenants/${tenant.id}/snapshots/${run.id}`, org.ownerKey)).json()
      expect(failed).toMatchObject({
        status: 'Failed',
        error: { code: 'provider_error', message: 'Cost Management answered 503 three times; try again later.' },
      })
      const after = await costTotal(t, tenant.id)
      expect({ ...after, total: 0 }).toEqual({ ...before, total: 0 })
      expect(after.total).toBeCloseTo(before.total, 6)
      expect(
        await t.db.kysely
          .selectFrom('resources')
          .select(['id', 'lastSeenAt'])
          .where('tenantId', '=', tenant.id)
          .orderBy('id')
          .execute(),
      ).toEqual(inventoryBefore)
      expect(await t.db.kysely.selectFrom('costStaging').selectAll().execute()).toEqual([])
      // The tenant may be snapshotted again right away.
      expect((await t.request('POST', `${API}/tenants/${tenant.id}/snapshots`, org.ownerKey)).statusCode).toBe(202)
      while (await t.worker().runOnce()) {}
      t.clock.set(`${TODAY}T09:00:00.000Z`)
    })

    it('an expired lease returns the run to the queue, and it fails for good after the attempt limit', async () => {
      const tenant = await t.given.tenant(org)
      const run = await t.services.snapshots.trigger(org.owner, tenant.id, false)
      const queue = t.services.snapshotStore.runs
      for (let attempt = 1; attempt <= 3; attempt++) {
        expect(await queue.claim(`dead-${attempt}`, 1000)).toMatchObject({ id: run.id, attempts: attempt })
        t.clock.advance(1001)
        expect(await queue.recoverExpired(3)).toEqual(
          attempt < 3 ? { requeued: 1, failed: 0, runIds: [run.id] } : { requeued: 0, failed: 1, runIds: [run.id] },
        )
      }
      const failed = (await t.request('GET', `${API}/tenants/${tenant.id}/snapshots/${run.id}`, org.ownerKey)).json()
      expect(failed).toMatchObject({ status: 'Failed', error: { code: 'attempts_exhausted' } })
      t.clock.set(`${TODAY}T09:00:00.000Z`)
    })

    it('permissions: Viewer lists and reads, Editor triggers, another tenancy is a 404', async () => {
      const tenant = await t.given.tenant(org)
      const other = await t.given.tenant(org)
      const viewer = await t.given.key(org, [{ tenancyId: tenant.id, role: 'Viewer' }])
      const editor = await t.given.key(org, [{ tenancyId: tenant.id, role: 'Editor' }])
      expect((await t.request('GET', `${API}/tenants/${tenant.id}/snapshots`, viewer.apiKey)).statusCode).toBe(200)
      expect((await t.request('POST', `${API}/tenants/${tenant.id}/snapshots`, viewer.apiKey)).statusCode).toBe(403)
      expect((await t.request('POST', `${API}/tenants/${other.id}/snapshots`, editor.apiKey)).statusCode).toBe(404)
      expect(
        (await t.request('POST', `${API}/tenants/${tenant.id}/snapshots?deepHistory=yes`, editor.apiKey)).statusCode,
      ).toBe(400)
      expect((await t.request('POST', `${API}/tenants/${tenant.id}/snapshots`, editor.apiKey)).statusCode).toBe(202)
      while (await t.worker().runOnce()) {}
    })

    it('the daily schedule queues exactly one run per tenant and day, however many workers try', async () => {
      const ids = (await t.services.tenantStore.scheduledIds()).sort()
      const early = new Date('2026-03-03T01:59:00.000Z')
      expect(await t.services.snapshots.scheduleDaily(early, 2, t.services.tenantStore.scheduledIds)).toBe(0)
      const at = new Date('2026-03-03T02:00:00.000Z')
      const results = await Promise.all(
        [1, 2, 3].map(() => t.services.snapshots.scheduleDaily(at, 2, t.services.tenantStore.scheduledIds)),
      )
      expect(results.reduce((a, b) => a + b, 0)).toBe(ids.length)
      const scheduled = await t.db.kysely
        .selectFrom('snapshotRuns')
        .select('tenantId')
        .where('scheduledFor', '=', '2026-03-03')
        .orderBy('tenantId')
        .execute()
      expect(scheduled.map((r) => r.tenantId)).toEqual(ids)
      expect(
        await t.services.snapshots.scheduleDaily(
          new Date('2026-03-03T23:00:00.000Z'),
          2,
          t.services.tenantStore.scheduledIds,
        ),
      ).toBe(0)
    })
  })
}
