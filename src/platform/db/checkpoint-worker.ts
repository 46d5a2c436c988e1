/**
 * The checkpoint thread of `checkpointInBackground`: a connection of its own to the database file, and a PASSIVE
 * checkpoint every `intervalMs`. PASSIVE copies what no reader still needs and never waits; another
 * checkpoint already running (another process's) makes it SQLITE_BUSY, tried again at the next tick.
 */
import { workerData } from 'node:worker_threads'
import SqliteDatabase from 'better-sqlite3'
import type { CheckpointSettings } from './checkpoints.js'

const settings = workerData as CheckpointSettings
const sqlite = new SqliteDatabase(settings.file, { fileMustExist: true })

setInterval(() => {
  try {
    sqlite.pragma('wal_checkpoint(PASSIVE)')
  } catch (err) {
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err
  }
}, settings.intervalMs)
