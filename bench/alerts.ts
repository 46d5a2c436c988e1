/**
 * Alerts end to end, against local webhook receivers (bench/alerts-receiver.ts, each in a process of its own),
 * with the real server (bench/server.ts) and the real `costwatch worker` (src/main.ts, default poll), both allowed
 * to reach 127.0.0.1 through COSTWATCH_OUTBOUND_ALLOW. Channels and rules are made through the public API.
 *
 * - Alert latency: BENCH_ALERTS_REPEATS times (20), one more resource's cost of yesterday is raised tenfold and
 *   its days analysed; from the analysis run's commit (its completedAt) to the first webhook's arrival. Target:
 *   p95 under 10 s with the default worker poll.
 * - Isolation: BENCH_ALERTS_DELIVERIES (10,000) deliveries queued as alert runs queue them (queueDeliveries), half
 *   to a receiver that answers in 2 s and half to one that answers at once, BENCH_ALERTS_RATE (50) a second of each
 *   in batches every 400 ms: a load the worker keeps up with, so that the p95 measures a delivery's wait and not a
 *   backlog (offered more than it sends, every run's p95 is the backlog's age, whatever the slow receiver does; the
 *   worker's rate alone is the floor below); the fast half's p95 from queued to arrival,
 *   against a run of the fast half alone before it (target: no more than 20% or 1 s above it), and the worker's
 *   RSS sampled through the run (target: flat, the peak of its last third within 20% of its first third's).
 *   The run ends when every fast delivery has arrived, or after BENCH_ALERTS_WAIT_SECONDS (120: those missing
 *   count as never arriving); the slow ones still queued are left.
 * - Floor, in the same run: the guarded client alone sending the fast half's number of requests to the fast
 *   receiver, 8 at a time.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { join } from 'node:path'
import { rebuildSeries } from '../src/features/costs/rebuild.js'
import { currentResourceTags } from '../src/features/inventory/store.js'
import type { DeliveryRequest } from '../src/features/notifications/public.js'
import { createOutboundClient } from '../src/platform/outbound/index.js'
import { addDays, toDay } from '../src/platform/time.js'
import {
  type BenchDatabase,
  type Benchmark,
  benchDatabases,
  benchTenant,
  fmt,
  insertInBatches,
  note,
  printTable,
  REPO_DIR,
  type Scope,
  startChild,
  startCostwatch,
  withServices,
} from './lib.js'
import { intFromEnv } from './support.js'

const TARGET_ALERT_P95_MS = 10_000
const SLOW_ANSWER_MS = 2_000
const ALLOW = '127.0.0.1/32'

interface Receiver {
  url: string
  /** The arrivals from the `from`-th on: webhook-id and epoch ms. */
  arrivals(from?: number): Promise<Array<[string, number]>>
}

async function startReceiver(scope: Scope, delayMs: number): Promise<Receiver> {
  const child = await startChild(scope, 'alerts-receiver.ts', { BENCH_RECEIVER_DELAY_MS: String(delayMs) })
  return {
    url: child.baseUrl,
    async arrivals(from = 0) {
      const res = await fetch(`${child.baseUrl}/__arrivals?from=${from}`)
      return (await res.json()) as Array<[string, number]>
    },
  }
}

/** `costwatch worker` as an operator runs it (src/main.ts through tsx), stopped with SIGTERM when the scope closes. */
async function startWorker(scope: Scope, env: Record<string, string>): Promise<{ pid: number; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(REPO_DIR, 'src/main.ts'), 'worker'], {
    cwd: REPO_DIR,
    env: { ...process.env, ...env, WORKER_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(timer)
    }
  }
  scope.defer(`stop the worker (pid ${child.pid})`, stop)
  let output = ''
  await new Promise<void>((ready, reject) => {
    const onData = (d: Buffer) => {
      output += d
      if (output.includes('waiting for runs')) ready()
      // Warnings after the start are the worker's own business; keep only the start's.
      if (output.length > 20_000) output = output.slice(-10_000)
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before it started:\n${output}`)))
  })
  return { pid: child.pid!, stop }
}

/** Resident set of a process of this machine in MB, from /proc (Linux); null elsewhere. */
function rssMb(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) / 1024 : null
  } catch {
    return null
  }
}

function sampleRss(pid: number, everyMs = 250) {
  const samples: number[] = []
  const timer = setInterval(() => {
    const mb = rssMb(pid)
    if (mb !== null) samples.push(mb)
  }, everyMs)
  return {
    samples,
    stop: () => clearInterval(timer),
  }
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The public API of the server child, with the owner's key. */
function api(baseUrl: string, apiKey: string) {
  return async <T>(method: string, path: string, body?: unknown, expected = [200, 201, 202]): Promise<T> => {
    const res = await fetch(`${baseUrl}/api/public/v1${path}`, {
      method,
      headers: { 'X-Api-Key': apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    if (!expected.includes(res.status))
      throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`)
    return (text ? JSON.parse(text) : null) as T
  }
}

