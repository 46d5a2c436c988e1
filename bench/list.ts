/**
 * The paged list target of docs performance.md: `GET /api/public/v1/tenants?page=N&pageSize=50` with an API
 * key, 100,000 tenants in one organisation (exact `totalCount` from the `row_counts` counter), against a bare
 * `node:http` server returning the same bytes, on SQLite (the target) and PostgreSQL (printed beside it).
 */
import { randomUUID } from 'node:crypto'
import { type Insertable, sql } from 'kysely'
import { tenantCounter } from '../src/features/tenants/counters.js'
import { TENANT_CLIENT_SECRET } from '../src/features/tenants/store.js'
import { bumpVersion } from '../src/platform/cache.js'
import type { TenantsTable } from '../src/platform/db/schema.js'
import {
  type BenchDatabase,
  type Benchmark,
  bareServer,
  fetchOk,
  fmt,
  heading,
  insertInBatches,
  type Measurement,
  measure,
  note,
  onEachDatabase,
  printTable,
  type Scope,
  SETTINGS,
  seededRandom,
  setCounter,
  startCostwatch,
  withServices,
} from './lib.js'

const TENANTS = 100_000
const PAGE_SIZE = 50
/** A shallow and a deep page; BENCH_LIST_PAGES=3,1000 picks others (e.g. one page, to profile it alone). */
const PAGES = (process.env.BENCH_LIST_PAGES || '3,1000').split(',').map((raw) => {
  const page = Number(raw)
  if (!Number.isInteger(page) || page < 1 || page > TENANTS / PAGE_SIZE) {
    throw new Error(`BENCH_LIST_PAGES: pages run from 1 to ${TENANTS / PAGE_SIZE}, got "${raw}"`)
  }
  return { label: page <= 10 ? 'shallow' : 'deep', page }
})
/** performance.md: at least 25% of bare node:http, p99 under 25 ms at 50 connections, on SQLite. */
const TARGET = { ratio: 0.25, p99Ms: 25 }

const ADJECTIVES = ['Northern', 'Blue', 'Quiet', 'Rapid', 'Golden', 'Iron', 'Silver', 'Bright', 'Hidden', 'Coastal']
const NOUNS = ['Retail', 'Analytics', 'Payments', 'Logistics', 'Platform', 'Research', 'Media', 'Health', 'Labs']

/** 100k tenants in one transaction, in a random name order, with the counter set to the exact total. */
async function seed(database: BenchDatabase): Promise<{ apiKey: string; organisationId: string; ms: number }> {
  return withServices(database, async (services, { db }) => {
    const started = performance.now()
    const { organisation, apiKey } = await services.organisations.create({
      name: 'Bench Org',
      ownerEmail: 'owner@bench.example',
      plan: 'enterprise',
    })
    const random = seededRandom(42)
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
    const createdAt = new Date().toISOString()
    const row = (i: number): Insertable<TenantsTable> => {
      const kind = random()
      const credentialType =
        kind < 0.6 ? 'ServicePrincipalSecret' : kind < 0.85 ? 'ServicePrincipalCertificate' : 'ManagedIdentity'
      const id = randomUUID()
      return {
        id,
        organisationId: organisation.id,
        name: `${pick(ADJECTIVES)} ${pick(NOUNS)} ${Math.floor(random() * 1e6)} #${i}`,
        cloudTenantId: randomUUID(),
        credentialType,
        clientId: credentialType === 'ManagedIdentity' ? null : randomUUID(),
        certificateThumbprint:
          credentialType === 'ServicePrincipalCertificate'
            ? Array.from({ length: 40 }, () => '0123456789ABCDEF'[Math.floor(random() * 16)]).join('')
            : null,
        clientSecretSealed:
          credentialType === 'ServicePrincipalSecret'
            ? services.secrets.seal('not-a-real-secret', TENANT_CLIENT_SECRET.purpose(id))
            : null,
        connector: 'simulated',
        createdAt,
      }
    }
    await db.kysely.transaction().execute(async (trx) => {
      await insertInBatches(trx, 'tenants', TENANTS, row)
      await setCounter(trx, tenantCounter(organisation.id), TENANTS)
      // A write to tenants outside the store bumps the organisation's version too, as the store does.
      await bumpVersion(trx, organisation.id)
    })
    // What autovacuum does shortly after a bulk load (statistics, visibility map for index-only scans);
    // SQLite is left as a deployment leaves it.
    if (database.dialect === 'postgres') await sql`vacuum analyze tenants`.execute(db.kysely)
    return { apiKey, organisationId: organisation.id, ms: performance.now() - started }
  })
}

interface Row {
  database: string
  page: string
  bytes: number
  costwatch: Measurement
  bare: Measurement
  ratio: number
  /** null: no target for this database (PostgreSQL is printed for information). */
  met: boolean | null
}

