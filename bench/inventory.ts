/**
 * The resource list of a large tenant with each of its filters, as `GET .../tenants/{id}/resources?...` reads it (a
 * page of 50 and its exact `totalCount`): one tenant of 20,000 resources in 200 groups with two to four tags each,
 * on SQLite (the target) and PostgreSQL (printed beside it). No cost rows are seeded: a page's costs are looked up
 * for its 50 resources whatever the filter, and are measured by `charts`. The sort by cost reads every matching
 * resource's summary row and running totals (seeded for the last 40 days of every resource), not its cost rows.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { ResourceFilter, ResourceSort } from '../src/features/inventory/store.js'
import { bumpVersion } from '../src/platform/cache.js'
import { addDays, toDay } from '../src/platform/time.js'
import {
  type BenchDatabase,
  type Benchmark,
  benchDatabases,
  fmt,
  heading,
  insertInBatches,
  note,
  printTable,
  seededRandom,
  withServices,
} from './lib.js'

const RESOURCES = 20_000
const GROUPS = 200
const REQUESTS = 50
const COST_DAYS = 40
/** A person filtering waits for each answer: under 50 ms of work per filtered page, on SQLite. */
const TARGET_CPU_MS = 50
/**
 * A sort by cost ranks every matching resource by its cost over the last 30 days, as a chart by resource ranks
 * them over its range: the charts' target, 300 ms (performance.md). Its time is two index seeks per resource
 * (the summary row, the running total before the 30 days), about half of it reading pages from the file:
 * with `PRAGMA mmap_size` or a 128 MB page cache the same sort took 87 ms instead of 132.
 */
const RANKING_TARGET_CPU_MS = 300

const TYPES = [
  'Microsoft.Compute/virtualMachines',
  'Microsoft.Compute/disks',
  'Microsoft.Network/networkInterfaces',
  'Microsoft.Storage/storageAccounts',
  'Microsoft.Sql/servers/databases',
  'Microsoft.Web/sites',
]
const WORKLOADS = ['web', 'api', 'batch', 'data', 'search', 'billing', 'identity', 'reporting']
const ENVIRONMENTS = ['prod', 'staging', 'dev']
const TEAMS = ['payments', 'platform', 'growth', 'core']