/** Runs `task` for 0..count-1, `concurrency` at a time. */
async function pool(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++)
    }),
  )
}

interface Seeded {
  database: BenchDatabase
  apiKey: string
  organisationId: string
  /** One tenant per repetition: an incident alerts once, so each repetition's spike is in a tenant of its own. */
  tenantIds: string[]
  /** Yesterday: the day whose cost is raised. */
  day: string
}

const resourceKey = (i: number) => `/subscriptions/sub-${i}/resourcegroups/rg-${i}/providers/x/y/res-${i}`

/** An organisation with `tenants` tenants, each with one resource of flat cost over 60 days up to yesterday. */
async function seed(database: BenchDatabase, tenants: number): Promise<Seeded> {
  const day = addDays(toDay(new Date()), -1)
  return withServices(database, async (services, { db }) => {
    const { apiKey, tenant, principal, organisationId } = await benchTenant(services, {
      organisation: 'Bench alerts',
      ownerEmail: 'alerts@costwatch.test',
      tenant: 'Bench estate 0',
      cloudTenantId: 'alerts-0.onmicrosoft.com',
    })
    const tenantIds = [tenant.id]
    for (let i = 1; i < tenants; i++)
      tenantIds.push(
        (
          await services.tenants.create(principal, {
            name: `Bench estate ${i}`,
            cloudTenantId: `alerts-${i}.onmicrosoft.com`,
            credentialType: 'ManagedIdentity',
          })
        ).id,
      )
    const days = 60
    const first = addDays(day, -(days - 1))
    await insertInBatches(db.kysely, 'costResources', tenants, (i) => ({
      tenantId: tenantIds[i]!,
      resourceKey: resourceKey(i),
    }))
    const ids = new Map(
      (await db.kysely.selectFrom('costResources').select(['id', 'resourceKey']).execute()).map((c) => [
        c.resourceKey,
        Number(c.id),
      ]),
    )
    await insertInBatches(db.kysely, 'dailyCosts', tenants * days, (n) => {
      const i = n % tenants
      const d = Math.floor(n / tenants)
      return {
        resourceId: ids.get(resourceKey(i))!,
        month: addDays(first, d).slice(0, 7),
        date: addDays(first, d),
        meterId: 'm',
        subscriptionId: `sub-${i}`,
        resourceGroupKey: `rg-${i}`,
        meterName: null,
        serviceName: `service-${i}`,
        cost: 100 + (d % 3),
        currency: 'USD',
      }
    })
    for (const tenantId of tenantIds) await rebuildSeries(db.kysely, currentResourceTags, tenantId, first, day)
    // Today's scheduled collections count as done, so the worker does not add the simulated estate's costs.
    await services.snapshots.scheduleDaily(new Date(), 0, async () => tenantIds)
    await db.kysely
      .updateTable('snapshotRuns')
      .set({ status: 'Failed', completedAt: new Date().toISOString(), errorMessage: 'not collected in the benchmark' })
      .where('tenantId', 'in', tenantIds)
      .execute()
    return { database, apiKey, organisationId, tenantIds, day }
  })
}

