import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../support/cli.js'
import { snakeCase, tablesNamedIn } from './tables.js'

/**
 * Every table has one owner: the store (or platform module) that reads and writes it. Another feature calls the
 * owner's exported functions (through its public.ts) instead of naming the table. Paths are under src/; a path
 * ending in `/` owns the table with every file of its folder.
 */
/** The inventory's store, and the reads it lends other features (re-exported by the store). */
const INVENTORY = ['features/inventory/store.ts', 'features/inventory/lent.ts']

const OWNERS: Record<string, string[]> = {
  organisations: ['features/organisation/store.ts'],
  users: ['features/users/store.ts'],
  tenancyRoles: ['features/users/store.ts'],
  invitations: ['features/users/store.ts'],
  tenants: ['features/tenants/store.ts'],
  apiKeys: ['features/apikeys/store.ts'],
  apiKeyTenancies: ['features/apikeys/store.ts'],
  subscriptions: INVENTORY,
  resourceGroups: INVENTORY,
  resources: INVENTORY,
  cpuMetrics: INVENTORY,
  events: ['features/events/store.ts'],
  idempotencyKeys: ['features/events/store.ts'],
  // platform/runs/store.ts runs every kind of run, on the table its kind names: it names none itself.
  snapshotRuns: ['features/snapshots/store.ts'],
  analysisRuns: ['features/analysis/store.ts'],
  // The cost tables: their writes (ingestion, staging, series) and their one read module, all in features/costs/.
  dailyCosts: ['features/costs/'],
  costStaging: ['features/costs/'],
  costResources: ['features/costs/'],
  costCoverage: ['features/costs/'],
  costBillingPeriods: ['features/costs/'],
  resourceCostSeries: ['features/costs/'],
  groupCostSeries: ['features/costs/'],
  costSeries: ['features/costs/'],
  resourceRunningCosts: ['features/costs/'],
  resourceMonthEnds: ['features/costs/'],
  resourceCostTotals: ['features/costs/'],
  tagCostSeries: ['features/costs/'],
  tagValueSeries: ['features/costs/'],
  // The tags the tag series were last summed with, by resource key: the series' bookkeeping, not the inventory.
  resourceTags: ['features/costs/'],
  sessions: ['features/session/store.ts'],
  passwordResets: ['features/session/store.ts'],
  signInFailures: ['features/session/store.ts'],
  anomalies: ['features/anomalies/store.ts', 'features/anomalies/reads.ts'],
  insights: ['features/insights/store.ts'],
  reports: ['features/reports/store.ts'],
  reportTenancies: ['features/reports/store.ts'],
  reportRuns: ['features/reports/store.ts'],
  reportRunTenancies: ['features/reports/store.ts'],
  auditLog: ['platform/audit.ts'],
  mailOutbox: ['platform/mail.ts'],
  notificationChannels: ['features/notifications/'],
  notificationDeliveries: ['features/notifications/'],
  alertRules: ['features/alerts/store.ts'],
  alertRuleTenancies: ['features/alerts/store.ts'],
  alertRuns: ['features/alerts/store.ts'],
  alertSends: ['features/alerts/store.ts'],
  budgets: ['features/budgets/store.ts'],
  budgetTenancies: ['features/budgets/store.ts'],
  budgetThresholdStates: ['features/budgets/store.ts'],
  // Exact counts and the cache's versions: kept by the platform for every feature (platform/db/counters.ts).
  rowCounts: ['platform/db/counters.ts', 'platform/cache.ts'],
}

/**
 * Files that name a table they do not own today, each to be removed by moving the read to the owner's store.
 * An entry that no longer holds fails the test too: delete it when you fix it.
 */
const KNOWN_VIOLATIONS: string[] = []

/** The tables of the schema, as src/platform/db/schema.ts declares them in `interface Database`. */
function schemaTables(): string[] {
  const schema = readFileSync(join(ROOT, 'src/platform/db/schema.ts'), 'utf8')
  const body = /export interface Database \{([^}]*)\}/.exec(schema)?.[1]
  if (!body) throw new Error('src/platform/db/schema.ts: interface Database not found')
  return [...body.matchAll(/^\s*(\w+):/gm)].map((m) => m[1]!)
}

/** Production sources: not the tests, not the migrations (which create and convert every table). */
function productionFiles(): string[] {
  return (readdirSync(join(ROOT, 'src'), { recursive: true }) as string[])
    .map((f) => f.split('\\').join('/'))
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.startsWith('platform/db/migrations/'))
    .sort()
}