async function seed(database: BenchDatabase): Promise<{ tenantId: string; ms: number }> {
  return withServices(database, async (services, { db }) => {
    const started = performance.now()
    const { organisation } = await services.organisations.create({
      name: 'Bench Org',
      ownerEmail: 'owner@bench.example',
      plan: 'enterprise',
    })
    const random = seededRandom(7)
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
    const tenantId = randomUUID()
    const seen = new Date().toISOString()
    const subscriptions = Array.from({ length: 4 }, () => randomUUID())
    const armIds: string[] = []
    const groups = Array.from({ length: GROUPS }, (_, i) => {
      const subscriptionId = subscriptions[i % subscriptions.length]!
      const name = `rg-${pick(WORKLOADS)}-${String(i).padStart(3, '0')}`
      return {
        id: randomUUID(),
        subscriptionId,
        name,
        armId: `/subscriptions/${subscriptionId}/resourceGroups/${name}`,
        tags: { workload: pick(WORKLOADS), environment: pick(ENVIRONMENTS) },
      }
    })
    await db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('tenants')
        .values({
          id: tenantId,
          organisationId: organisation.id,
          name: 'Large estate',
          cloudTenantId: randomUUID(),
          credentialType: 'ManagedIdentity',
          clientId: null,
          certificateThumbprint: null,
          clientSecretSealed: null,
          connector: 'simulated',
          createdAt: seen,
        })
        .execute()
      await trx
        .insertInto('subscriptions')
        .values(
          subscriptions.map((subscriptionId, i) => ({
            tenantId,
            subscriptionId,
            displayName: `Subscription ${i + 1}`,
            state: 'Enabled',
            currency: 'USD',
            firstSeenAt: seen,
            lastSeenAt: seen,
          })),
        )
        .execute()
      await insertInBatches(trx, 'resourceGroups', GROUPS, (i) => {
        const g = groups[i]!
        return {
          ...g,
          tenantId,
          nameLower: g.name.toLowerCase(),
          location: 'westeurope',
          tags: JSON.stringify(g.tags),
          firstSeenAt: seen,
          lastSeenAt: seen,
        }
      })
      await insertInBatches(trx, 'resources', RESOURCES, (i) => {
        const g = groups[i % GROUPS]!
        const type = pick(TYPES)
        const name = `${type.split('/').pop()!.slice(0, 4).toLowerCase()}-${g.tags.workload}-${String(i).padStart(5, '0')}`
        const armId = `${g.armId}/providers/${type}/${name}`
        const tags: Record<string, string> = { ...g.tags }
        if (random() < 0.3) tags.owner = `${pick(TEAMS)}@example.com`
        if (random() < 0.1) tags.Environment = g.tags.environment!
        armIds.push(armId.toLowerCase())
        return {
          id: randomUUID(),
          tenantId,
          subscriptionId: g.subscriptionId,
          resourceGroupId: g.id,
          resourceGroupName: g.name,
          armId,
          armIdLower: armId.toLowerCase(),
          name,
          resourceType: type,
          location: 'westeurope',
          tags: JSON.stringify(tags),
          sku: null,
          state: null,
          firstSeenAt: seen,
          lastSeenAt: seen,
        }
      })
      // Running totals of the last COST_DAYS days of every resource, a cost of 1 to 100 a day, by each resource's
      // number (cost_resources).
      await insertInBatches(trx, 'costResources', RESOURCES, (r) => ({ tenantId, resourceKey: armIds[r]! }))
      const numbers = await trx
        .selectFrom('costResources')
        .select(['id', 'resourceKey'])
        .where('tenantId', '=', tenantId)
        .execute()
      const idOf = new Map(numbers.map((n) => [n.resourceKey, Number(n.id)]))
      const resourceIds = armIds.map((key) => idOf.get(key)!)
      const today = toDay(new Date())
      const running = new Float64Array(RESOURCES)
      await insertInBatches(trx, 'resourceRunningCosts', RESOURCES * COST_DAYS, (i) => {
        const r = i % RESOURCES
        const cost = 1 + Math.floor(random() * 100)
        running[r]! += cost
        const date = addDays(today, Math.floor(i / RESOURCES) - COST_DAYS + 1)
        return {
          month: date.slice(0, 7),
          resourceId: resourceIds[r]!,
          currency: 'USD',
          date,
          runningCost: running[r]!,
          cost,
        }
      })
      // Each month's last running total per resource, as a merge writes them beside the running totals.
      await sql`
        insert into resource_month_ends (resource_id, currency, month, date, running_cost)
        select r.resource_id, r.currency, r.month, r.date, r.running_cost from resource_running_costs r
        join (select resource_id, currency, month, max(date) as date from resource_running_costs
          group by resource_id, currency, month) last
        on last.resource_id = r.resource_id and last.currency = r.currency and last.month = r.month
          and last.date = r.date`.execute(trx)
      // And each resource's summary row, as a merge writes it beside its running totals.
      await insertInBatches(trx, 'resourceCostTotals', RESOURCES, (r) => ({
        tenantId,
        currency: 'USD',
        resourceKey: armIds[r]!,
        resourceId: resourceIds[r]!,
        firstDate: addDays(today, -COST_DAYS + 1),
        lastDate: today,
        runningCost: running[r]!,
      }))
      await bumpVersion(trx, organisation.id)
    })
    if (database.dialect === 'postgres') await sql`vacuum analyze resources`.execute(db.kysely)
    return { tenantId, ms: performance.now() - started }
  })
}

const targetOf = (sort?: ResourceSort) => (sort === '-last30Days' ? RANKING_TARGET_CPU_MS : TARGET_CPU_MS)

