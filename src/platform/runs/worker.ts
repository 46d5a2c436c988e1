import type { Clock } from '../clock.js'
import type { Db, Queryable } from '../db/index.js'
import type { RunEvents, RunFailure } from './events.js'
import {
  type ClaimedRun,
  createRunStore,
  LeaseLostError,
  type RunPartition,
  type RunStore,
  type RunTable,
} from './store.js'

export interface RunContext<Extra extends object> {
  /** Aborted when the lease is lost: stop, another worker has the run. */
  signal: AbortSignal
  /** What the run is doing now; shown in the run record with the next heartbeat. */
  progress(message: string): void
  /**
   * Records success, `work` writing the run's data in the same transaction (see RunStore.succeed). A handler
   * that returns without calling it succeeds with nothing more to record.
   */
  succeed(work: (tx: Queryable) => Promise<Partial<Extra>>): Promise<void>
  /** Commits one step of the run's work on its own, the run going on (see RunStore.commitStep). */
  commitStep(work: (tx: Queryable) => Promise<void>): Promise<void>
}

/**
 * A failure as the run records it, and whether another attempt may go better; `retryAfterMs`, when the other
 * side asked for a pause (an HTTP Retry-After), makes the next attempt wait at least that long.
 */
export type RunOutcome = RunFailure & { retry: boolean; retryAfterMs?: number }

/** A kind of run: its table (see RunColumns) and how to do one. */
export interface RunKind<Extra extends object = object> extends RunTable {
  handle(run: ClaimedRun, ctx: RunContext<Extra>): Promise<void>
  /** What a thrown error means for the run; by default `run_failed`, retried. */
  failure?(error: unknown): RunOutcome
  /** Tidies up after a failed attempt (staged rows), before the failure is recorded. */
  afterFailure?(run: ClaimedRun): Promise<void>
  /**
   * Tidies up after runs whose worker stopped answering, once they are requeued or failed for good (what a
   * killed process left behind on this machine: a report run's temporary folder).
   */
  afterRecovery?(runIds: string[]): Promise<void>
  /** Called once, at the worker's first turn, before it claims anything (the same, for processes that died). */
  atStart?(): Promise<void>
  /** The pause before the next attempt once `attempts` failed; by default 30 s, then 2 min, 8 min... (at most 1 h). */
  retryDelayMs?(attempts: number): number
  /** Attempts before a run of this kind fails for good, when it differs from the worker's (mail keeps trying). */
  maxAttempts?: number
  /** Runs of this kind one worker does at once (1 by default): a slow one then holds only its own slot. */
  slots?: number
  /**
   * At most `limit` runs of the same value of `column` at once in one worker (a notification's channel): the
   * claim skips rows whose partition is at its limit, so one slow partition never takes every slot.
   */
  partition?: RunPartition
}

export function defineRunKind<Extra extends object>(kind: RunKind<Extra>): RunKind<Extra> {
  return kind
}

const UNEXPECTED: RunOutcome = {
  code: 'run_failed',
  message: 'The run failed unexpectedly; the error was logged.',
  retry: true,
}
const defaultRetryDelayMs = (attempts: number) => Math.min(3_600_000, 30_000 * 4 ** (attempts - 1))

export interface WorkerOptions {
  db: Db
  kinds: RunKind[]
  events: RunEvents
  clock: Clock
  workerId: string
  pollMs?: number
  leaseMs?: number
  /** Attempts of a run, interrupted or failed, before it fails for good. */
  maxAttempts?: number
  /** Called once per loop turn (e.g. to enqueue scheduled runs). */
  tick?(now: Date): Promise<void>
  log?(level: 'info' | 'warn' | 'error', message: string, err?: unknown): void
}

/**
 * Serves every kind of run in one loop, with one slot per kind unless the kind asks for more: a kind's run is
 * claimed as soon as one of its slots is free, whatever the other kinds are doing, so a ten-minute snapshot never
 * holds up a report. The lease is
 * heartbeated while a handler works, and dead workers' runs go back to the queue.
 */