const owns = (owner: string, file: string) => (owner.endsWith('/') ? file.startsWith(owner) : file === owner)

describe('every table has one owner', () => {
  const tables = schemaTables()

  it('every table of the schema has an owner in this test', () => {
    const unowned = tables.filter((t) => !OWNERS[t])
    expect(
      unowned,
      `tables without an owner: ${unowned.join(', ')}. Name the store that reads and writes each in OWNERS (test/rules/tables.test.ts).`,
    ).toEqual([])
    expect(
      Object.keys(OWNERS).filter((t) => !tables.includes(t)),
      'owners of tables the schema no longer has',
    ).toEqual([])
  })

  it('no production file names a table it does not own', () => {
    const found: string[] = []
    const messages: string[] = []
    for (const file of productionFiles()) {
      const named = tablesNamedIn(readFileSync(join(ROOT, 'src', file), 'utf8'), tables)
      for (const table of named) {
        const owners = OWNERS[table] ?? []
        if (owners.some((o) => owns(o, file))) continue
        const entry = `${file} names ${table}`
        found.push(entry)
        if (!KNOWN_VIOLATIONS.includes(entry))
          messages.push(
            `src/${file} names table ${table} (${snakeCase(table)}), owned by ${owners.join(' and ') || 'no one'}: ` +
              "call the owner's exported functions (its feature's public.ts) instead, or add one there.",
          )
      }
    }
    expect(messages, messages.join('\n')).toEqual([])
    const fixed = KNOWN_VIOLATIONS.filter((v) => !found.includes(v))
    expect(
      fixed,
      `no longer true, delete from KNOWN_VIOLATIONS in test/rules/tables.test.ts:\n${fixed.join('\n')}`,
    ).toEqual([])
  })
})

describe('the scanner finds every way of naming a table', () => {
  const tables = ['costSeries', 'tenants', 'resources', 'rowCounts', 'dailyCosts', 'users']

  it("Kysely's builders, with and without an alias", () => {
    expect(tablesNamedIn("db.selectFrom('costSeries').selectAll()", tables)).toEqual(['costSeries'])
    expect(tablesNamedIn('db.selectFrom("costSeries as s")', tables)).toEqual(['costSeries'])
    expect(tablesNamedIn("db.selectFrom(['tenants as t', 'resources'])", tables)).toEqual(['tenants', 'resources'])
    expect(tablesNamedIn("trx\n  .insertInto('rowCounts')\n  .values(v)", tables)).toEqual(['rowCounts'])
    expect(tablesNamedIn("trx.updateTable('users').set(x)", tables)).toEqual(['users'])
    expect(tablesNamedIn("trx.deleteFrom( 'dailyCosts' )", tables)).toEqual(['dailyCosts'])
    expect(tablesNamedIn("sql.table('tenants')", tables)).toEqual(['tenants'])
  })

  it('joins', () => {
    const q =
      "db.selectFrom('costSeries').innerJoin('tenants as t', 't.id', 'tenantId').leftJoin('resources', 'a', 'b')"
    expect(tablesNamedIn(q, tables)).toEqual(['costSeries', 'tenants', 'resources'])
    expect(tablesNamedIn("qb.rightJoin('users', 'u.id', 'x').fullJoin('rowCounts', 'a', 'b')", tables)).toEqual([
      'users',
      'rowCounts',
    ])
  })

  it('raw SQL in templates and strings, in any case', () => {
    expect(tablesNamedIn('sql`delete from cost_series where date >= 1`', tables)).toEqual(['costSeries'])
    expect(tablesNamedIn("sql.raw('SELECT n FROM row_counts')", tables)).toEqual(['rowCounts'])
    expect(tablesNamedIn('sql`select 1 from x JOIN tenants t on t.id = x.tenant_id`', tables)).toEqual(['tenants'])
    expect(tablesNamedIn('sql`update "users" set a = 1`', tables)).toEqual(['users'])
    expect(tablesNamedIn("const t = { table: 'daily_costs' }", tables)).toEqual(['dailyCosts'])
  })

  it('not a word in a comment, a column or prose', () => {
    const text = [
      '// reads cost_series and from tenants',
      '/* daily_costs: the key */',
      "const tenants = await store.list() // 'tenants'",
      "eb.ref('tenants.id')",
      "throw new Error('resources not found')",
      'const url = \'https://example.com/a//b\' + "users"',
    ].join('\n')
    expect(tablesNamedIn(text, tables)).toEqual([])
  })
})
