import { join } from 'node:path'
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { createSimulatedConnector } from '../../src/connectors/simulated/index.js'
import { type Connector, ConnectorError } from '../../src/connectors/types.js'
import { uuidV7Ids } from '../../src/platform/clock.js'
import type { RunEvent } from '../../src/platform/runs/events.js'
import { createRunStore, LeaseLostError } from '../../src/platform/runs/store.js'
import { defineRunKind } from '../../src/platform/runs/worker.js'
import { createServices } from '../../src/services.js'
import { createCollectionWorker } from '../../src/worker.js'
import { type OrgContext, type TestApp, useTestApp } from '../support/app.js'
import { ROOT } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'
import { until } from '../support/worker.js'

const API = '/api/public/v1'
const FOCUS_FILE = join(ROOT, 'test/fixtures/focus/azure-focus-small.csv')

/** A second kind of run, as small as one can be: its table has the run columns and one of its own. */
const PINGS = { name: 'ping', table: 'test_pings' }
const pingKind = defineRunKind<{ answer: string | null }>({
  ...PINGS,
  async handle(run, { succeed }) {
    await succeed(async () => ({ answer: `pong after ${run.attempts} attempt(s)` }))
  },
})

async function createPingTable(t: TestApp) {
  await sql`create table test_pings (
    id text primary key, tenant_id text, status text not null, requested_at text not null, started_at text,
    completed_at text, attempts integer not null default 0, lease_until text, worker_id text, progress text,
    error_code text, error_message text, not_before text, answer text)`.execute(t.db.kysely)
}

/** The simulated estate, failing `failures` times in a row as if Azure could not be reached. */
function unreachableConnector(failures: number): Connector {
  const inner = createSimulatedConnector()
  let calls = 0
  return {
    ...inner,
    async *dailyCosts(conn, window, signal) {
      if (calls++ < failures) throw new ConnectorError('unreachable', 'Could not reach Azure: connection reset.')
      yield* inner.dailyCosts(conn, window, signal)
    },
  }
}

