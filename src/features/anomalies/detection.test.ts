import { describe, expect, it } from 'vitest'
import { DEFAULT_DETECTION } from '../../config.js'
import { addDays, dayCount } from '../../platform/time.js'
import type { CostReads } from '../costs/read/index.js'
import { createAnomalyAnalyser } from './detection.js'
import type { AnomalyStore, DetectedRow } from './store.js'

/**
 * Runs the analyser from `from` to `to` (clock: the day after `to`) over these costs, with a store that keeps what
 * the run writes and removes, and knows the episodes `ongoing` names as last seen ongoing.
 */
async function analyseWith(
  costs: Pick<CostReads, 'usageSeries' | 'billingCurrencies'>,
  ongoing: Set<string>,
  from: string,
  to: string,
) {
  const written: DetectedRow[] = []
  const removals: unknown[][] = []
  const store = {
    async upsert(rows: readonly DetectedRow[]) {
      written.push(...rows)
    },
    async removeUnconfirmed(...args: unknown[]) {
      removals.push(args)
    },
    async expectedStarts() {
      return []
    },
    async ongoingKeys() {
      return ongoing
    },
    async idsBetween() {
      return new Map()
    },
    async setIncidents() {},
  } as unknown as AnomalyStore
  const now = new Date(`${addDays(to, 1)}T00:00:00Z`)
  const analyser = createAnomalyAnalyser({
    store,
    costs,
    inventory: {
      groupNames: async () => new Map(),
      resourcesByKey: async () => new Map(),
      subscriptionNames: async () => new Map(),
    },
    organisationOf: async () => 'org-1',
    options: DEFAULT_DETECTION,
    clock: { now: () => now },
    ids: { uuid: () => crypto.randomUUID() },
  })
  await analyser.analyse({
    tenantId: 'tenant-1',
    from,
    to,
    now,
    signal: new AbortController().signal,
    progress: () => {},
  })
  return { written, removals }
}

describe('anomaly detection', () => {
  it('reads each level of costs once and the currency once per run, through the cost read path', async () => {
    const ongoing = new Set<string>()
    const usageReads: string[] = []
    let currencyReads = 0
    const costs: Pick<CostReads, 'usageSeries' | 'billingCurrencies'> = {
      async usageSeries(_tenantId, level, from, to) {
        usageReads.push(level)
        const values = new Float64Array(dayCount(from, to)).fill(10)
        values[values.length - 1] = 500 // a spike on the run's last day, at every level
        const parent = level === 'subscription' ? '' : level === 'resourceGroup' ? 'sub-1' : 'sub-1/rg'
        const key =
          level === 'tenant'
            ? ''
            : level === 'subscription'
              ? 'sub-1'
              : level === 'resourceGroup'
                ? 'sub-1/rg'
                : level === 'service'
                  ? 'Compute'
                  : 'sub-1/rg/vm'
        return [
          {
            scopeKey: key,
            parent: level === 'tenant' || level === 'service' ? null : parent,
            currency: 'EUR',
            costs: values,
          },
          // In another currency: left out, never judged.
          { scopeKey: key, parent: null, currency: 'USD', costs: new Float64Array(values.length) },
        ]
      },
      async billingCurrencies(tenantIds) {
        currencyReads++
        return new Map(tenantIds.map((id) => [id, 'EUR']))
      },
    }
    const { written } = await analyseWith(costs, ongoing, '2026-03-01', '2026-03-01')
    expect(usageReads).toEqual(['tenant', 'subscription', 'resourceGroup', 'service', 'resource'])
    expect(currencyReads).toBe(1)
    // The reads were used: the spike was found at every level, in the billing currency.
    expect(new Set(written.map((r) => r.scopeKind))).toEqual(
      new Set(['Tenant', 'Subscription', 'ResourceGroup', 'Service', 'Resource']),
    )
    expect(written.every((r) => r.currency === 'EUR')).toBe(true)
  })
})

describe('anomaly episodes over a run', () => {
  /** Runs the analyser over 2026-02-27..28 of a tenant costing about 100 a day, 400 from `highFrom` to `highTo`. */
  async function runOver(highFrom: string, highTo: string, ongoing: Set<string>) {
    const costs: Pick<CostReads, 'usageSeries' | 'billingCurrencies'> = {
      async usageSeries(_tenantId, level, from, to) {
        if (level !== 'tenant') return []
        const values = new Float64Array(dayCount(from, to))
        for (let i = 0; i < values.length; i++) {
          const day = addDays(from, i)
          values[i] = day < '2026-01-01' ? 0 : day >= highFrom && day <= highTo ? 400 : 100 + (i % 3)
        }
        return [{ scopeKey: '', parent: null, currency: 'EUR', costs: values }]
      },
      async billingCurrencies(tenantIds) {
        return new Map(tenantIds.map((id) => [id, 'EUR']))
      },
    }
    return analyseWith(costs, ongoing, '2026-02-27', '2026-02-28')
  }

  it('writes an episode that started before the run and goes on in it, keyed by its first day', async () => {
    // 400 a day from 2026-02-25 on; the run covers only 2026-02-27..28.
    const { written, removals } = await runOver('2026-02-25', '2026-02-28', new Set())
    expect(written).toHaveLength(1)
    expect(written[0]).toMatchObject({ scopeKey: 'tenant', dateRaised: '2026-02-25' })
    expect(written[0]!.episodeEnd >= '2026-02-27').toBe(true) // it reaches into the run's days
    // The episode found is kept by the removal of those no longer found.
    expect(removals).toHaveLength(1)
    expect([...(removals[0]![3] as Set<string>)]).toEqual(['tenant\n2026-02-25'])
  })

  it('updates an episode last seen ongoing that ended before the run', async () => {
    // A two-day spike on 2026-02-24..25, seen ongoing by the run of the 25th; this run covers 2026-02-27..28 only.
    const before = await runOver('2026-02-24', '2026-02-25', new Set())
    expect(before.written).toEqual([])
    const { written } = await runOver('2026-02-24', '2026-02-25', new Set(['tenant\n2026-02-24']))
    expect(written).toMatchObject([
      { scopeKey: 'tenant', dateRaised: '2026-02-24', episodeEnd: '2026-02-25', ongoing: 0 },
    ])
  })
})
