/**
 * The insights step of an analysis run over a large estate: a simulated tenant of 20,000 resources
 * (BENCH_INSIGHTS_RESOURCES) with 31 days of costs and CPU, collected as a snapshot run records them, then the
 * insights analyser timed alone (reading the facts, every rule over every resource, one write of the result), and
 * once more (a re-run that changes nothing). Target: each under 20 s on SQLite; PostgreSQL too when in
 * BENCH_DATABASES.
 */
import { createSimulatedConnector } from '../src/connectors/simulated/index.js'
import type { TenantConnection } from '../src/connectors/types.js'
import { createInsightsAnalyser } from '../src/features/insights/analyser.js'
import { saveCpuSamples, syncInventory } from '../src/features/inventory/store.js'
import { systemClock, uuidV7Ids } from '../src/platform/clock.js'
import { addDays } from '../src/platform/time.js'
import { type Benchmark, benchDatabases, benchTenant, withServices } from './lib.js'
import { intFromEnv, secondsSince } from './support.js'

const RESOURCES = intFromEnv('BENCH_INSIGHTS_RESOURCES', 20_000)
const TARGET_SECONDS = 20
const NOW = new Date('2026-03-01T09:00:00.000Z')

export const insightsBenchmark: Benchmark = {
  name: 'insights',
  description: 'the insights analyser over a 20,000-resource estate with 31 days of costs and CPU',
  async run(scope) {
    let met = true
    for (const { open } of benchDatabases()) {
      const database = await open(scope)
      await withServices(database, async (services, { db }) => {
        const { tenant } = await benchTenant(services, {
          organisation: 'Bench',
          ownerEmail: 'bench@insights.test',
          tenant: 'Estate',
          cloudTenantId: 'bench-insights.onmicrosoft.com',
        })
        const conn: TenantConnection = {
          tenantId: tenant.id,
          cloudTenantId: tenant.cloudTenantId!,
          credentialType: 'ManagedIdentity',
          clientId: null,
          clientSecret: null,
          certificateThumbprint: null,
        }
        // Not timed: what a snapshot run writes (src/features/snapshots/collect.ts).
        const connector = createSimulatedConnector({ resourceCount: RESOURCES })
        const context = { clock: systemClock }
        const window = { from: addDays('2026-03-01', -30), to: '2026-03-01' }
        const inventory = await connector.inventory(conn, context)
        for await (const batch of connector.dailyCosts(conn, window, context)) {
          await services.costIngest.stage('bench', tenant.id, batch)
        }
        const vms = inventory.resources.filter((r) => r.resourceType === 'Microsoft.Compute/virtualMachines')
        const cpu = await connector.cpuMetrics(
          conn,
          vms.map((v) => v.armId),
          window,
          context,
        )
        await db.kysely.transaction().execute(async (trx) => {
          await syncInventory(trx, tenant.id, inventory, NOW.toISOString(), uuidV7Ids)
          await services.costIngest.mergeStaged(trx, 'bench')
          await saveCpuSamples(trx, tenant.id, cpu)
        })

        const analyser = createInsightsAnalyser({ store: services.insightStore })
        const analyse = async () => {
          const started = performance.now()
          await analyser.analyse({
            tenantId: tenant.id,
            from: window.from,
            to: window.to,
            now: NOW,
            signal: new AbortController().signal,
            progress: () => {},
          })
          return secondsSince(started)
        }
        const first = await analyse()
        const again = await analyse()
        const insights = await db.kysely
          .selectFrom('insights')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
        const ok = first < TARGET_SECONDS && again < TARGET_SECONDS
        met &&= ok
        process.stdout.write(
          `${database.label}: ${RESOURCES} resources, ${cpu.length} CPU days, ${Number(insights.n)} insights: ` +
            `first analysis ${first.toFixed(2)} s, re-run ${again.toFixed(2)} s; ` +
            `target < ${TARGET_SECONDS} s each: ${ok ? 'met' : 'MISSED'}\n`,
        )
      })
    }
    return { met }
  },
}