/** Part a: analysis run committed → first webhook arrived, per repetition. */
async function alertLatency(scope: Scope, seeded: Seeded, baseUrl: string, fast: Receiver, repeats: number) {
  const call = api(baseUrl, seeded.apiKey)
  const channel = await call<{ id: string }>('POST', '/notification-channels', {
    name: 'Bench latency',
    type: 'Webhook',
    url: `${fast.url}/hooks/latency`,
  })
  await call('POST', '/notification-rules', {
    name: 'Every anomaly at once',
    channelIds: [channel.id],
    scope: { tenancyIds: seeded.tenantIds, tags: [], resourceGroup: null, service: null },
    trigger: { type: 'AnomalyRaised', minImpact: 1, minImpactPercent: null, combine: 'any', minSeverity: null },
    frequency: 'Immediate',
  })
  const worker = await startWorker(scope, { ...seeded.database.env, COSTWATCH_OUTBOUND_ALLOW: ALLOW })
  const latencies: number[] = []
  await withServices(seeded.database, async (services, { db }) => {
    for (let i = 0; i < repeats; i++) {
      const tenantId = seeded.tenantIds[i]!
      const seen = (await fast.arrivals()).length
      const costs = await db.kysely
        .selectFrom('costResources')
        .select('id')
        .where('tenantId', '=', tenantId)
        .where('resourceKey', '=', resourceKey(i))
        .executeTakeFirstOrThrow()
      await db.kysely
        .updateTable('dailyCosts')
        .set({ cost: 1000 })
        .where('resourceId', '=', costs.id)
        .where('date', '=', seeded.day)
        .execute()
      await rebuildSeries(db.kysely, currentResourceTags, tenantId, seeded.day, seeded.day)
      const requestedAt = new Date().toISOString()
      await services.analysisStore.request(tenantId, seeded.day, seeded.day, null)
      const deadline = Date.now() + 60_000
      let committed: number | null = null
      let arrived: number | null = null
      while (Date.now() < deadline && arrived === null) {
        if (committed === null) {
          const run = (await services.analysisStore.ofTenant(tenantId)).find(
            (r) => r.requestedAt >= requestedAt && r.status === 'Succeeded',
          )
          if (run?.completedAt) committed = Date.parse(run.completedAt)
        }
        const first = (await fast.arrivals(seen))[0]
        if (first && committed !== null) arrived = first[1]
        else await sleep(50)
      }
      if (committed === null || arrived === null)
        throw new Error(`repetition ${i + 1}: no webhook within 60 s of the analysis request`)
      latencies.push(arrived - committed)
      // Let the repetition's other deliveries (the scopes above the resource) arrive before the next one.
      let count = (await fast.arrivals()).length
      for (;;) {
        await sleep(2_500)
        const now = (await fast.arrivals()).length
        if (now === count) break
        count = now
      }
    }
  })
  await worker.stop()
  return latencies
}

interface IsolationRun {
  label: string
  fastP50: number
  fastP95: number
  seconds: number
  slowArrived: number
  fastArrived: number
  /** Batches refused with SQLITE_BUSY (the lock held over 5 s by another writer), each tried again. */
  busy: number
  rss: number[]
}

/** Part b: `fastCount` deliveries to the fast channel (and `slowCount` to the slow one, interleaved). */
async function isolation(
  scope: Scope,
  seeded: Seeded,
  receivers: { fast: Receiver; slow: Receiver },
  channels: { fast: string; slow: string },
  counts: { fast: number; slow: number },
  label: string,
  batch: number,
): Promise<IsolationRun> {
  const part = scope.child()
  try {
    const worker = await startWorker(part, { ...seeded.database.env, COSTWATCH_OUTBOUND_ALLOW: ALLOW })
    const rss = sampleRss(worker.pid)
    const fastSeen = (await receivers.fast.arrivals()).length
    const slowSeen = (await receivers.slow.arrivals()).length
    const started = performance.now()
    // Queued as alert runs queue them (queueDeliveries, one transaction per batch): `batch` fast (and as many slow)
    // every 400 ms, so the fast receiver is offered the same rate in both runs.
    const tag = `bench:${Date.now()}`
    let busy = 0
    const event = (i: number) => ({
      type: 'test' as const,
      timestamp: new Date().toISOString(),
      data: { i },
      message: {
        title: `Bench ${i}`,
        summary: 'A benchmark message.',
        facts: [],
        sections: [],
        link: null,
        actions: [],
      },
    })
    await withServices(seeded.database, async (services, { db }) => {
      for (let from = 0; from < Math.max(counts.fast, counts.slow); from += batch) {
        const tick = sleep(400)
        const requests: DeliveryRequest[] = []
        for (let i = from; i < from + batch; i++)
          for (const which of ['fast', 'slow'] as const)
            if (i < counts[which])
              requests.push({
                organisationId: seeded.organisationId,
                channelIds: [channels[which]],
                ruleId: null,
                eventKey: `${tag}:${which}:${i}`,
                tenancyId: null,
                event: event(i),
              })
        // SQLite: a writer that cannot have the lock fails (at once when its transaction read first); tried again.
        for (let attempt = 1; ; attempt++) {
          try {
            await db.kysely.transaction().execute(async (tx) => {
              // A write first, so the transaction waits for the lock (as a run's success does) instead of failing
              // when queueDeliveries' first read is overtaken by the worker's writes.
              await tx
                .updateTable('notificationChannels')
                .set((eb) => ({ updatedAt: eb.ref('updatedAt') }))
                .where('id', '=', channels.fast)
                .execute()
              return services.queueDeliveries(tx, requests)
            })
            break
          } catch (err) {
            // SQLITE_BUSY_SNAPSHOT: the transaction read first and another process wrote before it could.
            if (!String((err as { code?: string }).code).startsWith('SQLITE_BUSY') || attempt === 20) throw err
            busy++
            await sleep(100)
          }
        }
        await tick
      }
    })
    // A fast delivery that has not arrived by then counts as never arriving (its latency infinite): reported.
    const deadline = Date.now() + intFromEnv('BENCH_ALERTS_WAIT_SECONDS', 120) * 1000
    while ((await receivers.fast.arrivals(fastSeen)).length < counts.fast && Date.now() < deadline) await sleep(200)
    const seconds = (performance.now() - started) / 1000
    rss.stop()
    const arrivals = new Map(await receivers.fast.arrivals(fastSeen))
    const slowArrived = (await receivers.slow.arrivals(slowSeen)).length
    const queued = await withServices(seeded.database, (_services, { db }) =>
      db.kysely
        .selectFrom('notificationDeliveries')
        .select(['id', 'webhookId', 'requestedAt', 'eventKey'])
        .where('channelId', '=', channels.fast)
        .execute(),
    )
    const latencies: number[] = []
    for (const row of queued) {
      if (!row.eventKey.startsWith(`${tag}:fast:`)) continue
      const at = arrivals.get(row.webhookId)
      latencies.push(at === undefined ? Number.POSITIVE_INFINITY : at - Date.parse(row.requestedAt))
    }
    const fastArrived = latencies.filter(Number.isFinite).length
    await worker.stop()
    return {
      label,
      fastP50: percentile(latencies, 50),
      fastP95: percentile(latencies, 95),
      seconds,
      slowArrived,
      fastArrived,
      busy,
      rss: rss.samples,
    }
  } finally {
    await part.close()
  }
}

