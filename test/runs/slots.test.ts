import { sql } from 'kysely'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { uuidV7Ids } from '../../src/platform/clock.js'
import { createRunStore } from '../../src/platform/runs/store.js'
import { createWorker, defineRunKind } from '../../src/platform/runs/worker.js'
import { type TestApp, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { until } from '../support/worker.js'

/** A kind whose runs wait until the test releases them, each in its partition (`part`). */
const WAITS = { name: 'wait', table: 'test_waits' }
type WaitColumns = { part: string }

async function createWaitTable(t: TestApp) {
  await sql`create table test_waits (
    id text primary key, tenant_id text, status text not null, requested_at text not null, started_at text,
    completed_at text, attempts integer not null default 0, lease_until text, worker_id text, progress text,
    error_code text, error_message text, not_before text, part text not null)`.execute(t.db.kysely)
}

/** Runs in progress, released one by one by id. */
function gates() {
  const running = new Set<string>()
  const started: string[] = []
  const releases = new Map<string, () => void>()
  let open = false
  return {
    running,
    started,
    async enter(id: string) {
      running.add(id)
      started.push(id)
      if (!open) await new Promise<void>((resolve) => releases.set(id, resolve))
      running.delete(id)
    },
    release(id: string) {
      releases.get(id)?.()
    },
    /** Releases every run, and lets later ones through at once (the worker may claim more before it stops). */
    releaseAll() {
      open = true
      for (const r of releases.values()) r()
    },
  }
}

for (const dialect of testDialects()) {
  describe(`${dialect}: several slots per kind, a limit per partition`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z' })
    const waits = () => createRunStore<WaitColumns>(t.db, WAITS, { clock: t.clock, events: t.services.runEvents })
    const queue = async (part: string) => {
      const id = uuidV7Ids.uuid()
      await waits().queue({ id, tenantId: null, requestedAt: t.clock.now().toISOString(), part })
      return id
    }
    const statusOf = async (id: string) =>
      (await sql<{ status: string }>`select status from test_waits where id = ${id}`.execute(t.db.kysely)).rows[0]
        ?.status

    beforeAll(async () => {
      await createWaitTable(t)
    })
    beforeEach(async () => {
      await sql`delete from test_waits`.execute(t.db.kysely) // what an earlier test left queued
    })

    it('a kind of three slots does three runs at once; a fourth waits for a free slot', async () => {
      const g = gates()
      const kind = defineRunKind<WaitColumns>({ ...WAITS, slots: 3, handle: (run) => g.enter(run.id) })
      const ids = [await queue('a'), await queue('b'), await queue('c'), await queue('d')]
      const worker = t.worker({ moreKinds: [kind] })
      worker.start()
      try {
        await until('three runs at once', async () => g.running.size === 3)
        await new Promise((r) => setTimeout(r, 300)) // the worker polls again: still three
        expect(g.running.size).toBe(3)
        expect(await statusOf(ids[3]!)).toBe('Queued')
        g.release(ids[0]!)
        await until('the fourth to start', async () => g.running.has(ids[3]!))
        expect(await statusOf(ids[0]!)).toBe('Succeeded')
      } finally {
        g.releaseAll()
        await worker.stop()
      }
      for (const id of ids) expect(await statusOf(id)).toBe('Succeeded')
    })

    it('a partition at its limit is skipped: the runs of others go ahead of its queued ones', async () => {
      const g = gates()
      const kind = defineRunKind<WaitColumns>({
        ...WAITS,
        slots: 4,
        partition: { column: 'part', limit: 2 },
        handle: (run) => g.enter(run.id),
      })
      // Five runs of a slow partition queued first, then two of another.
      const slow = [await queue('slow'), await queue('slow'), await queue('slow'), await queue('slow')]
      t.clock.advance(1)
      const fast = [await queue('fast'), await queue('fast')]
      const worker = t.worker({ moreKinds: [kind] })
      worker.start()
      try {
        await until('four runs at once', async () => g.running.size === 4)
        expect(new Set(g.started)).toEqual(new Set([slow[0], slow[1], ...fast]))
        expect(await statusOf(slow[2]!)).toBe('Queued')
        g.release(fast[0]!)
        await new Promise((r) => setTimeout(r, 300)) // a free slot, but the slow partition is at its limit
        expect(await statusOf(slow[2]!)).toBe('Queued')
        g.release(slow[0]!)
        await until('the third slow run to start', async () => g.running.has(slow[2]!))
        expect(g.running.has(slow[3]!)).toBe(false)
      } finally {
        g.releaseAll()
        await worker.stop()
      }
      t.clock.set('2026-03-01T09:00:00.000Z')
    })

    it('a Retry-After longer than the backoff makes the next attempt wait for it', async () => {
      let calls = 0
      const kind = defineRunKind<WaitColumns>({
        ...WAITS,
        retryDelayMs: () => 5_000,
        async handle() {
          calls++
          throw new Error('busy')
        },
        failure: () => ({ code: 'busy', message: 'busy', retry: true, retryAfterMs: calls === 1 ? 60_000 : 1_000 }),
      })
      const id = await queue('retry')
      const worker = t.worker({ moreKinds: [kind] })
      while (await worker.runOnce()) {}
      expect(calls).toBe(1)
      t.clock.advance(59_999)
      expect(await worker.runOnce()).toBe(false)
      t.clock.advance(1)
      expect(await worker.runOnce()).toBe(true)
      // A Retry-After shorter than the backoff does not shorten it.
      t.clock.advance(4_999)
      expect(await worker.runOnce()).toBe(false)
      t.clock.advance(1)
      expect(await worker.runOnce()).toBe(true)
      expect(await statusOf(id)).toBe('Failed')
      t.clock.set('2026-03-01T09:00:00.000Z')
    })

    it('a slot freed while the worker is claiming is filled at once, not after a whole poll', async () => {
      // A partition at its limit with a long queue makes each claim slow (the queue is read past it): the short
      // runs of the other partition end while the worker waits for a claim's answer. With a poll of a minute,
      // each such end missed would leave its slot idle for that minute.
      const g = gates()
      const kind = defineRunKind<WaitColumns>({
        ...WAITS,
        slots: 4,
        partition: { column: 'part', limit: 2 },
        handle: (run) =>
          run.id.startsWith('quick-') ? new Promise((resolve) => setTimeout(resolve, 2)) : g.enter(run.id),
      })
      const at = t.clock.now().toISOString()
      const rows = (prefix: string, part: string, n: number) =>
        Array.from({ length: n }, (_, i) => ({
          id: `${prefix}-${String(i).padStart(5, '0')}`,
          status: 'Queued',
          requested_at: at,
          part,
        }))
      const insert = async (values: ReturnType<typeof rows>) => {
        for (let i = 0; i < values.length; i += 500)
          await t.db.kysely
            .insertInto('test_waits' as never)
            .values(values.slice(i, i + 500) as never)
            .execute()
      }
      // The blocked partition's runs come first in the queue (same time, ids sorting before the quick ones').
      await insert(rows('blocked', 'slow', 3000))
      await insert(rows('quick', 'fast', 60))
      const worker = createWorker({
        db: t.db,
        kinds: [kind],
        events: t.services.runEvents,
        clock: t.clock,
        workerId: 'quick-runs',
        pollMs: 60_000,
      })
      const started = Date.now()
      worker.start()
      try {
        await until(
          'every quick run to succeed',
          async () =>
            Number(
              (
                await sql<{ n: number }>`select count(*) as n from test_waits
                  where status = 'Succeeded' and part = 'fast'`.execute(t.db.kysely)
              ).rows[0]?.n,
            ) === 60,
          30_000,
        )
        expect(Date.now() - started).toBeLessThan(30_000)
      } finally {
        g.releaseAll()
        await sql`delete from test_waits where part = 'slow' and status = 'Queued'`.execute(t.db.kysely)
        await worker.stop()
      }
    })
  })
}
