import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseFocusFile } from '../../src/connectors/focus/parse.js'
import { readFocusFiles } from '../../src/connectors/focus/read.js'
import { type DailyCostRow, toDailyCostRows } from '../../src/connectors/types.js'

const temp = mkdtempSync(join(tmpdir(), 'costwatch-focus-periods-'))
afterAll(() => rmSync(temp, { recursive: true, force: true }))
function tempFile(name: string, content: string): string {
  const path = join(temp, name)
  writeFileSync(path, content)
  return path
}

/** A small CSV from rows of named cells (columns: the first row's). */
function csv(rows: Record<string, string>[]): string {
  const columns = Object.keys(rows[0]!)
  return `${[columns.join(','), ...rows.map((r) => columns.map((c) => r[c] ?? '').join(','))].join('\n')}\n`
}

const ACCOUNT = '123456789012'
const ARN = 'arn:aws:ec2:eu-west-1:123456789012:instance/i-0abc'
const base = {
  BillingPeriodStart: '2026-01-01T00:00:00Z',
  BillingPeriodEnd: '2026-02-01T00:00:00Z',
  ChargePeriodStart: '2026-01-31T00:00:00Z',
  ChargePeriodEnd: '2026-02-01T00:00:00Z',
  BillingCurrency: 'USD',
  BilledCost: '1.5',
  EffectiveCost: '1.5',
  ChargeCategory: 'Usage',
  ChargeClass: '',
  SubAccountId: ACCOUNT,
  ResourceId: ARN,
  ServiceName: 'Amazon Elastic Compute Cloud',
  SkuPriceId: 'price-1',
  ProviderName: 'AWS',
}

describe('billing period of FOCUS rows', () => {
  // One meter of one resource on one day: billed twice in January, and once more in February's bill (a charge of
  // January 31 that arrived late).
  const rows = [
    base,
    { ...base, EffectiveCost: '2.25', BilledCost: '2.25' },
    {
      ...base,
      BillingPeriodStart: '2026-02-01T00:00:00Z',
      BillingPeriodEnd: '2026-03-01T00:00:00Z',
      EffectiveCost: '0.5',
      BilledCost: '0.5',
    },
  ]
  const file = tempFile('two-periods.csv', csv(rows))
  const strip = ({ cost, billingPeriod, date }: DailyCostRow) => ({ cost, billingPeriod, date })

  it('keeps a row per billing period, each with its period, rows of one period summed', async () => {
    const parsed = await parseFocusFile(file)
    expect(parsed.errors).toEqual([])
    expect(parsed.costs.map(strip)).toEqual([
      { date: '2026-01-31', billingPeriod: '2026-01', cost: 3.75 },
      { date: '2026-01-31', billingPeriod: '2026-02', cost: 0.5 },
    ])
    // Otherwise alike: the same resource, meter and day.
    expect(new Set(parsed.costs.map((c) => `${c.resourceArmId}|${c.meterId}|${c.subscriptionId}`)).size).toBe(1)
  })

  it('carries the periods through the reader threads and their batches', async () => {
    const costs: DailyCostRow[] = []
    await readFocusFiles([file, file], {
      batchRows: 1,
      progressRows: 1000,
      onCosts: async (batch) => {
        costs.push(...toDailyCostRows(batch))
      },
    })
    const byPeriod = new Map<string, number>()
    for (const c of costs) byPeriod.set(c.billingPeriod!, (byPeriod.get(c.billingPeriod!) ?? 0) + c.cost)
    expect(Object.fromEntries(byPeriod)).toEqual({ '2026-01': 7.5, '2026-02': 1 })
  })

  it('takes the month of ChargePeriodStart in a file without BillingPeriodStart', async () => {
    const without = rows.map(({ BillingPeriodStart: _, BillingPeriodEnd: __, ...rest }) => rest)
    const parsed = await parseFocusFile(tempFile('no-period.csv', csv(without)))
    expect(parsed.costs.map(strip)).toEqual([{ date: '2026-01-31', billingPeriod: '2026-01', cost: 4.25 }])
  })
})