/**
 * Part b's floor: `count` requests to the fast receiver, 8 at a time, through the guarded client, or through
 * node:http with a kept-alive agent and no guard (what the guard costs).
 */
async function clientFloor(fast: Receiver, count: number, guarded: boolean) {
  const outbound = createOutboundClient({ allow: [ALLOW] })
  const agent = new http.Agent({ keepAlive: true })
  const raw = (url: string, headers: Record<string, string>, body: string) =>
    new Promise<number>((done, reject) => {
      const req = http.request(url, { method: 'POST', headers, agent }, (res) => {
        res.resume()
        res.on('end', () => done(res.statusCode ?? 0))
      })
      req.on('error', reject)
      req.end(body)
    })
  const latencies: number[] = []
  const started = performance.now()
  await pool(count, 8, async (i) => {
    const url = `${fast.url}/hooks/floor`
    const headers = { 'content-type': 'application/json', 'webhook-id': `msg_floor_${i}` }
    const body = JSON.stringify({ type: 'test', timestamp: new Date().toISOString(), data: { i } })
    const sent = performance.now()
    const status = guarded
      ? (await outbound.send({ method: 'POST', url, headers, body })).status
      : await raw(url, headers, body)
    if (status !== 204) throw new Error(`the fast receiver answered ${status}`)
    latencies.push(performance.now() - sent)
  })
  agent.destroy()
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    seconds: (performance.now() - started) / 1000,
  }
}

/** What the benchmark needs of the alerts feature, and is not there (routes, run kinds). */
async function missingParts(database: BenchDatabase, baseUrl: string, apiKey: string): Promise<string[]> {
  const missing: string[] = []
  for (const path of ['/notification-channels', '/notification-rules']) {
    const res = await fetch(`${baseUrl}/api/public/v1${path}`, { headers: { 'X-Api-Key': apiKey } })
    if (res.status === 404) missing.push(`GET ${path}`)
  }
  const kinds = await withServices(database, async (services) => services.runStores.map((s) => s.kind.name))
  for (const kind of ['alert', 'notification']) if (!kinds.includes(kind)) missing.push(`the ${kind} run kind`)
  return missing
}

function thirds(samples: number[]) {
  const n = Math.floor(samples.length / 3)
  const first = samples.slice(0, Math.max(1, n))
  const last = samples.slice(samples.length - Math.max(1, n))
  return { firstPeak: Math.max(...first), lastPeak: Math.max(...last), peak: Math.max(...samples) }
}