const QUERIES: { label: string; filter: ResourceFilter; page?: number; sort?: ResourceSort }[] = [
  { label: 'no filter', filter: {} },
  { label: 'one tag (key:value)', filter: { tags: [{ key: 'environment', value: 'prod' }] } },
  { label: 'two tags (value, key only)', filter: { tags: [{ key: 'workload', value: 'web' }, { key: 'owner' }] } },
  { label: 'tag in another spelling', filter: { tags: [{ key: 'ENVIRONMENT', value: 'dev' }] } },
  { label: 'tag no resource has', filter: { tags: [{ key: 'owner', value: 'nobody@example.com' }] } },
  { label: 'name search', filter: { search: 'WEB-001' } },
  {
    label: 'type + search + tag',
    filter: { resourceType: 'microsoft.compute/disks', search: 'api', tags: [{ key: 'environment', value: 'dev' }] },
  },
  { label: 'sort -name, page 100', filter: {}, page: 100, sort: '-name' },
  { label: 'sort resourceType', filter: {}, sort: 'resourceType' },
  { label: 'sort -last30Days (costliest)', filter: {}, sort: '-last30Days' },
  {
    label: 'one tag, sort -last30Days',
    filter: { tags: [{ key: 'environment', value: 'prod' }] },
    sort: '-last30Days',
  },
]

interface Timing {
  database: string
  query: string
  totalCount: number
  /** Wall time of one call, median. */
  median: number
  /** This process's CPU time per call (SQLite runs inside it; PostgreSQL's own work is not counted). */
  cpu: number
  targetMs: number
}

/**
 * Each list as the route calls it (store, then the page's costs), in this process: on a machine shared with other
 * work, the CPU time a call takes is what can be compared between runs, wall time is printed beside it.
 */
async function runOn(database: BenchDatabase): Promise<Timing[]> {
  heading(`${database.label}: seeding ${fmt.int(RESOURCES)} resources`)
  const { tenantId, ms } = await seed(database)
  note(`seeded in ${(ms / 1000).toFixed(1)} s`)
  return withServices(database, async (services) => {
    const timings: Timing[] = []
    for (const { label, filter, page = 1, sort } of QUERIES) {
      const list = () => services.inventory.listResources(tenantId, filter, { page, pageSize: 50 }, sort)
      const first = await list()
      for (let i = 0; i < 5; i++) await list()
      const took: number[] = []
      const cpuBefore = process.cpuUsage()
      for (let i = 0; i < REQUESTS; i++) {
        const started = performance.now()
        await list()
        took.push(performance.now() - started)
      }
      const cpu = process.cpuUsage(cpuBefore)
      took.sort((a, b) => a - b)
      timings.push({
        database: database.label,
        query: label,
        totalCount: first.totalCount,
        median: took[Math.floor(REQUESTS / 2)]!,
        cpu: (cpu.user + cpu.system) / 1000 / REQUESTS,
        targetMs: targetOf(sort),
      })
    }
    return timings
  })
}

export const inventoryBenchmark: Benchmark = {
  name: 'inventory',
  description: `filtered resource lists of a ${fmt.int(RESOURCES)}-resource tenant (tags, search, sort)`,
  async run(scope) {
    const timings: Timing[] = []
    for (const database of benchDatabases()) timings.push(...(await runOn(await database.open(scope))))
    heading(
      `${REQUESTS} calls per list (a page of 50 and its totalCount); target: under ${TARGET_CPU_MS} ms of CPU a ` +
        `call on SQLite, ${RANKING_TARGET_CPU_MS} ms for the sort by cost (a ranking, as a chart's)`,
    )
    printTable(
      ['database', 'list', 'totalCount', 'wall (median)', 'CPU per call', 'target (SQLite)'],
      timings.map((t) => [
        t.database,
        t.query,
        fmt.int(t.totalCount),
        fmt.ms(t.median),
        fmt.ms(t.cpu),
        t.database === 'SQLite' ? `< ${t.targetMs} ms` : '',
      ]),
      [2, 3, 4],
    )
    const sqlite = timings.filter((t) => t.database === 'SQLite')
    if (sqlite.length === 0) return { met: null }
    const met = sqlite.every((t) => t.cpu < t.targetMs)
    note(met ? 'target met' : 'TARGET MISSED')
    return { met }
  },
}
