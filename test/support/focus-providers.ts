/**
 * Small FOCUS exports in each cloud's published column set, deterministic from a seed: AWS Data Exports "FOCUS 1.0
 * with AWS columns" and "FOCUS 1.2 with AWS columns", Azure Cost Management's FocusCost 1.0 (its 96 columns, the
 * list in test/fixtures/focus), and Google Cloud's BigQuery FOCUS export. Each returns its rows (cells as text, null
 * for none) and writes them as CSV, gzip CSV or Parquet (hyparquet-writer: money as DOUBLE, dates as TIMESTAMP, the
 * rest as STRING), so a test can sum the rows on its own and compare with what the reader makes of the file.
 */
import { writeFileSync } from 'node:fs'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { type ColumnSource, parquetWriteBuffer } from 'hyparquet-writer'
import { AZURE_FOCUS_COLUMNS } from './focus-export.js'

/** The 43 columns of FOCUS 1.0. */
export const FOCUS_10_COLUMNS = [
  'AvailabilityZone',
  'BilledCost',
  'BillingAccountId',
  'BillingAccountName',
  'BillingCurrency',
  'BillingPeriodEnd',
  'BillingPeriodStart',
  'ChargeCategory',
  'ChargeClass',
  'ChargeDescription',
  'ChargeFrequency',
  'ChargePeriodEnd',
  'ChargePeriodStart',
  'CommitmentDiscountCategory',
  'CommitmentDiscountId',
  'CommitmentDiscountName',
  'CommitmentDiscountStatus',
  'CommitmentDiscountType',
  'ConsumedQuantity',
  'ConsumedUnit',
  'ContractedCost',
  'ContractedUnitPrice',
  'EffectiveCost',
  'InvoiceIssuerName',
  'ListCost',
  'ListUnitPrice',
  'PricingCategory',
  'PricingQuantity',
  'PricingUnit',
  'ProviderName',
  'PublisherName',
  'RegionId',
  'RegionName',
  'ResourceId',
  'ResourceName',
  'ResourceType',
  'ServiceCategory',
  'ServiceName',
  'SkuId',
  'SkuPriceId',
  'SubAccountId',
  'SubAccountName',
  'Tags',
] as const

/** Columns FOCUS 1.1 added, then 1.2 (AWS's 1.2 export: 57 FOCUS columns). */
export const FOCUS_11_ADDED = [
  'CapacityReservationId',
  'CapacityReservationStatus',
  'CommitmentDiscountQuantity',
  'CommitmentDiscountUnit',
  'ServiceSubcategory',
  'SkuMeter',
  'SkuPriceDetails',
] as const
export const FOCUS_12_ADDED = [
  'BillingAccountType',
  'SubAccountType',
  'InvoiceId',
  'PricingCurrency',
  'PricingCurrencyContractedUnitPrice',
  'PricingCurrencyEffectiveCost',
  'PricingCurrencyListUnitPrice',
] as const

export const PROVIDER_EXPORTS = ['aws-1.0', 'aws-1.2', 'azure-1.0', 'google-1.0'] as const
export type ProviderExport = (typeof PROVIDER_EXPORTS)[number]

export const PROVIDER_COLUMNS: Record<ProviderExport, readonly string[]> = {
  // "FOCUS 1.0 with AWS columns": 43 + x_CostCategories, x_Discounts, x_Operation, x_ServiceCode, x_UsageType.
  'aws-1.0': [...FOCUS_10_COLUMNS, 'x_CostCategories', 'x_Discounts', 'x_Operation', 'x_ServiceCode', 'x_UsageType'],
  // "FOCUS 1.2 with AWS columns": 57 + x_Discounts, x_Operation, x_ServiceCode (x_UsageType is SkuMeter now).
  'aws-1.2': [...FOCUS_10_COLUMNS, ...FOCUS_11_ADDED, ...FOCUS_12_ADDED, 'x_Discounts', 'x_Operation', 'x_ServiceCode'],
  'azure-1.0': AZURE_FOCUS_COLUMNS,
  // Google's FOCUS export: the FOCUS 1.0 columns and Google's own (credits, project, export time, service id).
  'google-1.0': [
    ...FOCUS_10_COLUMNS,
    'x_Credits',
    'x_CostType',
    'x_CurrencyConversionRate',
    'x_ExportTime',
    'x_Location',
    'x_Project',
    'x_ServiceId',
  ],
}