export const alertsBenchmark: Benchmark = {
  name: 'alerts',
  description: 'analysis commit to webhook arrival; a slow receiver beside a fast one (p95, RSS)',
  async run(scope) {
    const repeats = intFromEnv('BENCH_ALERTS_REPEATS', 20)
    const deliveries = intFromEnv('BENCH_ALERTS_DELIVERIES', 10_000)
    const half = Math.floor(deliveries / 2)
    const batch = Math.max(1, Math.round(intFromEnv('BENCH_ALERTS_RATE', 50) * 0.4))
    let met = true
    const fast = await startReceiver(scope, 0)
    const slow = await startReceiver(scope, SLOW_ANSWER_MS)
    for (const guarded of [false, true]) {
      const floor = await clientFloor(fast, half, guarded)
      note(
        `Floor: ${guarded ? 'the guarded client' : 'node:http, kept alive, unguarded'}, ${fmt.int(half)} requests ` +
          `to the fast receiver 8 at a time: p50 ${fmt.ms(floor.p50)}, p95 ${fmt.ms(floor.p95)}, ` +
          `${floor.seconds.toFixed(1)} s`,
      )
    }
    for (const { open } of benchDatabases()) {
      const part = scope.child()
      try {
        const opened = await open(part)
        const database = { ...opened, env: { ...opened.env, COSTWATCH_OUTBOUND_ALLOW: ALLOW } }
        const seeded = await seed(database, repeats)
        const server = await startCostwatch(part, database)
        const missing = await missingParts(database, server.baseUrl, seeded.apiKey)
        if (missing.length) {
          note(`${database.label}: not measured, what it needs is not there yet: ${missing.join('; ')}`)
          met = false
          continue
        }

        const latencies = await alertLatency(part, seeded, server.baseUrl, fast, repeats)
        const p95 = percentile(latencies, 95)
        const latencyOk = p95 < TARGET_ALERT_P95_MS
        met &&= latencyOk
        note(
          `${database.label}: analysis committed → webhook arrived, ${repeats} alerts (worker poll 1 s): ` +
            `p50 ${fmt.ms(percentile(latencies, 50))}, p95 ${fmt.ms(p95)}, max ${fmt.ms(Math.max(...latencies))}; ` +
            `target p95 < ${TARGET_ALERT_P95_MS / 1000} s: ${latencyOk ? 'met' : 'MISSED'}`,
        )

        const call = api(server.baseUrl, seeded.apiKey)
        const channel = async (name: string, url: string) =>
          (await call<{ id: string }>('POST', '/notification-channels', { name, type: 'Webhook', url })).id
        const channels = {
          fast: await channel('Bench fast', `${fast.url}/hooks/fast`),
          slow: await channel('Bench slow', `${slow.url}/hooks/slow`),
        }
        const receivers = { fast, slow }
        const alone = await isolation(part, seeded, receivers, channels, { fast: half, slow: 0 }, 'fast alone', batch)
        const mixed = await isolation(
          part,
          seeded,
          receivers,
          channels,
          { fast: half, slow: deliveries - half },
          `fast beside slow (${SLOW_ANSWER_MS / 1000} s)`,
          batch,
        )
        const allowed = Math.max(alone.fastP95 * 1.2, alone.fastP95 + 1_000)
        const isolated = Number.isFinite(alone.fastP95) && mixed.fastP95 <= allowed
        const rss = thirds(mixed.rss)
        const flat = rss.lastPeak <= rss.firstPeak * 1.2
        met &&= isolated && flat
        heading2(
          `${database.label}: ${fmt.int(deliveries)} deliveries, ${fmt.int(batch)} to each receiver every 400 ms ` +
            `(${fmt.int(batch * 2.5)} a second each; queueDeliveries)`,
        )
        printTable(
          [
            'run',
            'fast p50',
            'fast p95',
            'fast done in',
            'fast arrived',
            'slow arrived',
            'queue busy',
            'RSS first third',
            'RSS last third',
            'RSS peak',
          ],
          [alone, mixed].map((r) => {
            const t = thirds(r.rss)
            return [
              r.label,
              Number.isFinite(r.fastP50) ? fmt.ms(r.fastP50) : 'never',
              Number.isFinite(r.fastP95) ? fmt.ms(r.fastP95) : 'never',
              `${r.seconds.toFixed(1)} s`,
              fmt.int(r.fastArrived),
              fmt.int(r.slowArrived),
              fmt.int(r.busy),
              `${t.firstPeak.toFixed(0)} MB`,
              `${t.lastPeak.toFixed(0)} MB`,
              `${t.peak.toFixed(0)} MB`,
            ]
          }),
          [1, 2, 3, 4, 5, 6, 7, 8, 9],
        )
        note(
          `target: fast p95 beside the slow receiver ≤ ${fmt.ms(allowed)} (alone +20% or +1 s): ` +
            `${isolated ? 'met' : 'MISSED'}; RSS flat (last third's peak within 20% of the first's): ` +
            `${flat ? 'met' : 'MISSED'}`,
        )
      } finally {
        await part.close()
      }
    }
    return { met }
  },
}

function heading2(text: string) {
  note(`\n${text}`)
}
