/**
 * Budgets over a large estate, in process on a real database file: one organisation, a simulated tenant of 20,000
 * resources (BENCH_BUDGETS_RESOURCES) with 120 days of daily costs up to yesterday (BENCH_BUDGETS_DAYS), collected
 * as a snapshot run records them (inventory with tags, then the cost ingest's stage and merge), and 1,000 budgets
 * (BENCH_BUDGETS_COUNT) made through the budget rules (checked and stored with their audit record, as the API does):
 * the whole tenancy or organisation, a team's tag (20 teams), a resource group, a service, or two of them together;
 * Monthly, Quarterly or Custom; one to four thresholds; amounts around the scope's share of the tenant's month.
 *
 * Measured, each a few times (BENCH_BUDGETS_REPEATS, 5), cold (the first call on a newly opened database) and warm
 * (the same call again):
 * - the evaluation after an analysis (`budgets.evaluateAfter`: every budget's status, each distinct scope's costs
 *   read once, the forecasts fitted, the latches read). Target: under 2 s on SQLite;
 * - the reads people make: a page of 100 budgets with their status (`budgets.list`), the budgets at risk, and a
 *   load of the overview (which computes the budgets at risk each time).
 * Beside them, in the same run: the distinct scopes and cost reads of one evaluation, and the time waited on those
 * reads (summed over reads that overlap).
 *
 * BENCH_BUDGETS_DB=<file>: a SQLite file kept between runs (seeded when it does not exist yet, else reused as it
 * is), to measure again without seeding. BENCH_CPU_PROF=<dir>: a .cpuprofile of the warm evaluations.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { dirname, join, resolve } from 'node:path'
import { createSimulatedConnector } from '../src/connectors/simulated/index.js'
import type { TenantConnection } from '../src/connectors/types.js'
import type { CreateBudgetRequest } from '../src/features/budgets/schemas.js'
import { createBudgetRules } from '../src/features/budgets/service.js'
import { syncInventory } from '../src/features/inventory/store.js'
import { FROM_CLI } from '../src/platform/audit.js'
import type { Principal } from '../src/platform/auth/principal.js'
import { systemClock, uuidV7Ids } from '../src/platform/clock.js'
import { addDays, toDay } from '../src/platform/time.js'
import type { Services } from '../src/services.js'
import {
  type BenchDatabase,
  type Benchmark,
  benchDatabases,
  benchTenant,
  fmt,
  note,
  printTable,
  type Scope,
  seededRandom,
  sqliteDatabase,
  withServices,
} from './lib.js'
import { intFromEnv, secondsSince } from './support.js'

const TARGET_MS = 2_000
const TEAMS = 20
const ORGANISATION = 'Bench budgets'

interface Seeded {
  resources: number
  organisationId: string
  tenantId: string
  principal: Principal
  budgets: number
  seedSeconds: number
}

/** The estate and its costs, as a snapshot run writes them (src/features/snapshots/collect.ts); not timed. */
async function seedCosts(services: Services, db: { kysely: Parameters<typeof syncInventory>[0] }, resources: number) {
  const { organisationId, principal, tenant } = await benchTenant(services, {
    organisation: ORGANISATION,
    ownerEmail: 'bench@budgets.test',
    tenant: 'Estate',
    cloudTenantId: 'bench-budgets.onmicrosoft.com',
  })
  const conn: TenantConnection = {
    tenantId: tenant.id,
    cloudTenantId: tenant.cloudTenantId!,
    credentialType: 'ManagedIdentity',
    clientId: null,
    clientSecret: null,
    certificateThumbprint: null,
  }
  const connector = createSimulatedConnector({ resourceCount: resources })
  const context = { clock: systemClock }
  const yesterday = addDays(toDay(new Date()), -1)
  const days = intFromEnv('BENCH_BUDGETS_DAYS', 120)
  const window = { from: addDays(yesterday, -(days - 1)), to: yesterday }
  const inventory = await connector.inventory(conn, context)
  // Twenty teams instead of the simulated estate's four, each resource its own team's: tag scopes of every size.
  const random = seededRandom(29)
  for (const r of inventory.resources) r.tags = { ...r.tags, team: teamName(Math.floor(random() * TEAMS)) }
  const services_ = new Set<string>()
  for await (const batch of connector.dailyCosts(conn, window, context)) {
    for (const row of batch) services_.add(row.serviceName)
    await services.costIngest.stage('bench', tenant.id, batch)
  }
  await db.kysely.transaction().execute(async (trx) => {
    await syncInventory(trx, tenant.id, inventory, new Date().toISOString(), uuidV7Ids)
    await services.costIngest.mergeStaged(trx, 'bench')
  })
  const groups = [...new Set(inventory.resourceGroups.map((g) => g.name))].sort()
  return {
    organisationId,
    tenantId: tenant.id,
    principal,
    groups,
    services: [...services_].filter((s) => s !== 'Support').sort(),
  }
}

