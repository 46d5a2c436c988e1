import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { REQUIREMENTS } from '../../src/connectors/focus/conformance.js'
import { parseFocusFile, parseFocusFiles } from '../../src/connectors/focus/parse.js'
import { readFocusFiles } from '../../src/connectors/focus/read.js'
import { focusVersionOf, providerOf } from '../../src/connectors/focus/versions.js'
import { AZURE_FOCUS_COLUMNS } from '../support/focus-export.js'

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/focus/${name}`, import.meta.url))
const temp = mkdtempSync(join(tmpdir(), 'costwatch-focus-versions-'))
afterAll(() => rmSync(temp, { recursive: true, force: true }))
function tempFile(name: string, content: string): string {
  const path = join(temp, name)
  writeFileSync(path, content)
  return path
}
function csv(rows: Record<string, string>[]): string {
  const columns = Object.keys(rows[0]!)
  const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v)
  return `${[columns.join(','), ...rows.map((r) => columns.map((c) => quote(r[c] ?? '')).join(','))].join('\n')}\n`
}

// The columns of each version, as the sample exports write them.
const FOCUS_10: readonly string[] = FOCUS_10_COLUMNS
const ADDED_11: readonly string[] = FOCUS_11_ADDED
const ADDED_12: readonly string[] = FOCUS_12_ADDED

const good = {
  BillingPeriodStart: '2026-03-01T00:00:00Z',
  BillingPeriodEnd: '2026-04-01T00:00:00Z',
  ChargePeriodStart: '2026-03-02T00:00:00Z',
  ChargePeriodEnd: '2026-03-03T00:00:00Z',
  BillingCurrency: 'USD',
  BilledCost: '2',
  EffectiveCost: '1.5',
  ListCost: '2.5',
  ContractedCost: '2',
  ChargeCategory: 'Usage',
  ChargeClass: '',
  SubAccountId: '123456789012',
  ResourceId: 'arn:aws:s3:::bucket-a',
  ServiceName: 'Amazon Simple Storage Service',
  SkuPriceId: 'sku-1',
  ProviderName: 'AWS',
}

describe('FOCUS versions', () => {
  it('tells 1.0, 1.1 and 1.2 apart by the columns each added, provider columns or not', () => {
    expect(focusVersionOf(FOCUS_10)).toBe('1.0')
    expect(focusVersionOf([...FOCUS_10, 'x_CostCategories', 'x_Discounts', 'x_UsageType'])).toBe('1.0')
    expect(focusVersionOf([...FOCUS_10, ...ADDED_11])).toBe('1.1')
    expect(focusVersionOf([...FOCUS_10, ...ADDED_11, ...ADDED_12, 'x_Discounts'])).toBe('1.2')
    // Azure's 1.0 export writes 1.2's BillingAccountType and SubAccountType ahead of time: still 1.0.
    expect(focusVersionOf(AZURE_FOCUS_COLUMNS)).toBe('1.0')
    // A 1.0-preview export (ChargeCategory without ChargeClass) is no version this reader names.
    expect(focusVersionOf(FOCUS_10.filter((c) => c !== 'ChargeClass'))).toBeNull()
  })

  it('reads the former names of columns, and x_ columns it does not know never fail a file', async () => {
    const { EffectiveCost, ChargeCategory, ChargeClass: _, ...rest } = good
    const file = tempFile(
      'preview.csv',
      csv([{ ...rest, AmortizedCost: EffectiveCost, ChargeType: ChargeCategory, x_UsageType: 'USE1-TimedStorage' }]),
    )
    const parsed = await parseFocusFile(file)
    expect(parsed.errors).toEqual([])
    expect(parsed.costs).toHaveLength(1)
    expect(parsed.costs[0]).toMatchObject({ cost: 1.5, chargeCategory: 'Usage', meterName: 'USE1-TimedStorage' })
    expect(parsed.focusVersion).toBeNull()
    const withExtras = tempFile('extras.csv', csv([{ ...good, x_Anything: '{"a":1}', x_Discounts: 'x,y' }]))
    const extra = await parseFocusFile(withExtras)
    expect(extra.errors).toEqual([])
    expect(extra.costs.map((c) => c.cost)).toEqual([1.5])
  })

  it('gives the import the versions of its files, one version only when they agree', async () => {
    const cells: Record<string, string> = good
    const v10 = tempFile('v10.csv', csv([Object.fromEntries(FOCUS_10.map((c) => [c, cells[c] ?? '']))]))
    const v12row = Object.fromEntries([...FOCUS_10, ...ADDED_11, ...ADDED_12].map((c) => [c, cells[c] ?? '']))
    const v12 = tempFile('v12.csv', csv([v12row]))
    expect((await parseFocusFiles([v10, v10])).focusVersion).toBe('1.0')
    const mixed = await parseFocusFiles([v10, v12])
    expect(mixed.focusVersion).toBeNull()
    expect(mixed.focusVersions).toEqual(['1.0', '1.2'])
  })
})

import { FOCUS_10_COLUMNS, FOCUS_11_ADDED, FOCUS_12_ADDED } from '../support/focus-providers.js'

describe('FOCUS providers and their accounts', () => {
  it('names the providers in order of first appearance: ServiceProviderName of each row, else its ProviderName', async () => {
    const file = tempFile(
      'providers.csv',
      csv([
        { ...good, ServiceProviderName: '' },
        { ...good, ProviderName: 'AWS', ServiceProviderName: 'Amazon Web Services' },
        { ...good, ProviderName: 'Example Marketplace Seller' },
      ]),
    )
    expect((await parseFocusFile(file)).providers).toEqual(['AWS', 'Amazon Web Services', 'Example Marketplace Seller'])
    const sample = await parseFocusFile(fixture('finops-foundation-focus-1.0-sample.csv'))
    expect(sample.providers).toEqual(['AWS', 'Oracle', 'Microsoft'])
  })

  it('maps provider names to the cloud', () => {
    expect(providerOf(['AWS'])).toBe('AWS')
    expect(providerOf(['Amazon Web Services', 'Example Seller'])).toBe('AWS')
    expect(providerOf(['Microsoft'])).toBe('Azure')
    expect(providerOf(['Google Cloud'])).toBe('GoogleCloud')
    expect(providerOf(['Oracle'])).toBe('Other')
    expect(providerOf(['AWS', 'Microsoft'])).toBe('Other')
    expect(providerOf([])).toBe('Other')
  })

  it('keeps an AWS account and a Google project as sub-accounts, their resources as the rows resource keys', async () => {
    const gce = '//compute.googleapis.com/projects/shop-prod-1234/zones/europe-west1-b/instances/web-1'
    const file = tempFile(
      'clouds.csv',
      csv([
        { ...good, SubAccountId: '123456789012', ResourceId: 'arn:aws:ec2:eu-west-1:123456789012:instance/i-0abc' },
        { ...good, SubAccountId: 'shop-prod-1234', ResourceId: gce, ProviderName: 'Google Cloud' },
        { ...good, SubAccountId: 'shop-prod-1234', ResourceId: '', ProviderName: 'Google Cloud', SkuPriceId: 'tax' },
      ]),
    )
    const parsed = await parseFocusFile(file)
    expect(parsed.errors).toEqual([])
    expect(parsed.subscriptions.map((s) => s.subscriptionId)).toEqual(['123456789012', 'shop-prod-1234'])
    expect(parsed.costs.map((c) => [c.subscriptionId, c.resourceArmId, c.resourceGroupName])).toEqual([
      ['123456789012', 'arn:aws:ec2:eu-west-1:123456789012:instance/i-0abc', null],
      ['shop-prod-1234', gce, null],
      ['shop-prod-1234', null, null],
    ])
    expect(parsed.resourceGroups).toEqual([])
  })
})

describe('FOCUS conformance report', () => {
  // Each row fails what its name says, and only that.
  const failing: Record<string, Record<string, string>> = {
    'BilledCost-C-003-M': { BilledCost: '' },
    'BilledCost-C-004-M': { BilledCost: 'two' },
    'EffectiveCost-C-003-M': { EffectiveCost: '' },
    'EffectiveCost-C-004-M': { EffectiveCost: '1,5' },
    'ListCost-C-003-M': { ListCost: '' },
    'ContractedCost-C-003-M': { ContractedCost: '' },
    'BillingCurrency-C-004-M': { BillingCurrency: '' },
    'BillingCurrency-C-003-M': { BillingCurrency: 'usd' },
    'ChargeCategory-C-002-M': { ChargeCategory: '' },
    'ChargeCategory-C-003-M': { ChargeCategory: 'Refund' },
    'ChargeClass-C-005-C': { ChargeClass: 'Regular' },
    'ChargePeriodStart-C-003-M': { ChargePeriodStart: '' },
    'ChargePeriodStart-C-001-M': { ChargePeriodStart: 'yesterday' },
    'ChargePeriodEnd-C-003-M': { ChargePeriodEnd: '' },
    'ChargePeriodEnd-C-001-M': { ChargePeriodEnd: 'tomorrow' },
    'ChargePeriodEnd-C-004-M': { ChargePeriodEnd: '2026-03-02T00:00:00Z' },
    'BillingPeriodStart-C-003-M': { BillingPeriodStart: '' },
    'BillingPeriodStart-C-001-M': { BillingPeriodStart: 'March' },
    'BillingPeriodEnd-C-003-M': { BillingPeriodEnd: '' },
    'BillingPeriodEnd-C-001-M': { BillingPeriodEnd: 'April' },
    'BillingPeriodEnd-C-004-M': { BillingPeriodEnd: '2026-02-01T00:00:00Z' },
    'ChargePeriodStart-InBillingPeriod': {
      ChargePeriodStart: '2026-02-27T00:00:00Z',
      ChargePeriodEnd: '2026-02-28T00:00:00Z',
    },
  }
  const rows = [
    good,
    // A correction of an earlier period is not held to the bill's period.
    {
      ...good,
      ChargePeriodStart: '2026-02-02T00:00:00Z',
      ChargePeriodEnd: '2026-02-03T00:00:00Z',
      ChargeClass: 'Correction',
    },
    ...Object.values(failing).map((change) => ({ ...good, ...change })),
  ]
  const file = tempFile('conformance.csv', csv(rows))

  it('lists every requirement checked with the rows failing it, 0 included', async () => {
    const parsed = await parseFocusFile(file)
    expect(parsed.conformance.map((c) => c.requirement)).toEqual(REQUIREMENTS.map(([id]) => id))
    expect(Object.keys(failing).sort()).toEqual(REQUIREMENTS.map(([id]) => id).sort())
    for (const c of parsed.conformance) expect(c.description).toMatch(/\S/)
    expect(Object.fromEntries(parsed.conformance.map((c) => [c.requirement, c.failedRows]))).toEqual(
      Object.fromEntries(Object.keys(failing).map((id) => [id, 1])),
    )
  })

  it('leaves out only the rows the reader already left out', async () => {
    const parsed = await parseFocusFile(file)
    // Unreadable money, a currency that is not three letters, an unknown category or class, no ChargePeriodStart
    // or an unreadable one; a lower-case currency, a null category, bad period bounds are kept.
    expect(parsed.rowsRejected).toBe(7)
    expect(parsed.rowsRead).toBe(rows.length)
  })

  it('sums the counts over the files of an import, read side by side as one after another', async () => {
    const files = [file, fixture('azure-focus-small.csv'), file]
    const serial = await parseFocusFiles(files)
    const threads = await readFocusFiles(files, { batchRows: 5, progressRows: 1000, onCosts: async () => {} })
    expect(threads.conformance).toEqual(serial.conformance)
    const count = (id: string) => serial.conformance.find((c) => c.requirement === id)!.failedRows
    // The Azure fixture has no BillingPeriodStart column: each of its 28 rows has none.
    expect(count('BillingPeriodStart-C-003-M')).toBe(2 + 28)
    expect(count('ChargeCategory-C-003-M')).toBe(2)
  })
})
