import { EventEmitter } from 'node:events'
import type { Clock } from '../clock.js'
import type { ClaimedRun, RunQueue } from './queue.js'

export interface RunHandler {
  /** Does the work of a claimed run and records its outcome (Succeeded or Failed) in the same transaction as its data. */
  handle(run: ClaimedRun, ctx: { signal: AbortSignal; progress(message: string): void }): Promise<void>
  /** Records an unexpected failure (the handler threw) as the run's error. */
  fail(run: ClaimedRun, error: unknown): Promise<void>
}

export interface WorkerOptions {
  queue: RunQueue
  handler: RunHandler
  clock: Clock
  workerId: string
  pollMs?: number
  leaseMs?: number
  maxAttempts?: number
  /** Called once per loop turn (e.g. to enqueue scheduled runs). */
  tick?(now: Date): Promise<void>
  log?(level: 'info' | 'warn' | 'error', message: string, err?: unknown): void
}

export interface WorkerEvents {
  'run:claimed': [ClaimedRun]
  'run:done': [ClaimedRun]
  'run:failed': [ClaimedRun, unknown]
  'run:lost': [ClaimedRun]
  idle: []
}

/**
 * Claims runs one at a time, heartbeats the lease while the handler works, and returns dead workers' runs
 * to the queue. Typed events let tests wait for a run and metrics count them.
 */
export function createWorker(options: WorkerOptions) {
  const { queue, handler, clock, workerId } = options
  const pollMs = options.pollMs ?? 1000
  const leaseMs = options.leaseMs ?? 60_000
  const maxAttempts = options.maxAttempts ?? 3
  const events = new EventEmitter<WorkerEvents>()
  let running = false
  let wake: (() => void) | null = null
  let loop: Promise<void> | null = null

  async function work(run: ClaimedRun): Promise<void> {
    const abort = new AbortController()
    let progress: string | undefined
    const beat = setInterval(
      async () => {
        try {
          if (!(await queue.heartbeat(run.id, workerId, clock.now(), leaseMs, progress))) {
            abort.abort(new Error('lease lost'))
            events.emit('run:lost', run)
          }
        } catch (err) {
          options.log?.('warn', 'heartbeat failed', err)
        }
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    )
    try {
      const report = (message: string) => {
        progress = message
      }
      await handler.handle(run, { signal: abort.signal, progress: report })
      events.emit('run:done', run)
    } catch (err) {
      if (!abort.signal.aborted) {
        await handler.fail(run, err).catch((e) => options.log?.('error', 'could not record a failed run', e))
        events.emit('run:failed', run, err)
      }
    } finally {
      clearInterval(beat)
    }
  }

  async function turn(): Promise<boolean> {
    const now = clock.now()
    await queue.recoverExpired(now, maxAttempts)
    await options.tick?.(now)
    const run = await queue.claim(workerId, now, leaseMs)
    if (!run) return false
    events.emit('run:claimed', run)
    await work(run)
    return true
  }

  return {
    events,
    /** One pass: recover, tick, claim and do at most one run. For tests and the command line. */
    runOnce: turn,
    start() {
      if (running) return
      running = true
      loop = (async () => {
        while (running) {
          let didWork = false
          try {
            didWork = await turn()
          } catch (err) {
            options.log?.('error', 'worker loop failed', err)
          }
          if (!didWork && running) {
            events.emit('idle')
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
      })()
    },
    /** Wakes an idle worker at once (a run was just queued in this process). */
    nudge() {
      wake?.()
    },
    async stop() {
      running = false
      wake?.()
      await loop
    },
  }
}
export type Worker = ReturnType<typeof createWorker>
