import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'
import { useWorkerProcesses } from '../support/worker.js'

/** The value of one sample of a Prometheus text page, or undefined when it is not there. */
function sample(page: string, name: string): number | undefined {
  const line = page.split('\n').find((l) => l.startsWith(`${name} `))
  return line === undefined ? undefined : Number(line.slice(name.length + 1))
}

for (const dialect of testDialects()) {
  // Starts a worker process (tsx compiles on start): slow on a busy two-core machine.
  describe(`${dialect}: costwatch worker`, { timeout: 120_000 }, () => {
    const workers = useWorkerProcesses()

    it('serves /healthz and /metrics: runs by kind and status, durations, lease recoveries, queue depth; a failed run is logged with its id', async () => {
      const { env, db, services, owner, tenant } = await workers.database(dialect, {
        COSTWATCH_WORKER_POLL_MS: '100',
        COSTWATCH_SNAPSHOT_HOUR: '23',
      })
      const [ok, broken, orphaned, later] = [
        await tenant('Ok'),
        await tenant('Broken'),
        await tenant('Orphaned'),
        await tenant('Later'),
      ]
      // A connector no longer configured: the run fails for good at its first attempt.
      await db.kysely.updateTable('tenants').set({ connector: 'retired' }).where('id', '=', broken.id).execute()
      const good = await services.snapshots.trigger(owner, ok.id, false)
      const failing = await services.snapshots.trigger(owner, broken.id, false)
      // A run whose worker died an hour ago, lease long expired.
      const lost = await services.snapshots.trigger(owner, orphaned.id, false)
      const anHourAgo = new Date(Date.now() - 3_600_000).toISOString()
      await db.kysely
        .updateTable('snapshotRuns')
        .set({ status: 'Running', attempts: 1, workerId: 'a-dead-worker', startedAt: anHourAgo, leaseUntil: anHourAgo })
        .where('id', '=', lost.id)
        .execute()
      // A run waiting for its next attempt, an hour from now: it stays in the queue.
      const waiting = await services.snapshots.trigger(owner, later.id, false)
      const inAnHour = new Date(Date.now() + 3_600_000).toISOString()
      await db.kysely.updateTable('snapshotRuns').set({ notBefore: inAnHour }).where('id', '=', waiting.id).execute()

      const worker = await workers.start({ ...env, WORKER_PORT: '0' })
      const base = worker.output().match(/metrics (http:\/\/127\.0\.0\.1:\d+)\/metrics/)![1]!
      // Without SMTP, start-up says once that e-mail is off.
      expect(worker.output().split('COSTWATCH_SMTP_URL is not set: e-mail is off')).toHaveLength(2)
      const health = await fetch(`${base}/healthz`)
      expect(health.status).toBe(200)
      expect(await health.json()).toEqual({ status: 'ok' })

      const scrape = async () => {
        const res = await fetch(`${base}/metrics`)
        expect(res.status).toBe(200)
        expect(res.headers.get('content-type')).toContain('text/plain')
        return res.text()
      }
      const runs = (page: string, status: string) =>
        sample(page, `costwatch_runs_total{kind="snapshot",status="${status}"}`)
      await expect.poll(async () => runs(await scrape(), 'succeeded'), { timeout: 60_000, interval: 200 }).toBe(2)
      const page = await scrape()
      expect(runs(page, 'started')).toBe(3)
      expect(runs(page, 'failed')).toBe(1)
      expect(runs(page, 'requeued')).toBe(1)
      expect(runs(page, 'queued')).toBe(0) // queued by another process
      expect(sample(page, 'costwatch_run_lease_recoveries_total{kind="snapshot"}')).toBe(1)
      expect(sample(page, 'costwatch_run_duration_seconds_count{kind="snapshot",status="succeeded"}')).toBe(2)
      expect(sample(page, 'costwatch_run_duration_seconds_count{kind="snapshot",status="failed"}')).toBe(1)
      expect(sample(page, 'costwatch_run_queue_depth{kind="snapshot"}')).toBe(1)
      expect(page).toContain('process_cpu_user_seconds_total')

      for (const [t, run, status] of [
        [ok, good, 'Succeeded'],
        [broken, failing, 'Failed'],
        [orphaned, lost, 'Succeeded'],
        [later, waiting, 'Queued'],
      ] as const)
        expect((await services.snapshotStore.get(t.id, run.id))?.status).toBe(status)
      // The failure is in the worker's log, with the run's id and its error.
      const line = worker
        .output()
        .split('\n')
        .find((l) => l.includes(failing.id))
      expect(line, worker.output()).toBeDefined()
      expect(JSON.parse(line!)).toMatchObject({
        level: 50,
        kind: 'snapshot',
        runId: failing.id,
        tenantId: broken.id,
        code: 'connector_unknown',
        msg: `snapshot run ${failing.id} failed: No connector named "retired" is configured.`,
      })

      // A second worker asking for the same port is told so, and stops.
      const taken = await runCli(['worker'], { ...env, WORKER_PORT: new URL(base).port })
      expect(taken.code).toBe(1)
      expect(taken.stderr).toContain(`Setting WORKER_PORT: 127.0.0.1:${new URL(base).port} is in use`)
    })
  })
}