export function createWorker(options: WorkerOptions) {
  const { clock, workerId } = options
  const pollMs = options.pollMs ?? 1000
  const leaseMs = options.leaseMs ?? 60_000
  const maxAttempts = options.maxAttempts ?? 3
  const lanes = options.kinds.map((kind) => ({
    kind,
    store: createRunStore<object>(options.db, kind, { clock, events: options.events }) as RunStore<object>,
    /** The runs in progress, at most `slots`. */
    busy: new Set<Promise<void>>(),
    slots: Math.max(1, kind.slots ?? 1),
    maxAttempts: kind.maxAttempts ?? maxAttempts,
    /** Runs in progress by value of the kind's partition column. */
    inPartition: new Map<string, number>(),
  }))
  type Lane = (typeof lanes)[number]
  let running = false
  let wake: (() => void) | null = null
  /**
   * Set when a slot frees or a run is queued while the loop is not asleep (claiming, recovering): the loop then
   * turns again at once instead of sleeping a whole poll, so a run finishing mid-turn never idles its slot.
   */
  let woken = false
  const wakeUp = () => {
    woken = true
    wake?.()
  }
  let loop: Promise<void> | null = null
  let next = 0 // the lane that claims first in the next turn, so claims take turns across kinds

  /** Does the run, then counts it out of its partition. */
  async function work(lane: Lane, run: ClaimedRun): Promise<void> {
    try {
      await attempt(lane, run)
    } finally {
      const key = run.partition
      if (key != null) {
        const left = (lane.inPartition.get(key) ?? 1) - 1
        if (left > 0) lane.inPartition.set(key, left)
        else lane.inPartition.delete(key)
      }
    }
  }

  async function attempt({ kind, store, maxAttempts }: Lane, run: ClaimedRun): Promise<void> {
    const abort = new AbortController()
    let progress: string | undefined
    let succeeded = false
    const beat = setInterval(
      async () => {
        try {
          if (!(await store.heartbeat(run.id, workerId, leaseMs, progress))) abort.abort(new LeaseLostError())
        } catch (err) {
          options.log?.('warn', 'heartbeat failed', err)
        }
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    )
    const ctx: RunContext<object> = {
      signal: abort.signal,
      progress: (message) => {
        progress = message
      },
      succeed: async (write) => {
        await store.succeed(run, workerId, write)
        succeeded = true
      },
      commitStep: (write) => store.commitStep(run, workerId, write),
    }
    try {
      await kind.handle(run, ctx)
      if (!succeeded) await store.succeed(run, workerId)
    } catch (err) {
      if (abort.signal.aborted || err instanceof LeaseLostError) return
      try {
        const outcome = kind.failure?.(err) ?? UNEXPECTED
        const delayMs = Math.max((kind.retryDelayMs ?? defaultRetryDelayMs)(run.attempts), outcome.retryAfterMs ?? 0)
        const retryAt = outcome.retry && run.attempts < maxAttempts ? new Date(clock.now().getTime() + delayMs) : null
        await kind.afterFailure?.(run)
        await store.fail(run, workerId, { code: outcome.code, message: outcome.message }, { retryAt, cause: err })
      } catch (e) {
        options.log?.('error', `could not record the failure of ${kind.name} run ${run.id}`, e)
      }
    } finally {
      clearInterval(beat)
    }
  }

  /** A kind's tidying up: what it fails to tidy is logged, and never stops the worker. */
  async function tidy(kind: RunKind, what: string, work: () => Promise<void>): Promise<void> {
    try {
      await work()
    } catch (err) {
      options.log?.('warn', `could not tidy up ${what} of ${kind.name} runs`, err)
    }
  }

  let started = false
  /** At the first turn, each kind's start; then recovers expired leases of every kind, then runs the schedule. */
  async function prepare(): Promise<void> {
    if (!started) {
      started = true
      for (const { kind } of lanes) if (kind.atStart) await tidy(kind, 'at start', kind.atStart)
    }
    for (const lane of lanes) {
      const { runIds } = await lane.store.recoverExpired(lane.maxAttempts)
      const after = lane.kind.afterRecovery
      if (after && runIds.length) await tidy(lane.kind, 'after recovery', () => after(runIds))
    }
    await options.tick?.(clock.now())
  }

  /**
   * The lanes with a free slot in this turn's order, each with the run it claimed: a lane of several slots
   * claims until they are full or its queue has nothing due.
   */
  async function* claims(): AsyncGenerator<[Lane, ClaimedRun]> {
    const first = next
    for (let i = 0; i < lanes.length; i++) {
      const index = (first + i) % lanes.length
      const lane = lanes[index]!
      while (lane.busy.size < lane.slots) {
        const limit = lane.kind.partition
        const full = limit ? [...lane.inPartition].filter(([, n]) => n >= limit.limit).map(([value]) => value) : []
        const run = await lane.store.claim(
          workerId,
          leaseMs,
          limit ? { partition: { column: limit.column, full } } : {},
        )
        if (!run) break
        if (run.partition != null) lane.inPartition.set(run.partition, (lane.inPartition.get(run.partition) ?? 0) + 1)
        // The next turn starts after the kind that last claimed, so idle kinds (no mail to send) never give one
        // busy kind two turns in a row.
        next = (first + i + 1) % lanes.length
        yield [lane, run]
      }
    }
  }

  return {
    /** One pass: recover, tick, claim and do at most one run, of the kind whose turn it is. For tests and the command line. */
    async runOnce(): Promise<boolean> {
      await prepare()
      for await (const [lane, run] of claims()) {
        await work(lane, run)
        return true
      }
      return false
    },
    start() {
      if (running) return
      running = true
      loop = (async () => {
        while (running) {
          let claimed = false
          woken = false
          try {
            await prepare()
            for await (const [lane, run] of claims()) {
              claimed = true
              const busy: Promise<void> = work(lane, run).finally(() => {
                lane.busy.delete(busy)
                wakeUp() // a slot is free: look for its next run at once
              })
              lane.busy.add(busy)
            }
          } catch (err) {
            options.log?.('error', 'worker loop failed', err)
          }
          if (!claimed && !woken && running) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, pollMs)
              wake = () => {
                clearTimeout(timer)
                resolve()
              }
            })
            wake = null
          }
        }
        await Promise.all(lanes.flatMap((lane) => [...lane.busy]))
      })()
    },
    /** Wakes an idle worker at once (a run was just queued in this process). */
    nudge() {
      wakeUp()
    },
    /** Stops claiming; resolves once the runs in progress are done. */
    async stop() {
      running = false
      wake?.()
      await loop
    },
  }
}
export type Worker = ReturnType<typeof createWorker>
