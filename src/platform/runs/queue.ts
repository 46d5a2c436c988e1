import { type Kysely, sql } from 'kysely'
import type { Database, DialectName } from '../db/index.js'

/** The tables whose rows are jobs: each has status, attempts, lease_until and worker_id columns. */
export type RunTable = 'snapshotRuns'

export interface ClaimedRun {
  id: string
  attempts: number
}

const SQL_TABLE: Record<RunTable, string> = { snapshotRuns: 'snapshot_runs' }

/**
 * The run row is the job. Every step is one statement, so two workers never share a run:
 * SQLite admits one writer at a time; PostgreSQL workers skip rows that others hold (SKIP LOCKED).
 */
export function createRunQueue(db: Kysely<Database>, dialect: DialectName, table: RunTable) {
  const name = sql.table(SQL_TABLE[table])
  const skipLocked = dialect === 'postgres' ? sql` for update skip locked` : sql``
  return {
    /** The oldest queued run, claimed with a lease; the clock's time, never now() in SQL. */
    async claim(workerId: string, now: Date, leaseMs: number): Promise<ClaimedRun | null> {
      const at = now.toISOString()
      const until = new Date(now.getTime() + leaseMs).toISOString()
      const result = await sql<ClaimedRun>`
        update ${name} set status = 'Running', worker_id = ${workerId}, attempts = attempts + 1,
          started_at = coalesce(started_at, ${at}), lease_until = ${until}
        where id = (select id from ${name} where status = 'Queued' order by requested_at, id limit 1${skipLocked})
          and status = 'Queued'
        returning id, attempts`.execute(db)
      return result.rows[0] ?? null
    },

    /** Extends the lease; false when the run is no longer this worker's (its lease expired and it moved on). */
    async heartbeat(id: string, workerId: string, now: Date, leaseMs: number, progress?: string): Promise<boolean> {
      const result = await db
        .updateTable(table)
        .set({ leaseUntil: new Date(now.getTime() + leaseMs).toISOString(), ...(progress ? { progress } : {}) })
        .where('id', '=', id)
        .where('workerId', '=', workerId)
        .where('status', '=', 'Running')
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    /**
     * Runs whose worker died (lease expired) go back to the queue, or fail once they used every attempt.
     * Returns how many were requeued and failed.
     */
    async recoverExpired(now: Date, maxAttempts: number): Promise<{ requeued: number; failed: number }> {
      const at = now.toISOString()
      const failed = await db
        .updateTable(table)
        .set({
          status: 'Failed',
          completedAt: at,
          leaseUntil: null,
          workerId: null,
          errorCode: 'attempts_exhausted',
          errorMessage: `The run was interrupted ${maxAttempts} times (its worker stopped answering) and was given up.`,
        })
        .where('status', '=', 'Running')
        .where('leaseUntil', '<', at)
        .where('attempts', '>=', maxAttempts)
        .executeTakeFirst()
      const requeued = await db
        .updateTable(table)
        .set({
          status: 'Queued',
          leaseUntil: null,
          workerId: null,
          progress: 'requeued after its worker stopped answering',
        })
        .where('status', '=', 'Running')
        .where('leaseUntil', '<', at)
        .executeTakeFirst()
      return { requeued: Number(requeued.numUpdatedRows), failed: Number(failed.numUpdatedRows) }
    },
  }
}
export type RunQueue = ReturnType<typeof createRunQueue>
