/**
 * The event-create target of performance.md: `POST /api/public/v1/tenants/{id}/events` through the real server,
 * at least 3,000 creates per second on SQLite at 50 connections; beside it the same with a fresh
 * Idempotency-Key on every request (each one claims a key, then creates). The owner's API key of a seeded
 * organisation with one tenant; every request sends the same body (allowed without a key: each makes an event).
 */
import { randomUUID } from 'node:crypto'
import {
  type BenchDatabase,
  type Benchmark,
  benchTenant,
  fetchOk,
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
import { measureRequests } from './support.js'

/** performance.md: at least 3,000 event creates per second on SQLite. */
const TARGET_PER_SECOND = 3_000

const BODY = JSON.stringify({
  occurredAt: '2026-03-01T10:55:00Z',
  title: 'Deploy api v1.42.0',
  category: 'Deployment',
  description: 'Rolled out by the bench',
  tagKey: 'service',
  tagValue: 'api',
})

async function seed(database: BenchDatabase): Promise<{ apiKey: string; tenantId: string }> {
  return withServices(database, async (services) => {
    const { apiKey, tenant } = await benchTenant(services, {
      organisation: 'Bench Events',
      ownerEmail: 'owner@events.bench.example',
      tenant: 'Bench tenant',
      cloudTenantId: 'events.bench.example.com',
    })
    return { apiKey, tenantId: tenant.id }
  })
}

interface Row {
  database: string
  variant: string
  result: Measurement
  met: boolean | null
}

async function runOn(scope: Scope, database: BenchDatabase): Promise<Row[]> {
  heading(`${database.label}: seeding an organisation, a tenant and its owner's API key`)
  const { apiKey, tenantId } = await seed(database)
  const server = await startCostwatch(scope, database)
  const path = `/api/public/v1/tenants/${tenantId}/events`
  const url = `${server.baseUrl}${path}`
  const headers = { 'X-Api-Key': apiKey, 'Content-Type': 'application/json' }

  // One create by hand, so a wrong seed fails here with its answer rather than as a count of non-2xx.
  const first = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'Idempotency-Key': randomUUID() },
    body: BODY,
  })
  if (first.status !== 201) throw new Error(`POST ${path} answered ${first.status}: ${await first.text()}`)

  note('measuring creates without an Idempotency-Key, then with a fresh one per request')
  const plain = await measure(url, headers, { method: 'POST', body: BODY })
  const keyed = await measureRequests(url, [
    {
      method: 'POST',
      path,
      headers,
      body: BODY,
      setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'Idempotency-Key': randomUUID() } }),
    },
  ])
  const page = JSON.parse((await fetchOk(`${url}?pageSize=1`, headers)).body.toString()) as { totalCount: number }
  note(`${fmt.int(page.totalCount)} events in the tenant afterwards (warm-ups included)`)
  await server.stop()
  const judged = database.dialect === 'sqlite'
  return [
    {
      database: database.label,
      variant: 'no Idempotency-Key',
      result: plain,
      met: judged ? plain.requestsPerSecond >= TARGET_PER_SECOND : null,
    },
    { database: database.label, variant: 'Idempotency-Key per request', result: keyed, met: null },
  ]
}

export const eventsBenchmark: Benchmark = {
  name: 'events',
  description: 'POST /tenants/{id}/events through the real server, without and with an Idempotency-Key',
  async run(scope) {
    note(
      `${SETTINGS.connections} connections, ${SETTINGS.seconds} s per run after ${SETTINGS.warmupSeconds} s of warm-up`,
    )
    const rows = await onEachDatabase(scope, runOn)
    heading('Event create (201 each), owner API key, one tenant')
    printTable(
      ['database', 'request', 'creates/s', 'p50', 'p99', 'target'],
      rows.map((r) => [
        r.database,
        r.variant,
        fmt.int(r.result.requestsPerSecond),
        fmt.ms(r.result.p50),
        fmt.ms(r.result.p99),
        r.met === null ? '(no target)' : r.met ? 'met' : 'NOT MET',
      ]),
      [2, 3, 4],
    )
    note(
      `\nTarget (performance.md): at least ${fmt.int(TARGET_PER_SECOND)} event creates per second on SQLite ` +
        `(without an Idempotency-Key; with one it is printed beside it).`,
    )
    const judged = rows.filter((r) => r.met !== null)
    if (judged.length === 0) return { met: null }
    const met = judged.every((r) => r.met)
    note(`Target ${met ? 'MET' : 'NOT MET'}.`)
    return { met }
  },
}
