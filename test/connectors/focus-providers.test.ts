import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseFocusFiles } from '../../src/connectors/focus/parse.js'
import { readFocusFiles } from '../../src/connectors/focus/read.js'
import { providerOf } from '../../src/connectors/focus/versions.js'
import { type DailyCostRow, toDailyCostRows } from '../../src/connectors/types.js'
import {
  type ExportFormat,
  PROVIDER_COLUMNS,
  PROVIDER_EXPORTS,
  type ProviderExport,
  type SampleExport,
  sampleExport,
  writeSampleExport,
} from '../support/focus-providers.js'

const temp = mkdtempSync(join(tmpdir(), 'costwatch-focus-providers-'))
afterAll(() => rmSync(temp, { recursive: true, force: true }))

const EXPECTED: Record<ProviderExport, { version: string; provider: string; accounts: string[]; currency: string }> = {
  'aws-1.0': { version: '1.0', provider: 'AWS', accounts: ['111122223333', '444455556666'], currency: 'USD' },
  'aws-1.2': { version: '1.2', provider: 'AWS', accounts: ['111122223333', '444455556666'], currency: 'USD' },
  'azure-1.0': {
    version: '1.0',
    provider: 'Azure',
    accounts: ['9a3c5b1e-0000-4000-8000-00000000000a', '9a3c5b1e-0000-4000-8000-00000000000b'],
    currency: 'EUR',
  },
  'google-1.0': {
    version: '1.0',
    provider: 'GoogleCloud',
    accounts: ['shop-prod-4711', 'shop-dev-4712'],
    currency: 'USD',
  },
}

/**
 * The export's own figures, from its cells alone: EffectiveCost in millionths (every generated amount has six
 * decimals, so the sums are exact integers), per UTC day and per billing period.
 */
function independentTotals(sample: SampleExport) {
  const byDay = new Map<string, number>()
  const byPeriod = new Map<string, number>()
  let total = 0
  for (const row of sample.rows) {
    const micros = Math.round(Number(row.EffectiveCost) * 1e6)
    const day = row.ChargePeriodStart!.slice(0, 10)
    const period = row.BillingPeriodStart!.slice(0, 7)
    byDay.set(day, (byDay.get(day) ?? 0) + micros)
    byPeriod.set(period, (byPeriod.get(period) ?? 0) + micros)
    total += micros
  }
  return { byDay, byPeriod, total }
}

function readTotals(costs: readonly DailyCostRow[]) {
  const byDay = new Map<string, number>()
  const byPeriod = new Map<string, number>()
  let total = 0
  for (const c of costs) {
    byDay.set(c.date, (byDay.get(c.date) ?? 0) + c.cost)
    byPeriod.set(c.billingPeriod!, (byPeriod.get(c.billingPeriod!) ?? 0) + c.cost)
    total += c.cost
  }
  return { byDay, byPeriod, total }
}

function expectTotals(costs: readonly DailyCostRow[], sample: SampleExport) {
  const expected = independentTotals(sample)
  const actual = readTotals(costs)
  expect([...actual.byDay.keys()].sort()).toEqual([...expected.byDay.keys()].sort())
  for (const [day, micros] of expected.byDay) expect(actual.byDay.get(day), day).toBeCloseTo(micros / 1e6, 6)
  expect([...actual.byPeriod.keys()].sort()).toEqual([...expected.byPeriod.keys()].sort())
  for (const [period, micros] of expected.byPeriod) expect(actual.byPeriod.get(period)).toBeCloseTo(micros / 1e6, 6)
  expect(actual.total).toBeCloseTo(expected.total / 1e6, 6)
}

