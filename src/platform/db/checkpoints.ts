import type SqliteDatabase from 'better-sqlite3'
import { startThread } from '../threads.js'

/** How often the checkpoint thread looks for committed pages to copy into the database file. */
export const CHECKPOINT_INTERVAL_MS = 100

/** What the checkpoint thread is given. */
export interface CheckpointSettings {
  file: string
  intervalMs: number
}

/**
 * A SQLite connection's WAL checkpointed by a thread of its own instead of by the connection's commits. SQLite's
 * automatic checkpoint runs inside the COMMIT of whichever connection crosses 1,000 pages of WAL: for a worker that
 * writes a pull's billing period (about 100 MB of pages), that commit copied every page into the database file and
 * synced it while the thread that merges the pull waited. Here `wal_autocheckpoint` is off on the connection and a
 * thread with a connection of its own runs a PASSIVE checkpoint (it never waits for a reader or the writer) every
 * CHECKPOINT_INTERVAL_MS, beside the writes. Other processes' connections keep their automatic checkpoints.
 *
 * Should the thread stop (an error), the connection gets its automatic checkpoints back, so the WAL never grows
 * without end. Returns what stops the thread (before the connection closes).
 */
export function checkpointInBackground(sqlite: SqliteDatabase.Database, file: string): () => Promise<void> {
  sqlite.pragma('wal_autocheckpoint = 0')
  const settings: CheckpointSettings = { file, intervalMs: CHECKPOINT_INTERVAL_MS }
  // A small heap: the thread holds a connection and a timer, nothing else.
  const thread = startThread(import.meta.url, 'checkpoint-worker', {
    workerData: settings,
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
  })
  let stopping = false
  const automatic = () => {
    if (!stopping && sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000')
  }
  thread.on('error', automatic)
  thread.on('exit', automatic)
  // It never keeps the process alive on its own.
  thread.unref()
  return async () => {
    stopping = true
    await thread.terminate()
  }
}
