import { type Kysely, sql } from 'kysely'
import type { Clock } from '../clock.js'
import type { Db, Queryable } from '../db/index.js'
import type { RunColumns } from '../db/schema.js'
import type { RunEvent, RunEvents, RunFailure } from './events.js'

export type { RunColumns }

/** A kind of run and the table of its rows, e.g. `{ name: 'snapshot', table: 'snapshot_runs' }`. */
export interface RunTable {
  name: string
  table: string
}

/** A run a worker holds: `claimedAt` starts this attempt's duration. */
export interface ClaimedRun {
  id: string
  tenantId: string | null
  attempts: number
  claimedAt: Date
  /** The run's value of its kind's partition column, when the claim named one. */
  partition?: string | null
}

/** The run is no longer this worker's (its lease expired and another worker took it over). */
export class LeaseLostError extends Error {
  constructor() {
    super('The run was taken over by another worker.')
  }
}

/** Runs one worker does at once per value of a column of the kind (see RunKind.partition); the worker counts them. */
export interface RunPartition {
  /** The column, as SQL names it (`channel_id`). */
  column: string
  limit: number
}

export type NewRun<Extra> = { id: string; tenantId: string | null; requestedAt: string } & Partial<Extra>

type RunDatabase = Record<string, RunColumns>

/**
 * The whole life of the rows of one run table: queued, claimed with a lease, heartbeats, succeeded, failed or
 * requeued for another attempt, and recovered when their worker died. Each step is one statement on the run
 * row, so two workers never share a run: SQLite admits one writer at a time; PostgreSQL workers skip rows that
 * others hold (SKIP LOCKED). Every change is a run event (events.ts), delivered in its transaction and after it.
 * Times come from the clock, never from now() in SQL. `Extra` types the kind's own columns.
 */