export type Cells = Record<string, string | null>

export interface SampleExport {
  provider: ProviderExport
  columns: readonly string[]
  rows: Cells[]
}

export interface SampleOptions {
  seed: number
  /** Days from `firstDay` on (UTC), one row per resource and day, plus a few charges without a resource. */
  days: number
  resources: number
  /** `YYYY-MM-DD` */
  firstDay: string
}

/** mulberry32: a small seeded generator, so an export is the same for the same seed. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const DAY_MS = 86_400_000
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z')
const money = (n: number) => (Math.round(n * 1e6) / 1e6).toFixed(6)

interface Cloud {
  currency: string
  provider: string
  accounts: string[]
  account(i: number): string
  accountName(i: number): string
  resource(account: string, i: number): string
  region: string
  services: [service: string, category: string, type: string, meter: string][]
  extra(r: () => number, row: Cells, resourceIndex: number): void
}

function cloudOf(provider: ProviderExport): Cloud {
  if (provider.startsWith('aws')) {
    const accounts = ['111122223333', '444455556666']
    return {
      currency: 'USD',
      provider: 'AWS',
      accounts,
      account: (i) => accounts[i % accounts.length]!,
      accountName: (i) => `aws-account-${i % accounts.length}`,
      resource: (account, i) =>
        i % 2 === 0
          ? `arn:aws:ec2:eu-west-1:${account}:instance/i-${(1000 + i).toString(16)}`
          : `arn:aws:s3:::bucket-${i}`,
      region: 'eu-west-1',
      services: [
        ['Amazon Elastic Compute Cloud', 'Compute', 'Instance', 'EUW1-BoxUsage:t3.micro'],
        ['Amazon Simple Storage Service', 'Storage', 'Bucket', 'EUW1-TimedStorage-ByteHrs'],
      ],
      extra: (r, row, i) => {
        row.x_ServiceCode = i % 2 === 0 ? 'AmazonEC2' : 'AmazonS3'
        row.x_Operation = i % 2 === 0 ? 'RunInstances' : 'StandardStorage'
        row.x_Discounts = r() < 0.3 ? '{"bundled_discount":0.01}' : null
        if (provider === 'aws-1.0') row.x_CostCategories = '{"team":"payments"}'
      },
    }
  }
  if (provider.startsWith('azure')) {
    const accounts = ['9a3c5b1e-0000-4000-8000-00000000000a', '9a3c5b1e-0000-4000-8000-00000000000b']
    return {
      currency: 'EUR',
      provider: 'Microsoft',
      accounts,
      account: (i) => `/subscriptions/${accounts[i % accounts.length]}`,
      accountName: (i) => `Azure subscription ${i % accounts.length}`,
      resource: (account, i) =>
        `${account}/resourcegroups/rg-${i % 3}/providers/microsoft.compute/virtualmachines/vm-${i}`.toLowerCase(),
      region: 'westeurope',
      services: [['Virtual Machines', 'Compute', 'Virtual machine', 'D2s v3']],
      extra: (_r, row, i) => {
        row.x_ResourceGroupName = `RG-${i % 3}`
        row.x_ResourceType = 'Microsoft.Compute/virtualMachines'
        row.x_SkuMeterId = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`
        row.x_SkuMeterName = 'D2s v3'
        row.x_PricingCurrency = 'USD'
      },
    }
  }
  const accounts = ['shop-prod-4711', 'shop-dev-4712']
  return {
    currency: 'USD',
    provider: 'Google Cloud',
    accounts,
    account: (i) => accounts[i % accounts.length]!,
    accountName: (i) => `Shop ${i % accounts.length}`,
    resource: (account, i) => `//compute.googleapis.com/projects/${account}/zones/europe-west1-b/instances/web-${i}`,
    region: 'europe-west1',
    services: [['Compute Engine', 'Compute', 'Instance', 'N2 Instance Core running in Belgium']],
    extra: (_r, row, i) => {
      row.x_Project = row.SubAccountId ?? null
      row.x_ServiceId = '6F81-5844-456A'
      row.x_CostType = row.ChargeCategory === 'Tax' ? 'tax' : 'regular'
      row.x_Location = 'europe-west1'
      row.x_ExportTime = '2026-04-02T03:00:00Z'
      row.x_CurrencyConversionRate = '1'
      row.x_Credits = i % 4 === 0 ? '[{"name":"Sustained use discount","amount":-0.01}]' : '[]'
    },
  }
}

/** The rows of a provider's export: cells the column set does not have are dropped, those it has and no row fills are null. */
export function sampleExport(provider: ProviderExport, options: SampleOptions): SampleExport {
  const r = random(options.seed)
  const cloud = cloudOf(provider)
  const columns = PROVIDER_COLUMNS[provider]
  const start = Date.parse(`${options.firstDay}T00:00:00Z`)
  const rows: Cells[] = []
  const push = (cells: Cells, resourceIndex: number) => {
    cloud.extra(r, cells, resourceIndex)
    rows.push(Object.fromEntries(columns.map((c) => [c, cells[c] ?? null])))
  }
  for (let d = 0; d < options.days; d++) {
    const dayStart = start + d * DAY_MS
    const month = new Date(dayStart)
    const billingStart = Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1)
    const billingEnd = Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1)
    const common = (i: number): Cells => ({
      BillingAccountId: provider.startsWith('azure')
        ? '/providers/Microsoft.Billing/billingAccounts/1234'
        : '999988887777',
      BillingAccountName: 'Example Org',
      BillingCurrency: cloud.currency,
      BillingPeriodStart: iso(billingStart),
      BillingPeriodEnd: iso(billingEnd),
      ChargePeriodStart: iso(dayStart),
      ChargePeriodEnd: iso(dayStart + DAY_MS),
      ChargeFrequency: 'Usage-Based',
      ProviderName: cloud.provider,
      PublisherName: cloud.provider,
      InvoiceIssuerName: cloud.provider,
      SubAccountId: cloud.account(i),
      SubAccountName: cloud.accountName(i),
      RegionId: cloud.region,
      RegionName: cloud.region,
      BillingAccountType: 'Billing Account',
      SubAccountType: 'Account',
      InvoiceId: provider === 'aws-1.2' ? `EUINGB26-${month.getUTCMonth() + 1}` : null,
      PricingCurrency: provider === 'aws-1.2' ? cloud.currency : null,
    })
    for (let i = 0; i < options.resources; i++) {
      const [service, category, type, meter] = cloud.services[i % cloud.services.length]!
      const quantity = 1 + Math.floor(r() * 24)
      const price = 0.01 + Math.round(r() * 1000) / 10000
      const list = quantity * price
      const effective = list * (0.7 + r() * 0.3)
      const account = cloud.account(i)
      push(
        {
          ...common(i),
          BilledCost: money(effective),
          EffectiveCost: money(effective),
          ListCost: money(list),
          ContractedCost: money(list * 0.9),
          ListUnitPrice: money(price),
          ContractedUnitPrice: money(price * 0.9),
          PricingQuantity: String(quantity),
          PricingUnit: 'Hours',
          ConsumedQuantity: String(quantity),
          ConsumedUnit: 'Hours',
          PricingCategory: 'Standard',
          ChargeCategory: 'Usage',
          ChargeClass: null,
          ChargeDescription: `${meter} usage`,
          ResourceId: cloud.resource(account, i),
          ResourceName: `resource-${i}`,
          ResourceType: type,
          ServiceName: service,
          ServiceCategory: category,
          ServiceSubcategory: provider === 'aws-1.2' ? 'Virtual Machines' : null,
          SkuId: `SKU-${i % cloud.services.length}`,
          SkuPriceId: `SKU-${i % cloud.services.length}-PRICE`,
          SkuMeter: provider === 'aws-1.2' ? meter : null,
          x_UsageType: provider === 'aws-1.0' ? meter : null,
          Tags: JSON.stringify({ env: i % 2 === 0 ? 'prod' : 'dev', owner: `team-${i % 3}` }),
          AvailabilityZone: `${cloud.region}a`,
        },
        i,
      )
    }
    // A day's tax (no resource), and now and then a credit.
    push(
      {
        ...common(0),
        BilledCost: money(options.resources * 0.05),
        EffectiveCost: money(options.resources * 0.05),
        ListCost: '0',
        ContractedCost: '0',
        ChargeCategory: 'Tax',
        ChargeDescription: 'Tax',
        ResourceId: null,
        ServiceName: 'Tax',
        ServiceCategory: 'Other',
        SkuId: null,
        SkuPriceId: null,
      },
      0,
    )
    if (d % 7 === 3)
      push(
        {
          ...common(1),
          BilledCost: money(-1.25),
          EffectiveCost: money(-1.25),
          ListCost: '0',
          ContractedCost: '0',
          ChargeCategory: 'Credit',
          ChargeDescription: 'Promotional credit',
          ResourceId: null,
          ServiceName: 'Credits',
          ServiceCategory: 'Other',
          SkuId: 'CREDIT',
          SkuPriceId: null,
        },
        1,
      )
  }
  return { provider, columns, rows }
}

