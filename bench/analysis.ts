/**
 * The anomaly analyser end to end on one tenant (BENCH_ANALYSIS_RESOURCES resources, 2,000 by default, over
 * BENCH_ANALYSIS_DAYS days, 150): its reads of every scope's series (usageSeries, today a GROUP BY over
 * daily_costs), the judgement of each series, and the upsert of the anomalies, for the range of a deep-history
 * snapshot (the last 30 days). Beside it, in the same run, the reads alone: the share a faster series store can
 * save. Target: under 10 s, as for detection of 20,000 series.
 */
import { createAnomalyAnalyser } from '../src/features/anomalies/detection.js'
import { createAnomalyStore, SCOPE_LEVELS } from '../src/features/anomalies/store.js'
import { createCostReads } from '../src/features/costs/read/index.js'
import { rebuildSeries } from '../src/features/costs/rebuild.js'
import { createInventoryStore, currentResourceTags, inventoryForCosts } from '../src/features/inventory/store.js'
import { systemClock, uuidV7Ids } from '../src/platform/clock.js'
import { addDays } from '../src/platform/time.js'
import { type Benchmark, benchDatabases, benchTenant, insertInBatches, seededRandom, withServices } from './lib.js'
import { intFromEnv, secondsSince } from './support.js'

const TARGET_SECONDS = 10
const LAST_DAY = '2026-06-30'

export const analysisBenchmark: Benchmark = {
  name: 'analysis',
  description: "the anomaly analyser over one tenant's scopes: read series, judge, upsert",
  async run(scope) {
    const resources = intFromEnv('BENCH_ANALYSIS_RESOURCES', 2_000)
    const days = intFromEnv('BENCH_ANALYSIS_DAYS', 150)
    let met = true
    for (const database of benchDatabases()) {
      const opened = await database.open(scope)
      await withServices(opened, async (services, { db, config }) => {
        const { organisationId, tenant } = await benchTenant(services, {
          organisation: 'Bench',
          ownerEmail: 'bench@costwatch.test',
          tenant: 'Bench estate',
          cloudTenantId: 'bench.onmicrosoft.com',
        })
        const random = seededRandom(7)
        const level = Array.from({ length: resources }, () => 5 + 300 * random())
        const first = addDays(LAST_DAY, -(days - 1))
        const resourceKey = (r: number) =>
          `/subscriptions/sub-${r % 4}/resourcegroups/rg-${r % 40}/providers/x/y/res-${r}`
        await insertInBatches(db.kysely, 'costResources', resources, (r) => ({
          tenantId: tenant.id,
          resourceKey: resourceKey(r),
        }))
        const ids = new Map(
          (await db.kysely.selectFrom('costResources').select(['id', 'resourceKey']).execute()).map((c) => [
            c.resourceKey,
            Number(c.id),
          ]),
        )
        await insertInBatches(db.kysely, 'dailyCosts', resources * days, (i) => {
          const r = i % resources
          const d = Math.floor(i / resources)
          const sub = `sub-${r % 4}`
          const spike = (r * 7 + d) % 97 === 0 ? 4 : 1
          return {
            resourceId: ids.get(resourceKey(r))!,
            month: addDays(first, d).slice(0, 7),
            date: addDays(first, d),
            meterId: 'm',
            subscriptionId: sub,
            resourceGroupKey: `rg-${r % 40}`,
            meterName: null,
            serviceName: `service-${r % 12}`,
            cost: level[r]! * (d % 7 >= 5 ? 0.7 : 1) * (1 + 0.05 * (random() - 0.5)) * spike,
            currency: 'EUR',
          }
        })
        // The rows went straight in: the daily series a merge would keep are written once, not timed.
        await rebuildSeries(db.kysely, currentResourceTags, tenant.id, first, LAST_DAY)
        const store = createAnomalyStore(db.kysely)
        const costs = createCostReads(db.kysely, inventoryForCosts(db.kysely, db.dialect))
        const from = addDays(LAST_DAY, -29)
        let started = performance.now()
        for (const l of SCOPE_LEVELS) await costs.usageSeries(tenant.id, l, addDays(from, -119), LAST_DAY)
        const reads = secondsSince(started)
        const analyser = createAnomalyAnalyser({
          store,
          costs,
          inventory: createInventoryStore(db.kysely, db.dialect),
          organisationOf: async () => organisationId,
          options: config.anomalyDetection,
          clock: systemClock,
          ids: uuidV7Ids,
        })
        const ctx = { tenantId: tenant.id, from, to: LAST_DAY, now: new Date(), progress: () => {} }
        started = performance.now()
        await analyser.analyse({ ...ctx, signal: new AbortController().signal })
        const seconds = secondsSince(started)
        const written = await db.kysely
          .selectFrom('anomalies')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
        const ok = seconds < TARGET_SECONDS
        met &&= ok
        process.stdout.write(
          `${opened.label}: ${resources} resources x ${days} days (${(resources * days).toLocaleString('en')} rows), ` +
            `30 days judged: analyser ${seconds.toFixed(2)} s (series reads alone ${reads.toFixed(2)} s), ` +
            `${Number(written.n)} anomalies; target < ${TARGET_SECONDS} s: ${ok ? 'met' : 'MISSED'}\n`,
        )
      })
    }
    return { met }
  },
}
