/**
 * The poll of an open cost chart: `GET /api/public/v1/tenants/{id}/events/visible` with the ETag of its last
 * answer in If-None-Match, which every process answers 304 from one read of the tenant's marker version while
 * nothing changed. Through the real server at 50 connections, on each database of BENCH_DATABASES, beside the
 * full 200 answer of the same chart (BENCH_LIVE_MARKERS markers, default 300), the cheapest keyed read
 * (GET /organisation: the key's lookup and one read) and a bare node:http server.
 * Target (as for the keyed reads of performance.md): the 304 poll at least 25% of bare node:http on SQLite.
 */
import autocannon from 'autocannon'
import {
  type BenchDatabase,
  type Benchmark,
  bareServer,
  benchTenant,
  fetchOnce,
  fmt,
  heading,
  type Measurement,
  measure,
  note,
  onEachDatabase,
  printTable,
  type Scope,
  SETTINGS,
  startCostwatch,
  withServices,
} from './lib.js'
import { intFromEnv } from './support.js'

const MARKERS = intFromEnv('BENCH_LIVE_MARKERS', 300)
const TARGET_RATIO = 0.25
const DAY_MS = 86_400_000

async function seed(database: BenchDatabase): Promise<{ apiKey: string; tenantId: string }> {
  return withServices(database, async (services) => {
    const { apiKey, principal, tenant } = await benchTenant(services, {
      organisation: 'Bench Live Markers',
      ownerEmail: 'owner@live-markers.bench.example',
      tenant: 'Bench tenant',
      cloudTenantId: 'live-markers.bench.example.com',
    })
    // Through the service, so the marker version moves as in production; concurrent creates share commits.
    await Promise.all(
      Array.from({ length: MARKERS }, (_, i) =>
        services.events.create(principal, tenant.id, {
          occurredAt: new Date(Date.now() - ((i % 29) + 0.5) * DAY_MS).toISOString(),
          title: `Deploy api v1.${i}`,
          category: 'Deployment',
          description: 'Rolled out by the bench',
        }),
      ),
    )
    return { apiKey, tenantId: tenant.id }
  })
}

/** Like lib's `measure`, for answers that are all 304: any other status or error invalidates the figure. */
async function measureNotModified(url: string, headers: Record<string, string>): Promise<Measurement> {
  const run = (duration: number) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      autocannon({ url, headers, connections: SETTINGS.connections, duration }, (err, result) =>
        err ? reject(err) : resolve(result),
      )
    })
  if (SETTINGS.warmupSeconds > 0) await run(SETTINGS.warmupSeconds)
  const result = await run(SETTINGS.seconds)
  const others = result.requests.total - result['3xx']
  if (others > 0 || result.errors + result.timeouts > 0) {
    throw new Error(`${url}: ${others} answers not 304, ${result.errors} errors, ${result.timeouts} timeouts`)
  }
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: 0,
  }
}

interface Row {
  database: string
  server: string
  result: Measurement
  ratio: number | null
  met: boolean | null
}

async function runOn(scope: Scope, database: BenchDatabase): Promise<Row[]> {
  heading(`${database.label}: seeding a tenant with ${fmt.int(MARKERS)} markers in the last 30 days`)
  const { apiKey, tenantId } = await seed(database)
  const server = await startCostwatch(scope, database)
  const to = new Date().toISOString()
  const from = new Date(Date.now() - 30 * DAY_MS).toISOString()
  const path = `/api/public/v1/tenants/${tenantId}/events/visible?scope=tenant&from=${from}&to=${to}`
  const headers = { 'X-Api-Key': apiKey }
  const first = await fetch(`${server.baseUrl}${path}`, { headers })
  const body = Buffer.from(await first.arrayBuffer())
  const etag = first.headers.get('etag')
  if (first.status !== 200 || !etag) throw new Error(`the chart answered ${first.status} without an ETag`)
  const unchanged = await fetchOnce(`${server.baseUrl}${path}`, { ...headers, 'If-None-Match': etag })
  if (unchanged.status !== 304) throw new Error(`the poll answered ${unchanged.status}, not 304`)

  note(`measuring the 304 poll, the full answer (${fmt.int(body.length)} bytes), GET /organisation, bare node:http`)
  const poll = await measureNotModified(`${server.baseUrl}${path}`, { ...headers, 'If-None-Match': etag })
  const full = await measure(`${server.baseUrl}${path}`, headers)
  // The floor of any keyed request on this machine now: the key's lookup and one read.
  const keyed = await measure(`${server.baseUrl}/api/public/v1/organisation`, headers)
  await server.stop()
  const bare = await bareServer(scope, Buffer.alloc(0), 'application/json')
  const reference = await measure(`${bare.baseUrl}/`)
  await bare.stop()
  const judged = database.dialect === 'sqlite'
  const ratio = poll.requestsPerSecond / reference.requestsPerSecond
  return [
    { database: database.label, server: '304 poll', result: poll, ratio, met: judged ? ratio >= TARGET_RATIO : null },
    {
      database: database.label,
      server: `200, ${MARKERS} markers`,
      result: full,
      ratio: full.requestsPerSecond / reference.requestsPerSecond,
      met: null,
    },
    {
      database: database.label,
      server: 'GET /organisation',
      result: keyed,
      ratio: keyed.requestsPerSecond / reference.requestsPerSecond,
      met: null,
    },
    { database: database.label, server: 'bare node:http', result: reference, ratio: null, met: null },
  ]
}

export const liveMarkersBenchmark: Benchmark = {
  name: 'live-markers',
  description: "an open chart's conditional poll of its markers (304) vs the full answer vs bare node:http",
  async run(scope) {
    note(
      `${SETTINGS.connections} connections, ${SETTINGS.seconds} s per run after ${SETTINGS.warmupSeconds} s of warm-up`,
    )
    const rows = await onEachDatabase(scope, runOn)
    heading('GET .../events/visible of one chart, owner API key')
    printTable(
      ['database', 'answer', 'req/s', 'p50', 'p99', 'of bare', 'target'],
      rows.map((r) => [
        r.database,
        r.server,
        fmt.int(r.result.requestsPerSecond),
        fmt.ms(r.result.p50),
        fmt.ms(r.result.p99),
        r.ratio === null ? '' : fmt.pct(r.ratio),
        r.met === null ? '' : r.met ? 'met' : 'NOT MET',
      ]),
      [2, 3, 4, 5],
    )
    note(`\nTarget: the 304 poll at least ${fmt.pct(TARGET_RATIO)} of bare node:http on SQLite.`)
    const judged = rows.filter((r) => r.met !== null)
    if (judged.length === 0) return { met: null }
    const met = judged.every((r) => r.met)
    note(`Target ${met ? 'MET' : 'NOT MET'}.`)
    return { met }
  },
}