const teamName = (i: number) => `team-${String(i).padStart(2, '0')}`

/** `count` budgets of a realistic mix of scopes, periods and thresholds (deterministic). */
function budgetRequests(
  count: number,
  estate: { tenantId: string; groups: string[]; services: string[]; monthly: number },
): CreateBudgetRequest[] {
  const random = seededRandom(2029)
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  const today = toDay(new Date())
  const month = today.slice(0, 7)
  const quarterStart = `${today.slice(0, 4)}-${String(Math.floor((Number(today.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, '0')}-01`
  const team = () => ({ key: pick(['team', 'Team']), value: teamName(Math.floor(random() * TEAMS)) })
  const requests: CreateBudgetRequest[] = []
  for (let i = 0; i < count; i++) {
    const kind = random()
    let scope: CreateBudgetRequest['scope']
    let label: string
    // The scope's share of the tenant's month, were costs spread evenly: what its owner would plan for.
    let share = 1
    const [g, s, t] = [estate.groups.length, estate.services.length, TEAMS]
    if (kind < 0.03) {
      scope = { tenancyIds: null }
      label = 'Organisation'
    } else if (kind < 0.06) {
      scope = { tenancyIds: [estate.tenantId] }
      label = 'Estate'
    } else if (kind < 0.46) {
      const tag = team()
      scope = { tenancyIds: [estate.tenantId], tags: [tag] }
      label = tag.value
      share = 1 / t
    } else if (kind < 0.64) {
      const group = pick(estate.groups)
      scope = { tenancyIds: [estate.tenantId], resourceGroup: group }
      label = group
      share = 1 / g
    } else if (kind < 0.78) {
      const service = pick(estate.services)
      scope = { tenancyIds: [estate.tenantId], service }
      label = service
      share = 1 / s
    } else if (kind < 0.88) {
      const tag = team()
      const service = pick(estate.services)
      scope = { tenancyIds: [estate.tenantId], tags: [tag], service }
      label = `${tag.value} ${service}`
      share = 1 / (t * s)
    } else if (kind < 0.95) {
      const tag = team()
      const group = pick(estate.groups)
      scope = { tenancyIds: [estate.tenantId], tags: [tag], resourceGroup: group }
      label = `${tag.value} ${group}`
      share = 1 / (t * g)
    } else {
      const group = pick(estate.groups)
      const service = pick(estate.services)
      scope = { tenancyIds: [estate.tenantId], resourceGroup: group, service }
      label = `${group} ${service}`
      share = 1 / (g * s)
    }
    // From 0.7 to 1.7 times that share: some budgets are at risk, most are not.
    const amount = Math.max(1, Math.round(estate.monthly * share * (0.7 + random())))
    const thresholds = [
      { kind: 'Percent' as const, value: 50, basis: 'Actual' as const },
      { kind: 'Percent' as const, value: 80, basis: 'Actual' as const },
      { kind: 'Percent' as const, value: 100, basis: 'Forecast' as const },
      { kind: 'Amount' as const, value: amount * 1.2, basis: 'Actual' as const },
    ].slice(0, 1 + Math.floor(random() * 4))
    const period = random()
    const common = { name: `${label} ${i + 1}`, scope, currency: 'USD', thresholds }
    if (period < 0.6)
      // Most months start on the 1st; some on another day (a billing cycle's).
      requests.push({
        ...common,
        period: 'Monthly',
        amount,
        startDate: random() < 0.85 ? `${month}-01` : addDays(`${month}-01`, -(31 + 16)),
      })
    else if (period < 0.9)
      requests.push({ ...common, period: 'Quarterly', amount: amount * 3, startDate: quarterStart })
    else {
      // Three periods around today, of a few weeks each.
      const from = addDays(today, -Math.floor(10 + random() * 30))
      const periods = [0, 1, 2].map((k) => ({
        from: addDays(from, k * 30),
        to: addDays(from, k * 30 + 29),
        amount: Math.round(amount * (0.8 + 0.4 * random())),
      }))
      requests.push({ ...common, period: 'Custom', periods })
    }
  }
  return requests
}