describe('sample exports of each provider', () => {
  it('are the same for the same seed and differ for another, in the provider column set', () => {
    const options = { days: 5, resources: 4, firstDay: '2026-03-30' }
    const a = sampleExport('aws-1.2', { ...options, seed: 1 })
    expect(sampleExport('aws-1.2', { ...options, seed: 1 })).toEqual(a)
    expect(sampleExport('aws-1.2', { ...options, seed: 2 }).rows).not.toEqual(a.rows)
    expect(PROVIDER_COLUMNS['aws-1.0']).toHaveLength(48)
    expect(PROVIDER_COLUMNS['aws-1.2']).toHaveLength(60)
    expect(PROVIDER_COLUMNS['azure-1.0']).toHaveLength(96)
    for (const row of a.rows) expect(Object.keys(row)).toEqual(PROVIDER_COLUMNS['aws-1.2'])
  })

  for (const provider of PROVIDER_EXPORTS) {
    for (const format of ['csv', 'csv.gz', 'parquet'] satisfies ExportFormat[]) {
      it(`${provider} as ${format}: every row read, totals as the export's own sums`, async () => {
        // 40 days from March 10th: two billing periods, a file per period as the exporters write them.
        const seed = PROVIDER_EXPORTS.indexOf(provider) * 10 + format.length
        const sample = sampleExport(provider, { seed, days: 40, resources: 12, firstDay: '2026-03-10' })
        const periods = [...new Set(sample.rows.map((r) => r.BillingPeriodStart!.slice(0, 7)))]
        expect(periods).toEqual(['2026-03', '2026-04'])
        const files = periods.map((period) =>
          writeSampleExport(
            { ...sample, rows: sample.rows.filter((r) => r.BillingPeriodStart!.startsWith(period)) },
            join(temp, `${provider}-${period}.${format}`),
            format,
            { rowGroupSize: 100 },
          ),
        )
        const parsed = await parseFocusFiles(files)
        const expected = EXPECTED[provider]
        expect(parsed.errors).toEqual([])
        expect(parsed.rowsRead).toBe(sample.rows.length)
        expect(parsed.rowsRejected).toBe(0)
        expect(parsed.focusVersion).toBe(expected.version)
        expect(providerOf(parsed.providers)).toBe(expected.provider)
        expect(parsed.currencies).toEqual([expected.currency])
        expect(parsed.subscriptions.map((s) => s.subscriptionId).sort()).toEqual([...expected.accounts].sort())
        // A generated export conforms to every requirement checked.
        expect(parsed.conformance.filter((c) => c.failedRows > 0)).toEqual([])
        expectTotals(parsed.costs, sample)
        // Each resource's usage has a row of its own per day, keyed by its ResourceId as written.
        const resources = new Set(sample.rows.map((r) => r.ResourceId).filter((id) => id !== null))
        expect(new Set(parsed.costs.map((c) => c.resourceArmId).filter((id) => id !== null))).toEqual(
          provider.startsWith('azure') ? new Set([...resources].map((id) => id!.toLowerCase())) : resources,
        )
      })
    }
  }

  it('read in the reader threads, files of every provider and format together, give the same totals', async () => {
    const samples = PROVIDER_EXPORTS.map((provider, i) =>
      sampleExport(provider, { seed: 100 + i, days: 20, resources: 6, firstDay: '2026-05-20' }),
    )
    const formats: ExportFormat[] = ['parquet', 'csv.gz', 'csv', 'parquet']
    const files = samples.map((s, i) =>
      writeSampleExport(s, join(temp, `mixed-${s.provider}.${formats[i]}`), formats[i]!, { rowGroupSize: 50 }),
    )
    const costs: DailyCostRow[] = []
    const result = await readFocusFiles(files, {
      batchRows: 64,
      progressRows: 1000,
      onCosts: async (batch) => {
        costs.push(...toDailyCostRows(batch))
      },
    })
    expect(result.rowsRead).toBe(samples.reduce((n, s) => n + s.rows.length, 0))
    expect(result.focusVersions).toEqual(['1.0', '1.2'])
    expect(providerOf(result.providers)).toBe('Other')
    for (const currency of ['USD', 'EUR']) {
      const rows = samples.flatMap((s) => s.rows).filter((r) => r.BillingCurrency === currency)
      const expected = rows.reduce((sum, r) => sum + Math.round(Number(r.EffectiveCost) * 1e6), 0) / 1e6
      const actual = costs.filter((c) => c.currency === currency).reduce((sum, c) => sum + c.cost, 0)
      expect(actual, currency).toBeCloseTo(expected, 6)
    }
  })
})
