import type { ChildProcess } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { createSimulatedConnector } from '../../src/connectors/simulated/index.js'
import { systemClock, uuidV7Ids } from '../../src/platform/clock.js'
import { migrateToLatest, openDatabase } from '../../src/platform/db/index.js'
import { createServices } from '../../src/services.js'
import { createTestDatabase, TEST_SECRET_KEY } from '../support/app.js'
import { startWorker } from '../support/cli.js'
import { simulatedConnection } from '../support/connection.js'
import { testDialects } from '../support/dialects.js'

async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

for (const dialect of testDialects()) {
  describe(`${dialect}: a worker killed mid-run`, () => {
    const children: ChildProcess[] = []
    const cleanups: (() => Promise<void>)[] = []
    afterAll(async () => {
      for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
      for (const cleanup of cleanups.reverse()) await cleanup()
    })

    it('has its run finished by another worker, with no cost counted twice', async () => {
      const database = await createTestDatabase(dialect)
      cleanups.push(database.drop)
      const env = {
        COSTWATCH_DATABASE_URL: database.url,
        COSTWATCH_SECRET_KEY: TEST_SECRET_KEY,
        COSTWATCH_CONNECTOR: 'simulated',
        COSTWATCH_RUN_LEASE_MS: '1500',
        COSTWATCH_WORKER_POLL_MS: '100',
      }
      const config = loadConfig(env)
      const db = openDatabase(database.url)
      cleanups.push(() => db.close())
      await migrateToLatest(db)
      const services = createServices({ db, config, clock: systemClock, ids: uuidV7Ids })
      const { organisation } = await services.organisations.create({ name: 'Killed', ownerEmail: 'ops@killed.example' })
      const owner = {
        organisationId: organisation.id,
        actor: { type: 'User' as const, id: null, name: 'test' },
        isOwner: true,
        tenancyRoles: new Map(),
      }
      const tenant = await services.tenants.create(owner, {
        name: 'Estate',
        cloudTenantId: 'killed.example.com',
        credentialType: 'ManagedIdentity',
      })
      const run = await services.snapshots.trigger(owner, tenant.id, true)

      // A slow first worker: a fifth of a second per day of costs.
      const first = await startWorker({ ...env, COSTWATCH_SIMULATED_LATENCY_MS: '200' })
      children.push(first)
      await until('the first worker to stage some costs', async () => {
        const staged = await db.kysely
          .selectFrom('costStaging')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('runId', 'like', `${run.id}:%`)
          .executeTakeFirstOrThrow()
        return Number(staged.n) > 1000
      })
      // A running run says what it is doing.
      await until('progress to show', async () =>
        (await services.snapshotStore.get(tenant.id, run.id))?.progress?.startsWith('collecting costs'),
      )
      first.kill('SIGKILL')
      await new Promise((resolve) => first.once('exit', resolve))
      const interrupted = await services.snapshotStore.get(tenant.id, run.id)
      expect(interrupted?.status).toBe('Running')

      const second = await startWorker(env)
      children.push(second)
      const done = await until('the run to finish', async () => {
        const r = await services.snapshotStore.get(tenant.id, run.id)
        return r && (r.status === 'Succeeded' || r.status === 'Failed') ? r : null
      })
      expect(done.status, JSON.stringify(done.error)).toBe('Succeeded')
      const row = await db.kysely
        .selectFrom('snapshotRuns')
        .select('attempts')
        .where('id', '=', run.id)
        .executeTakeFirstOrThrow()
      expect(row.attempts).toBe(2)

      let expected = 0
      let expectedRows = 0
      const conn = simulatedConnection(tenant)
      for await (const batch of createSimulatedConnector().dailyCosts(
        conn,
        {
          from: done.periodStart!,
          to: done.periodEnd!,
        },
        { clock: systemClock },
      )) {
        expectedRows += batch.length
        for (const r of batch) expected += r.cost
      }
      const stored = await db.kysely
        .selectFrom('dailyCosts')
        .select((eb) => [eb.fn.sum<number>('cost').as('total'), eb.fn.countAll<number>().as('rows')])
        .where('tenantId', '=', tenant.id)
        .executeTakeFirstOrThrow()
      expect(Number(stored.rows)).toBe(expectedRows)
      expect(Number(stored.total)).toBeCloseTo(expected, 4)
      expect(done.stats.costRows).toBe(expectedRows)
      expect(await db.kysely.selectFrom('costStaging').selectAll().execute()).toEqual([])
    })
  })
}