/**
 * Budgets `from`..`count - 1` of budgetRequests, through the budget rules (checked and stored with their audit
 * record as the API stores them; without the status the API answers, which is what is measured).
 */
async function addBudgets(
  services: Services,
  estate: { principal: Principal; tenantId: string; groups: string[]; services: string[] },
  from: number,
  count: number,
) {
  const rules = createBudgetRules({
    store: services.budgetStore,
    // The benchmark's one tenancy is the organisation's.
    tenancies: { unknownTenancies: async () => [] },
    clock: systemClock,
    ids: uuidV7Ids,
  })
  // The tenant's last 30 days: what the amounts are planned against.
  const yesterday = addDays(toDay(new Date()), -1)
  const cells = await services.costReads.scopeCells(estate.tenantId, null, addDays(yesterday, -29), yesterday)
  const monthly = cells.reduce((sum, c) => sum + (c.currency === 'USD' ? c.cost : 0), 0)
  for (const request of budgetRequests(count, { ...estate, monthly }).slice(from))
    await rules.create(estate.principal, FROM_CLI, request)
}

async function seed(database: BenchDatabase, resources: number, count: number): Promise<Seeded> {
  return withServices(database, async (services, { db }) => {
    const started = performance.now()
    const estate = await seedCosts(services, db, resources)
    await addBudgets(services, estate, 0, count)
    return {
      resources,
      organisationId: estate.organisationId,
      tenantId: estate.tenantId,
      principal: estate.principal,
      budgets: count,
      seedSeconds: secondsSince(started),
    }
  })
}

/** The organisation seeded in an earlier run of a kept file (BENCH_BUDGETS_DB), its budgets made up to `count`. */
async function seededBefore(database: BenchDatabase, count: number): Promise<Seeded> {
  return withServices(database, async (services, { db }) => {
    const org = await db.kysely
      .selectFrom('organisations')
      .select('id')
      .where('name', '=', ORGANISATION)
      .executeTakeFirstOrThrow()
    const owner = await db.kysely
      .selectFrom('users')
      .select(['id', 'email'])
      .where('organisationId', '=', org.id)
      .executeTakeFirstOrThrow()
    const tenant = await db.kysely
      .selectFrom('tenants')
      .select('id')
      .where('organisationId', '=', org.id)
      .executeTakeFirstOrThrow()
    const budgets = await db.kysely
      .selectFrom('budgets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organisationId', '=', org.id)
      .executeTakeFirstOrThrow()
    const principal: Principal = {
      organisationId: org.id,
      actor: { type: 'User', id: owner.id, name: owner.email },
      isOwner: true,
      tenancyRoles: new Map(),
    }
    const started = performance.now()
    if (Number(budgets.n) < count) {
      const groups = await db.kysely
        .selectFrom('resourceGroups')
        .select('name')
        .distinct()
        .where('tenantId', '=', tenant.id)
        .orderBy('name')
        .execute()
      const serviceNames = (
        await services.costReads.scopeCells(tenant.id, null, addDays(toDay(new Date()), -7), toDay(new Date()))
      )
        .map((c) => c.service)
        .filter((s) => s !== 'Support')
      await addBudgets(
        services,
        {
          principal,
          tenantId: tenant.id,
          groups: groups.map((g) => g.name),
          services: [...new Set(serviceNames)].sort(),
        },
        Number(budgets.n),
        count,
      )
    }
    const resources = await db.kysely
      .selectFrom('resources')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenantId', '=', tenant.id)
      .executeTakeFirstOrThrow()
    return {
      resources: Number(resources.n),
      organisationId: org.id,
      tenantId: tenant.id,
      principal,
      budgets: Math.max(count, Number(budgets.n)),
      seedSeconds: secondsSince(started),
    }
  })
}