async function runOn(scope: Scope, database: BenchDatabase): Promise<Row[]> {
  heading(`${database.label}: seeding ${fmt.int(TENANTS)} tenants`)
  const { apiKey, ms } = await seed(database)
  note(`seeded in ${(ms / 1000).toFixed(1)} s; starting the server`)
  const server = await startCostwatch(scope, database)
  const headers = { 'X-Api-Key': apiKey }
  const rows: Row[] = []
  /** Costwatch at `path`, then a bare node:http server answering with the same bytes. */
  const compare = async (path: string, what: string, check: (body: Buffer) => void) => {
    const reference = await fetchOk(`${server.baseUrl}${path}`, headers)
    check(reference.body)
    const bare = await bareServer(scope, reference.body, reference.contentType)
    const same = await fetchOk(`${bare.baseUrl}${path}`)
    if (!same.body.equals(reference.body) || same.contentType !== reference.contentType) {
      throw new Error('the bare server does not return the same bytes')
    }
    note(`${what} (${fmt.int(reference.body.length)} bytes): measuring Costwatch, then bare node:http`)
    const costwatch = await measure(`${server.baseUrl}${path}`, headers)
    const bareResult = await measure(`${bare.baseUrl}${path}`, headers)
    await bare.stop()
    return { bytes: reference.body.length, costwatch, bare: bareResult }
  }
  for (const { label, page } of PAGES) {
    const measured = await compare(
      `/api/public/v1/tenants?page=${page}&pageSize=${PAGE_SIZE}`,
      `page ${page} (${label})`,
      (body) => {
        const json = JSON.parse(body.toString()) as { items: unknown[]; totalCount: number }
        if (json.totalCount !== TENANTS || json.items.length !== PAGE_SIZE) {
          throw new Error(`page ${page}: totalCount ${json.totalCount}, ${json.items.length} items; the seed is wrong`)
        }
      },
    )
    const ratio = measured.costwatch.requestsPerSecond / measured.bare.requestsPerSecond
    rows.push({
      database: database.label,
      page: `${page} (${label})`,
      ...measured,
      ratio,
      met: database.dialect === 'sqlite' ? ratio >= TARGET.ratio && measured.costwatch.p99 < TARGET.p99Ms : null,
    })
  }
  // The ceiling for a list request: GET /organisation is key verification plus one small query (the counter),
  // which is what a list page served from its kept bytes costs too. Printed for comparison, no target.
  const organisation = await compare('/api/public/v1/organisation', 'GET /organisation', (body) => {
    const json = JSON.parse(body.toString()) as { tenancyCount: number }
    if (json.tenancyCount !== TENANTS)
      throw new Error(`/organisation: tenancyCount ${json.tenancyCount}; the seed is wrong`)
  })
  rows.push({
    database: database.label,
    page: 'GET /organisation',
    ...organisation,
    ratio: organisation.costwatch.requestsPerSecond / organisation.bare.requestsPerSecond,
    met: null,
  })
  await server.stop()
  return rows
}

export const listBenchmark: Benchmark = {
  name: 'list',
  description: `GET /tenants?page=N&pageSize=${PAGE_SIZE} with an API key, ${fmt.int(TENANTS)} tenants, vs bare node:http`,
  async run(scope) {
    note(
      `${SETTINGS.connections} connections, ${SETTINGS.seconds} s per run after ${SETTINGS.warmupSeconds} s of warm-up`,
    )
    const rows = await onEachDatabase(scope, runOn)

    heading(`Paged list of ${PAGE_SIZE} tenants, ${fmt.int(TENANTS)} in the table: Costwatch vs bare node:http`)
    printTable(
      ['database', 'page', 'server', 'req/s', 'p50', 'p99', 'Costwatch/bare', 'target'],
      rows.flatMap((r) => [
        [
          r.database,
          r.page,
          'Costwatch',
          fmt.int(r.costwatch.requestsPerSecond),
          fmt.ms(r.costwatch.p50),
          fmt.ms(r.costwatch.p99),
          fmt.pct(r.ratio),
          r.met === null ? '(no target)' : r.met ? 'met' : 'NOT MET',
        ],
        [r.database, r.page, 'bare', fmt.int(r.bare.requestsPerSecond), fmt.ms(r.bare.p50), fmt.ms(r.bare.p99), '', ''],
      ]),
      [3, 4, 5, 6],
    )
    note(
      `\nTarget (performance.md): Costwatch at least ${fmt.pct(TARGET.ratio)} of bare node:http serving the same bytes ` +
        `and p99 under ${TARGET.p99Ms} ms, at ${SETTINGS.connections} connections, on SQLite.`,
    )
    const judged = rows.filter((r) => r.met !== null)
    if (judged.length === 0) return { met: null }
    const met = judged.every((r) => r.met)
    note(`Target ${met ? 'MET' : 'NOT MET'} (${judged.filter((r) => r.met).length} of ${judged.length} SQLite pages).`)
    return { met }
  },
}
