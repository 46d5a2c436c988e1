import type { Queryable } from '../db/index.js'

/** What every run event says: which kind of run, which run, whose (null for a run of no tenant). */
interface RunEventBase {
  kind: string
  runId: string
  tenantId: string | null
}

export interface RunFailure {
  code: string
  message: string
}

export interface RunEventMap {
  'run:queued': RunEventBase
  'run:started': RunEventBase & { attempts: number }
  /** `durationMs`: of the attempt that succeeded. */
  'run:succeeded': RunEventBase & { attempts: number; durationMs: number }
  /**
   * Failed for good. `durationMs` is the attempt's, null when its worker stopped answering (`leaseExpired`);
   * `cause` is what the handler threw, for the log (never shown to API callers).
   */
  'run:failed': RunEventBase & {
    attempts: number
    durationMs: number | null
    error: RunFailure
    cause?: unknown
    leaseExpired: boolean
  }
  /** Back to Queued for another attempt, not before `notBefore` (null: at once, after an expired lease). */
  'run:requeued': RunEventBase & {
    attempts: number
    durationMs: number | null
    error: RunFailure
    cause?: unknown
    notBefore: string | null
    leaseExpired: boolean
  }
}
export type RunEventType = keyof RunEventMap
export type RunEvent = { [T in RunEventType]: RunEventMap[T] & { type: T } }[RunEventType]

type Listener<T extends RunEventType> = (event: RunEventMap[T] & { type: T }) => void | Promise<void>

/**
 * The run events of one process. The run store (store.ts) delivers each change of a run row twice:
 *
 * - `beforeCommit` listeners run in the transaction that changed the row, so what they write commits with the
 *   change or not at all (a cache version that must never lag behind the rows it covers);
 * - `on` listeners run after the commit (logs, metrics, follow-up runs); they are awaited, and a listener that
 *   throws is reported to `onListenerError`, never to the code that changed the run.
 */
export function createRunEvents(options: { onListenerError?(err: unknown, event: RunEvent): void } = {}) {
  const inTransaction: ((db: Queryable, events: RunEvent[]) => Promise<void>)[] = []
  const listeners = new Map<RunEventType, Listener<RunEventType>[]>()
  return {
    beforeCommit(listener: (db: Queryable, events: RunEvent[]) => Promise<void>): void {
      inTransaction.push(listener)
    },

    on<T extends RunEventType>(type: T, listener: Listener<T>): void {
      listeners.set(type, [...(listeners.get(type) ?? []), listener as Listener<RunEventType>])
    },

    /** For the run store: inside the transaction of the change. */
    async writing(db: Queryable, events: RunEvent[]): Promise<void> {
      if (events.length === 0) return
      for (const listener of inTransaction) await listener(db, events)
    },

    /** For the run store: once the change committed. */
    async committed(events: RunEvent[]): Promise<void> {
      for (const event of events) {
        for (const listener of listeners.get(event.type) ?? []) {
          try {
            await listener(event)
          } catch (err) {
            options.onListenerError?.(err, event)
          }
        }
      }
    },
  }
}
export type RunEvents = ReturnType<typeof createRunEvents>