export function createRunStore<Extra extends object = Record<never, never>>(
  db: Db,
  kind: RunTable,
  deps: { clock: Clock; events: RunEvents },
) {
  const { clock, events } = deps
  const runs = (q: Queryable) => q as unknown as Kysely<RunDatabase>
  const table = kind.table
  const name = sql.table(table)
  const skipLocked = db.dialect === 'postgres' ? sql` for update skip locked` : sql``
  const base = (row: { id: string; tenantId: string | null }) => ({
    kind: kind.name,
    runId: row.id,
    tenantId: row.tenantId,
  })

  /** Runs `write` in a transaction with the events it returns, then tells the listeners once it committed. */
  async function change<T>(write: (tx: Queryable) => Promise<{ result: T; events: RunEvent[] }>): Promise<T> {
    const done = await db.kysely.transaction().execute(async (tx) => {
      const out = await write(tx)
      await events.writing(tx, out.events)
      return out
    })
    await events.committed(done.events)
    return done.result
  }

  return {
    kind,

    /**
     * Inserts a queued run (with the kind's own columns); a unique index of the kind may refuse it. `also` writes
     * what the kind keeps beside the row (a report run's tenancies) in the same transaction.
     */
    async queue(values: NewRun<Extra>, also?: (tx: Queryable) => Promise<void>): Promise<void> {
      await change(async (tx) => {
        await runs(tx)
          .insertInto(table)
          .values({ ...values, status: 'Queued' })
          .execute()
        await also?.(tx)
        return { result: undefined, events: [{ type: 'run:queued', ...base(values) }] }
      })
    },

    /**
     * Records a run done inline by the caller (an import): `work` writes the run's data in the transaction that
     * inserts the run as Succeeded, and returns the kind's columns to record with it.
     */
    async recordDone(values: NewRun<Extra>, work: (tx: Queryable) => Promise<Partial<Extra>>): Promise<void> {
      const started = clock.now()
      await change(async (tx) => {
        const outcome = await work(tx)
        const completed = clock.now()
        await runs(tx)
          .insertInto(table)
          .values({
            ...values,
            ...outcome,
            status: 'Succeeded',
            attempts: 1,
            startedAt: started.toISOString(),
            completedAt: completed.toISOString(),
          })
          .execute()
        const durationMs = completed.getTime() - started.getTime()
        return { result: undefined, events: [{ type: 'run:succeeded', ...base(values), attempts: 1, durationMs }] }
      })
    },

    /**
     * Inserts a run already Running for `workerId`, for work the caller does itself (an import): its heartbeats
     * extend the lease and show progress, and it ends with `succeed` or `fail` like a claimed run. Should the
     * caller die, the lease expires and the workers recover the run as they recover their own.
     */
    async begin(values: NewRun<Extra>, workerId: string, leaseMs: number): Promise<ClaimedRun> {
      const now = clock.now()
      await change(async (tx) => {
        await runs(tx)
          .insertInto(table)
          .values({
            ...values,
            status: 'Running',
            attempts: 1,
            startedAt: now.toISOString(),
            workerId,
            leaseUntil: new Date(now.getTime() + leaseMs).toISOString(),
          })
          .execute()
        return { result: undefined, events: [{ type: 'run:started', ...base(values), attempts: 1 }] }
      })
      return { id: values.id, tenantId: values.tenantId, attempts: 1, claimedAt: now }
    },

    /**
     * The oldest queued run that is due, claimed with a lease; with a `partition`, the oldest whose value of the
     * partition's column is not one of `full` (those the worker already runs at their limit: it keeps the count,
     * so the queue is read past a long backlog of one partition with a comparison per row, not a count).
     */
    async claim(
      workerId: string,
      leaseMs: number,
      options: { partition?: { column: string; full: readonly string[] } } = {},
    ): Promise<ClaimedRun | null> {
      const now = clock.now()
      const at = now.toISOString()
      const until = new Date(now.getTime() + leaseMs).toISOString()
      const { partition } = options
      const column = partition ? sql.ref(partition.column) : null
      const notFull =
        partition && column && partition.full.length
          ? sql` and q.${column} not in (${sql.join(partition.full.map((v) => sql`${v}`))})`
          : sql``
      const partitionOut = column ? sql`, ${column} as partition_key` : sql``
      return change(async (tx) => {
        const result = await sql<{ id: string; tenantId: string | null; attempts: number; partitionKey?: string }>`
          update ${name} set status = 'Running', worker_id = ${workerId}, attempts = attempts + 1,
            started_at = coalesce(started_at, ${at}), lease_until = ${until}, not_before = null,
            progress = null
          where id = (select q.id from ${name} q where q.status = 'Queued'
                        and (q.not_before is null or q.not_before <= ${at})${notFull}
                      order by q.requested_at, q.id limit 1${skipLocked})
            and status = 'Queued'
          returning id, attempts, tenant_id${partitionOut}`.execute(tx)
        const row = result.rows[0]
        if (!row) return { result: null, events: [] }
        return {
          result: {
            id: row.id,
            tenantId: row.tenantId,
            attempts: row.attempts,
            claimedAt: now,
            ...(column ? { partition: row.partitionKey ?? null } : {}),
          },
          events: [{ type: 'run:started', ...base(row), attempts: row.attempts }],
        }
      })
    },

    /** Extends the lease; false when the run is no longer this worker's. The progress shows in the run record. */
    async heartbeat(id: string, workerId: string, leaseMs: number, progress?: string): Promise<boolean> {
      const result = await runs(db.kysely)
        .updateTable(table)
        .set({ leaseUntil: new Date(clock.now().getTime() + leaseMs).toISOString(), ...(progress ? { progress } : {}) })
        .where('id', '=', id)
        .where('workerId', '=', workerId)
        .where('status', '=', 'Running')
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    /**
     * One step of a long run's work committed on its own, before the run ends (a pull's billing period): `work`
     * runs in a transaction that first checks the run is still this worker's, so a worker that lost its lease
     * commits nothing more (LeaseLostError). A step leaves the run Running; what it wrote stays should a later
     * step fail.
     */
    async commitStep(run: ClaimedRun, workerId: string, work: (tx: Queryable) => Promise<void>) {
      await db.kysely.transaction().execute(async (tx) => {
        const row = await runs(tx)
          .updateTable(table)
          .set({ workerId })
          .where('id', '=', run.id)
          .where('workerId', '=', workerId)
          .where('status', '=', 'Running')
          .returning('id')
          .executeTakeFirst()
        if (!row) throw new LeaseLostError()
        await work(tx)
      })
    },

    /**
     * Success: `work` writes the run's data in the same transaction that marks the run Succeeded, and returns the
     * kind's columns to record with it; nothing of it commits when the run is no longer this worker's
     * (LeaseLostError: the worker that took it over writes instead).
     */
    async succeed(run: ClaimedRun, workerId: string, work?: (tx: Queryable) => Promise<Partial<Extra>>) {
      await change(async (tx) => {
        const outcome = (await work?.(tx)) ?? {}
        const now = clock.now()
        const row = await runs(tx)
          .updateTable(table)
          .set({
            ...outcome,
            status: 'Succeeded',
            completedAt: now.toISOString(),
            leaseUntil: null,
            progress: null,
          })
          .where('id', '=', run.id)
          .where('workerId', '=', workerId)
          .where('status', '=', 'Running')
          .returning(['id', 'tenantId', 'attempts'])
          .executeTakeFirst()
        if (!row) throw new LeaseLostError()
        const durationMs = now.getTime() - run.claimedAt.getTime()
        return {
          result: undefined,
          events: [{ type: 'run:succeeded', ...base(row), attempts: row.attempts, durationMs }],
        }
      })
    },

    /**
     * A failed attempt: back to Queued, due at `retryAt`, or Failed for good when `retryAt` is null. Nothing
     * happens when the run is no longer this worker's.
     */
    async fail(
      run: ClaimedRun,
      workerId: string,
      failure: RunFailure,
      options: { retryAt: Date | null; cause?: unknown },
    ): Promise<void> {
      const now = clock.now()
      const { retryAt, cause } = options
      await change(async (tx) => {
        const row = await runs(tx)
          .updateTable(table)
          .set(
            retryAt
              ? {
                  status: 'Queued',
                  leaseUntil: null,
                  workerId: null,
                  notBefore: retryAt.toISOString(),
                  progress: `attempt ${run.attempts} failed (${failure.code}); the next starts from ${retryAt.toISOString()}`,
                }
              : {
                  status: 'Failed',
                  completedAt: now.toISOString(),
                  leaseUntil: null,
                  errorCode: failure.code,
                  errorMessage: failure.message,
                },
          )
          .where('id', '=', run.id)
          .where('workerId', '=', workerId)
          .where('status', '=', 'Running')
          .returning(['id', 'tenantId', 'attempts'])
          .executeTakeFirst()
        if (!row) return { result: undefined, events: [] }
        const common = {
          ...base(row),
          attempts: row.attempts,
          durationMs: now.getTime() - run.claimedAt.getTime(),
          error: failure,
          cause,
          leaseExpired: false,
        }
        const event: RunEvent = retryAt
          ? { type: 'run:requeued', ...common, notBefore: retryAt.toISOString() }
          : { type: 'run:failed', ...common }
        return { result: undefined, events: [event] }
      })
    },

    /**
     * Runs whose worker died (lease expired) go back to the queue, or fail once they used every attempt: one
     * statement for both. Returns how many were requeued and failed, and their ids.
     */
    async recoverExpired(maxAttempts: number): Promise<{ requeued: number; failed: number; runIds: string[] }> {
      const at = clock.now().toISOString()
      // Nothing expired is the usual case (every worker turn asks): one read, no write transaction.
      const expired = await runs(db.kysely)
        .selectFrom(table)
        .select('id')
        .where('status', '=', 'Running')
        .where('leaseUntil', '<', at)
        .limit(1)
        .executeTakeFirst()
      if (!expired) return { requeued: 0, failed: 0, runIds: [] }
      const exhausted: RunFailure = {
        code: 'attempts_exhausted',
        message: `The run was interrupted ${maxAttempts} times (its worker stopped answering) and was given up.`,
      }
      const interrupted: RunFailure = { code: 'lease_expired', message: 'Its worker stopped answering.' }
      return change(async (tx) => {
        const gaveUp = sql<boolean>`attempts >= ${maxAttempts}`
        const result = await sql<{ id: string; tenantId: string | null; attempts: number; status: string }>`
          update ${name} set
            status = case when ${gaveUp} then 'Failed' else 'Queued' end,
            completed_at = case when ${gaveUp} then ${at} else completed_at end,
            error_code = case when ${gaveUp} then ${exhausted.code} else error_code end,
            error_message = case when ${gaveUp} then ${exhausted.message} else error_message end,
            progress = case when ${gaveUp} then progress else 'requeued after its worker stopped answering' end,
            lease_until = null, worker_id = null
          where status = 'Running' and lease_until < ${at}
          returning id, tenant_id, attempts, status`.execute(tx)
        const happened: RunEvent[] = result.rows.map((row) => {
          const common = { ...base(row), attempts: row.attempts, durationMs: null, leaseExpired: true }
          return row.status === 'Failed'
            ? { type: 'run:failed', ...common, error: exhausted }
            : { type: 'run:requeued', ...common, error: interrupted, notBefore: null }
        })
        const failed = happened.filter((e) => e.type === 'run:failed').length
        const runIds = result.rows.map((row) => row.id)
        return { result: { requeued: happened.length - failed, failed, runIds }, events: happened }
      })
    },

    /** Runs waiting in the queue (due or not), for the queue depth metric. */
    async depth(): Promise<number> {
      const row = await runs(db.kysely)
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'Queued')
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
  }
}
export type RunStore<Extra extends object = Record<never, never>> = ReturnType<typeof createRunStore<Extra>>