for (const dialect of testDialects()) {
  describe(`${dialect}: run kinds, retries and hooks`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z', env: { COSTWATCH_SNAPSHOT_HOUR: '23' } })
    let org: OrgContext
    const pings = () =>
      createRunStore<{ answer: string | null }>(t.db, PINGS, { clock: t.clock, events: t.services.runEvents })
    const ping = async (id: string) =>
      sql<{ status: string; answer: string | null }>`select status, answer from test_pings where id = ${id}`
        .execute(t.db.kysely)
        .then((r) => r.rows[0]!)
    const snapshot = (tenantId: string, id: string) => t.services.snapshotStore.get(tenantId, id)

    beforeAll(async () => {
      org = await t.given.organisation()
      await createPingTable(t)
    })

    it('a second kind of run is served while a long snapshot run holds its own slot', async () => {
      const tenant = await t.given.tenant(org)
      const inner = createSimulatedConnector()
      let entered = false
      let release!: () => void
      const gate = new Promise<void>((resolve) => {
        release = resolve
      })
      const slow: Connector = {
        ...inner,
        async *dailyCosts(conn, window, signal) {
          entered = true
          await gate // a snapshot that takes as long as the test wants
          yield* inner.dailyCosts(conn, window, signal)
        },
      }
      const run = await t.services.snapshots.trigger(org.owner, tenant.id, false)
      const worker = t.worker({ connectors: { simulated: slow }, moreKinds: [pingKind] })
      worker.start()
      try {
        await until('the snapshot to be collecting', async () => entered)
        const pingId = uuidV7Ids.uuid()
        await pings().queue({ id: pingId, tenantId: null, requestedAt: t.clock.now().toISOString() })
        worker.nudge()
        expect(await until('the ping to be done', async () => (await ping(pingId)).status === 'Succeeded')).toBe(true)
        expect((await ping(pingId)).answer).toBe('pong after 1 attempt(s)')
        expect((await snapshot(tenant.id, run.id))?.status).toBe('Running')
      } finally {
        release()
      }
      await until('the snapshot to succeed', async () => (await snapshot(tenant.id, run.id))?.status === 'Succeeded')
      await worker.stop()
      while (await t.worker().runOnce()) {} // the analysis of the new costs
    })

    it("a run's steps commit on their own while it runs, and not once another worker holds it", async () => {
      const store = pings()
      const id = uuidV7Ids.uuid()
      await store.queue({ id, tenantId: null, requestedAt: t.clock.now().toISOString() })
      const claimed = (await store.claim('worker-a', 60_000))!
      expect(claimed.id).toBe(id)
      const answer = (value: string) => async (tx: Parameters<Parameters<typeof store.commitStep>[2]>[0]) => {
        await sql`update test_pings set answer = ${value} where id = ${id}`.execute(tx)
      }
      await store.commitStep(claimed, 'worker-a', answer('step 1'))
      expect(await ping(id)).toEqual({ status: 'Running', answer: 'step 1' })
      // Another worker took the run over (its lease had expired): this one's next step commits nothing.
      await sql`update test_pings set worker_id = 'worker-b' where id = ${id}`.execute(t.db.kysely)
      await expect(store.commitStep(claimed, 'worker-a', answer('step 2'))).rejects.toThrow(LeaseLostError)
      expect(await ping(id)).toEqual({ status: 'Running', answer: 'step 1' })
      // A step that fails rolls back alone; the steps before it stay.
      await expect(
        store.commitStep(claimed, 'worker-b', async (tx) => {
          await answer('step 3')(tx)
          throw new Error('the step failed')
        }),
      ).rejects.toThrow('the step failed')
      expect(await ping(id)).toEqual({ status: 'Running', answer: 'step 1' })
    })

    it('claims take turns across kinds', async () => {
      const tenants = [await t.given.tenant(org), await t.given.tenant(org)]
      const events: RunEvent[] = []
      t.services.runEvents.on('run:started', (e) => {
        events.push(e)
      })
      for (const tenant of tenants) await t.services.snapshots.trigger(org.owner, tenant.id, false)
      for (let i = 0; i < 2; i++)
        await pings().queue({ id: uuidV7Ids.uuid(), tenantId: null, requestedAt: t.clock.now().toISOString() })
      const worker = t.worker({ moreKinds: [pingKind] })
      while (await worker.runOnce()) {}
      // A succeeded snapshot queues its analysis, a third kind in the rotation.
      expect(events.map((e) => e.kind)).toEqual(['snapshot', 'analysis', 'ping', 'snapshot', 'analysis', 'ping'])
    })

    it('a failed attempt that may be retried waits its backoff, then runs again', async () => {
      const tenant = await t.given.tenant(org)
      const run = await t.services.snapshots.trigger(org.owner, tenant.id, false)
      const worker = t.worker({ connectors: { simulated: unreachableConnector(1) } })
      expect(await worker.runOnce()).toBe(true)
      const waiting = (await t.request('GET', `${API}/tenants/${tenant.id}/snapshots/${run.id}`, org.ownerKey)).json()
      expect(waiting).toMatchObject({ status: 'Queued', error: null })
      expect(waiting.progress).toBe('attempt 1 failed (unreachable); the next starts from 2026-03-01T09:00:30.000Z')
      // While it waits, the tenant cannot queue another run, and no worker takes it.
      expect((await t.request('POST', `${API}/tenants/${tenant.id}/snapshots`, org.ownerKey)).statusCode).toBe(409)
      t.clock.advance(29_999)
      expect(await worker.runOnce()).toBe(false)
      t.clock.advance(1)
      expect(await worker.runOnce()).toBe(true)
      const done = await snapshot(tenant.id, run.id)
      expect(done).toMatchObject({ status: 'Succeeded', error: null, progress: null })
      const row = await t.db.kysely
        .selectFrom('snapshotRuns')
        .select(['attempts', 'notBefore'])
        .where('id', '=', run.id)
        .executeTakeFirstOrThrow()
      expect(row).toEqual({ attempts: 2, notBefore: null })
      expect(await worker.runOnce()).toBe(true) // the analysis of the new costs
      t.clock.set('2026-03-01T09:00:00.000Z')
    })

    it('a run that keeps failing waits longer each time, then fails for good with its last error', async () => {
      const tenant = await t.given.tenant(org)
      const run = await t.services.snapshots.trigger(org.owner, tenant.id, false)
      const worker = t.worker({ connectors: { simulated: unreachableConnector(10) } })
      const requeued: RunEvent[] = []
      t.services.runEvents.on('run:requeued', (e) => {
        if (e.runId === run.id) requeued.push(e)
      })
      expect(await worker.runOnce()).toBe(true)
      t.clock.advance(30_000)
      expect(await worker.runOnce()).toBe(true)
      t.clock.advance(119_999)
      expect(await worker.runOnce()).toBe(false)
      t.clock.advance(1)
      expect(await worker.runOnce()).toBe(true)
      expect(requeued.map((e) => e.type === 'run:requeued' && e.notBefore)).toEqual([
        '2026-03-01T09:00:30.000Z',
        '2026-03-01T09:02:30.000Z',
      ])
      expect(await snapshot(tenant.id, run.id)).toMatchObject({
        status: 'Failed',
        error: { code: 'unreachable', message: 'Could not reach Azure: connection reset.' },
      })
      expect(await worker.runOnce()).toBe(false)
      t.clock.set('2026-03-01T09:00:00.000Z')
    })

    it('an after-snapshot hook runs after a snapshot and an import; one that throws is logged, the run stays Succeeded', async () => {
      const tenant = await t.given.tenant(org)
      const calls: string[] = []
      const warnings: string[] = []
      const services = createServices({
        db: t.db,
        config: t.config,
        clock: t.clock,
        ids: uuidV7Ids,
        warn: (err, message) => warnings.push(`${message}: ${(err as Error).message}`),
        afterSnapshot: [
          async (tenantId, runId) => {
            calls.push(`first ${tenantId} ${runId}`)
            throw new Error('anomaly detection broke')
          },
          async (tenantId, runId) => {
            // Outside the run's transaction: the run is already Succeeded when the hook reads it.
            calls.push(`second ${runId} ${(await services.snapshotStore.get(tenantId, runId))?.status}`)
          },
        ],
      })
      const run = await services.snapshots.trigger(org.owner, tenant.id, false)
      const worker = createCollectionWorker({ db: t.db, config: t.config, services, clock: t.clock, ids: uuidV7Ids })
      expect(await worker.runOnce()).toBe(true)
      expect(await snapshot(tenant.id, run.id)).toMatchObject({ status: 'Succeeded', error: null })
      expect(calls).toEqual([`first ${tenant.id} ${run.id}`, `second ${run.id} Succeeded`])
      expect(warnings).toEqual([
        `an after-snapshot hook failed for run ${run.id}; the run stays Succeeded: anomaly detection broke`,
      ])

      t.clock.advance(1000)
      const imported = await services.importFocus(tenant.id, [FOCUS_FILE])
      expect(imported.run.status).toBe('Succeeded')
      expect(calls.slice(2)).toEqual([`first ${tenant.id} ${imported.run.id}`, `second ${imported.run.id} Succeeded`])
      expect(warnings).toHaveLength(2)
      expect(warnings[1]).toContain(imported.run.id)
      t.clock.set('2026-03-01T09:00:00.000Z')
    })
  })
}