/** Counts (and times) the cost reads the budget service makes, by wrapping the read path it was given. */
function countReads(services: Services) {
  const reads = services.costReads as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>
  const counted = {
    filteredDaily: 0,
    scopeCells: 0,
    settledThrough: 0,
    filteredServices: 0,
    ms: 0,
  }
  for (const name of ['filteredDaily', 'scopeCells', 'settledThrough', 'filteredServices'] as const) {
    const original = reads[name]!
    reads[name] = async (...args: unknown[]) => {
      counted[name]++
      const started = performance.now()
      try {
        return await original.apply(reads, args)
      } finally {
        counted.ms += performance.now() - started
      }
    }
  }
  return counted
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

interface Timings {
  cold: number[]
  warm: number[]
}

async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_CPU_PROF
  if (!dir) return work()
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.start')
  try {
    return await work()
  } finally {
    const { profile } = await session.post('Profiler.stop')
    const file = join(resolve(dir), `budgets-${name}-${Date.now()}.cpuprofile`)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, JSON.stringify(profile))
    note(`CPU profile: ${file}`)
    session.disconnect()
  }
}

export const budgetsBenchmark: Benchmark = {
  name: 'budgets',
  description: '1,000 budgets over a 20,000-resource tenant: evaluation after an analysis, list, at risk',
  async run(scope: Scope) {
    const resources = intFromEnv('BENCH_BUDGETS_RESOURCES', 20_000)
    const count = intFromEnv('BENCH_BUDGETS_COUNT', 1_000)
    const repeats = intFromEnv('BENCH_BUDGETS_REPEATS', 5)
    const kept = process.env.BENCH_BUDGETS_DB
    let met = true
    for (const { dialect, open } of benchDatabases()) {
      const part = scope.child()
      try {
        let database: BenchDatabase
        let reuse = false
        if (dialect === 'sqlite' && kept) {
          const file = resolve(kept)
          reuse = existsSync(file)
          const fresh = sqliteDatabase(part)
          database = { ...fresh, url: file, env: { ...fresh.env, COSTWATCH_DATABASE_URL: file } }
        } else database = await open(part)
        const seeded = reuse ? await seededBefore(database, count) : await seed(database, resources, count)
        if (reuse)
          note(
            `${database.label}: reusing ${database.url} (${seeded.budgets} budgets, ${seeded.seedSeconds.toFixed(1)} s to make up)`,
          )
        else note(`${database.label}: seeded in ${seeded.seedSeconds.toFixed(1)} s`)

        const evaluation: Timings = { cold: [], warm: [] }
        const listing: Timings = { cold: [], warm: [] }
        const risk: Timings = { cold: [], warm: [] }
        const overview: Timings = { cold: [], warm: [] }
        let facts = { budgets: 0, crossings: 0, distinctScopes: 0, reads: 0, readMs: 0, atRisk: 0, listed: 0 }
        // The process's CPU time too (SQLite's work included): on a shared machine, what the wall clock would be
        // on cores of its own.
        const evaluationCpu: Timings = { cold: [], warm: [] }
        const time = async <T>(into: number[], work: () => Promise<T>, cpu?: number[]) => {
          const started = performance.now()
          const cpuBefore = process.cpuUsage()
          const value = await work()
          into.push(performance.now() - started)
          const used = process.cpuUsage(cpuBefore)
          cpu?.push((used.user + used.system) / 1000)
          return value
        }
        for (let r = 0; r < repeats; r++) {
          // Cold: the first evaluation on a newly opened database (its page cache empty; the OS's is not).
          await withServices(database, async (services) => {
            const reads = countReads(services)
            const evaluated = await time(
              evaluation.cold,
              () => services.budgets.evaluateAfter(seeded.organisationId, seeded.tenantId),
              evaluationCpu.cold,
            )
            const budgets = await services.budgetStore.covering(seeded.organisationId, seeded.tenantId)
            facts = {
              ...facts,
              budgets: budgets.length,
              crossings: evaluated.reduce((n, e) => n + e.crossings.length, 0),
              distinctScopes: new Set(
                budgets.map((b) =>
                  JSON.stringify([b.scope.tenancyIds, b.scope.tags, b.scope.resourceGroup, b.scope.service]),
                ),
              ).size,
              reads: reads.filteredDaily + reads.scopeCells,
              readMs: reads.ms,
            }
            await profiled('evaluate', async () => {
              for (let w = 0; w < 3; w++)
                await time(
                  evaluation.warm,
                  () => services.budgets.evaluateAfter(seeded.organisationId, seeded.tenantId),
                  evaluationCpu.warm,
                )
            })
          })
          await withServices(database, async (services) => {
            const page = { page: 1, pageSize: 100 }
            const listed = await time(listing.cold, () => services.budgets.list(seeded.principal, page))
            for (let w = 0; w < 3; w++) await time(listing.warm, () => services.budgets.list(seeded.principal, page))
            const atRisk = await time(risk.cold, () => services.budgets.atRisk(seeded.principal, {}))
            for (let w = 0; w < 3; w++) await time(risk.warm, () => services.budgets.atRisk(seeded.principal, {}))
            facts = { ...facts, atRisk: atRisk.length, listed: listed.items.length }
            // The overview people land on: its budgets at risk are computed on each load.
            await time(overview.cold, () => services.overview.overview(seeded.principal, {}))
            for (let w = 0; w < 3; w++)
              await time(overview.warm, () => services.overview.overview(seeded.principal, {}))
          })
        }
        const evalMs = median(evaluation.warm)
        const coldMs = median(evaluation.cold)
        const ok = Math.max(evalMs, coldMs) < TARGET_MS
        if (dialect === 'sqlite') met &&= ok
        note(
          `${database.label}: ${fmt.int(seeded.resources)} resources, ${fmt.int(facts.budgets)} budgets covering the tenant, ` +
            `${fmt.int(facts.distinctScopes)} distinct scopes (${fmt.int(facts.reads)} cost reads, ` +
            `${fmt.ms(facts.readMs)} waited on them), ${fmt.int(facts.crossings)} thresholds crossed, ` +
            `${fmt.int(facts.atRisk)} at risk`,
        )
        printTable(
          ['operation', `cold (median of ${repeats})`, `warm (median of ${repeats * 3})`, 'min', 'max'],
          [
            ['evaluateAfter (every budget)', evaluation],
            [`list (a page of ${facts.listed})`, listing],
            ['atRisk (every budget)', risk],
            ['overview (a load, budgets at risk included)', overview],
          ].map(([label, t]) => {
            const all = [...(t as Timings).cold, ...(t as Timings).warm]
            return [
              label as string,
              fmt.ms(median((t as Timings).cold)),
              fmt.ms(median((t as Timings).warm)),
              fmt.ms(Math.min(...all)),
              fmt.ms(Math.max(...all)),
            ]
          }),
          [1, 2, 3, 4],
        )
        note(
          `CPU time of the evaluation (the process's, SQLite's included): cold ${fmt.ms(median(evaluationCpu.cold))}, ` +
            `warm ${fmt.ms(median(evaluationCpu.warm))}`,
        )
        note(
          `target: the evaluation of ${fmt.int(facts.budgets)} budgets under ${TARGET_MS / 1000} s` +
            `${dialect === 'sqlite' ? '' : ' (set for SQLite; shown for comparison)'}: ` +
            `cold ${fmt.ms(coldMs)}, warm ${fmt.ms(evalMs)}: ${ok ? 'met' : 'MISSED'}`,
        )
      } finally {
        await part.close()
      }
    }
    return { met }
  },
}