const MONEY_COLUMNS = new Set(['BilledCost', 'EffectiveCost', 'ListCost', 'ContractedCost'])
const DATE_COLUMNS = new Set(['BillingPeriodStart', 'BillingPeriodEnd', 'ChargePeriodStart', 'ChargePeriodEnd'])

function csvField(value: string | null): string {
  if (value === null) return ''
  return /[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value
}

export function exportCsv(sample: SampleExport): string {
  const lines = [sample.columns.join(',')]
  for (const row of sample.rows) lines.push(sample.columns.map((c) => csvField(row[c] ?? null)).join(','))
  return `${lines.join('\n')}\n`
}

export type ParquetCodec = 'SNAPPY' | 'GZIP' | 'BROTLI' | 'UNCOMPRESSED'

/** Parquet bytes of rows (money as DOUBLE, dates as TIMESTAMP, other cells as STRING), in row groups of `rowGroupSize`. */
export function parquetBytes(
  columns: readonly string[],
  rows: readonly Cells[],
  options: { rowGroupSize?: number; codec?: ParquetCodec } = {},
): Uint8Array {
  const columnData: ColumnSource[] = columns.map((name) => {
    if (MONEY_COLUMNS.has(name))
      return { name, type: 'DOUBLE', data: rows.map((row) => (row[name] == null ? null : Number(row[name]))) }
    if (DATE_COLUMNS.has(name))
      return { name, type: 'TIMESTAMP', data: rows.map((row) => (row[name] == null ? null : new Date(row[name]!))) }
    return { name, type: 'STRING', data: rows.map((row) => row[name] ?? null) }
  })
  const buffer = parquetWriteBuffer({
    columnData,
    rowGroupSize: options.rowGroupSize ?? 10_000,
    codec: options.codec ?? 'SNAPPY',
    compressors: { GZIP: (input) => gzipSync(input), BROTLI: (input) => brotliCompressSync(input) },
  })
  return new Uint8Array(buffer)
}

export type ExportFormat = 'csv' | 'csv.gz' | 'parquet'

/** Writes the export to `path` in the format; returns the path. */
export function writeSampleExport(
  sample: SampleExport,
  path: string,
  format: ExportFormat,
  parquet: { rowGroupSize?: number; codec?: ParquetCodec } = {},
): string {
  if (format === 'parquet') writeFileSync(path, parquetBytes(sample.columns, sample.rows, parquet))
  else if (format === 'csv.gz') writeFileSync(path, gzipSync(exportCsv(sample)))
  else writeFileSync(path, exportCsv(sample))
  return path
}
