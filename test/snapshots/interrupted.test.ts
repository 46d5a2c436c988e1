import { describe, expect, it } from 'vitest'
import { createSimulatedConnector } from '../../src/connectors/simulated/index.js'
import { systemClock } from '../../src/platform/clock.js'
import { simulatedConnection } from '../support/connection.js'
import { costRowsOf } from '../support/cost-rows.js'
import { testDialects } from '../support/dialects.js'
import { until, useWorkerProcesses } from '../support/worker.js'

for (const dialect of testDialects()) {
  describe(`${dialect}: a worker killed mid-run`, () => {
    const workers = useWorkerProcesses()

    it('has its run finished by another worker, with no cost counted twice', async () => {
      const {
        env,
        db,
        services,
        owner,
        tenant: newTenant,
      } = await workers.database(dialect, {
        COSTWATCH_RUN_LEASE_MS: '1500',
        COSTWATCH_WORKER_POLL_MS: '100',
      })
      const tenant = await newTenant('Estate')
      const run = await services.snapshots.trigger(owner, tenant.id, true)

      // A slow first worker: a fifth of a second per day of costs.
      const first = await workers.start({ ...env, COSTWATCH_SIMULATED_LATENCY_MS: '200' })
      // A running run says what it is doing: here, how many cost rows it has staged (on SQLite in the worker's
      // own TEMP database, which no other connection sees).
      await until('the first worker to stage some costs', async () => {
        const progress = (await services.snapshotStore.get(tenant.id, run.id))?.progress ?? ''
        const staged = /^collecting costs: (\d+) rows so far$/.exec(progress)
        return staged !== null && Number(staged[1]) > 1000
      })
      first.kill('SIGKILL')
      await new Promise((resolve) => first.once('exit', resolve))
      const interrupted = await services.snapshotStore.get(tenant.id, run.id)
      expect(interrupted?.status).toBe('Running')

      await workers.start(env)
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
      const stored = await costRowsOf(db.kysely, tenant.id)
        .select((eb) => [eb.fn.sum<number>('cost').as('total'), eb.fn.countAll<number>().as('rows')])
        .executeTakeFirstOrThrow()
      expect(Number(stored.rows)).toBe(expectedRows)
      expect(Number(stored.total)).toBeCloseTo(expected, 4)
      expect(done.stats.costRows).toBe(expectedRows)
      expect(await db.kysely.selectFrom('costStaging').selectAll().execute()).toEqual([])
    })
  })
}
