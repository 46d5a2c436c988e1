import { type Kysely, sql } from 'kysely'
import { bumpVersionOfTenancies as bumpCollectionVersion } from '../cache.js'
import type { Database, DialectName } from '../db/index.js'

/** The tables whose rows are jobs: each has tenant_id, status, attempts, lease_until and worker_id columns. */
export type RunTable = 'snapshotRuns'

export interface ClaimedRun {
  id: string
  attempts: number
}

const SQL_TABLE: Record<RunTable, string> = { snapshotRuns: 'snapshot_runs' }

/**
 * The run row is the job. Every step is one statement on the run rows, so two workers never share a run:
 * SQLite admits one writer at a time; PostgreSQL workers skip rows that others hold (SKIP LOCKED).
 *
 * A change of a run's status changes its tenant's `lastSnapshot` in the tenant list, so `claim` and
 * `recoverExpired` bump the collection version of the runs' organisations in the same transaction, after that
 * statement (see bumpCollectionVersion). The heartbeat changes nothing the list shows.
 */
export function createRunQueue(db: Kysely<Database>, dialect: DialectName, table: RunTable) {
  const name = sql.table(SQL_TABLE[table])
  const skipLocked = dialect === 'postgres' ? sql` for update skip locked` : sql``
  return {
    /** The oldest queued run, claimed with a lease; the clock's time, never now() in SQL. */
    async claim(workerId: string, now: Date, leaseMs: number): Promise<ClaimedRun | null> {
      const at = now.toISOString()
      const until = new Date(now.getTime() + leaseMs).toISOString()
      return db.transaction().execute(async (trx) => {
        const result = await sql<ClaimedRun & { tenantId: string }>`
          update ${name} set status = 'Running', worker_id = ${workerId}, attempts = attempts + 1,
            started_at = coalesce(started_at, ${at}), lease_until = ${until}
          where id = (select id from ${name} where status = 'Queued' order by requested_at, id limit 1${skipLocked})
            and status = 'Queued'
          returning id, attempts, tenant_id`.execute(trx)
        const claimed = result.rows[0]
        if (!claimed) return null
        await bumpCollectionVersion(trx, claimed.tenantId)
        return { id: claimed.id, attempts: claimed.attempts }
      })
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
      // Nothing expired is the usual case (every worker turn asks): one read, no write transaction.
      const expired = await db
        .selectFrom(table)
        .select('id')
        .where('status', '=', 'Running')
        .where('leaseUntil', '<', at)
        .limit(1)
        .executeTakeFirst()
      if (!expired) return { requeued: 0, failed: 0 }
      return db.transaction().execute(async (trx) => {
        const failed = await trx
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
          .returning('tenantId')
          .execute()
        const requeued = await trx
          .updateTable(table)
          .set({
            status: 'Queued',
            leaseUntil: null,
            workerId: null,
            progress: 'requeued after its worker stopped answering',
          })
          .where('status', '=', 'Running')
          .where('leaseUntil', '<', at)
          .returning('tenantId')
          .execute()
        await bumpCollectionVersion(
          trx,
          [...failed, ...requeued].map((r) => r.tenantId),
        )
        return { requeued: requeued.length, failed: failed.length }
      })
    },
  }
}
export type RunQueue = ReturnType<typeof createRunQueue>
