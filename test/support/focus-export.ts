/**
 * Writes a realistic Azure FocusCost 1.0 export of a simulated estate (the simulated connector's resources and
 * daily costs) as Azure does: all 96 columns in Azure's order, a byte order mark, one file per month, money as
 * long decimals, lower-case ResourceIds, JSON tags in doubled quotes. Used by the import tests and
 * bench/focus-import.ts, so both read files shaped like the real thing.
 */
import { once } from 'node:events'
import { createWriteStream, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Writable } from 'node:stream'
import { createGzip } from 'node:zlib'
import { createSimulatedConnector } from '../../src/connectors/simulated/index.js'
import type { DailyCostRow, ResourceItem, TenantConnection } from '../../src/connectors/types.js'
import { addDays } from '../../src/platform/time.js'
import { ROOT } from './cli.js'

export const AZURE_FOCUS_COLUMNS = readFileSync(
  join(ROOT, 'test/fixtures/focus/azure-focuscost-1.0-columns.txt'),
  'utf8',
)
  .split('\n')
  .map((c) => c.trim())
  .filter(Boolean)

export interface FocusExportOptions {
  resources: number
  days: number
  /** The last day of the export, `YYYY-MM-DD`. */
  lastDay: string
  gzip: boolean
  /** Called with each data row's fields before it is written (e.g. to plant a bad value). */
  alter?: (fields: Record<string, string>, at: { file: number; line: number }) => void
}

export interface FocusExport {
  files: string[]
  rows: number
  /** EffectiveCost summed per UTC day, as the export holds it. */
  costByDay: Map<string, number>
  totalCost: number
  /** Distinct (resource, day, meter) keys: the cost rows an import writes. */
  costRows: number
}

function field(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value
}

const DISPLAY_TYPES: Record<string, string> = {
  'microsoft.compute/virtualmachines': 'Virtual machine',
  'microsoft.compute/disks': 'Disk',
  'microsoft.storage/storageaccounts': 'Storage account',
  'microsoft.web/sites': 'App Service web app',
  'microsoft.sql/servers/databases': 'SQL database',
}

/** Writes the export into `dir`, one file per calendar month (`part-YYYY-MM.csv[.gz]`). */
export async function writeFocusExport(dir: string, options: FocusExportOptions): Promise<FocusExport> {
  const connector = createSimulatedConnector({ resourceCount: options.resources })
  const conn: TenantConnection = {
    tenantId: 'focus-export',
    cloudTenantId: 'focus-export.onmicrosoft.com',
    credentialType: 'ManagedIdentity',
    clientId: null,
    clientSecret: null,
    certificateThumbprint: null,
  }
  const inventory = await connector.inventory(conn, { clock: { now: () => new Date() } })
  const resources = new Map<string, ResourceItem>(inventory.resources.map((r) => [r.armId, r]))
  const subscriptionNames = new Map(inventory.subscriptions.map((s) => [s.subscriptionId, s.displayName]))
  const window = { from: addDays(options.lastDay, -(options.days - 1)), to: options.lastDay }

  const out: FocusExport = { files: [], rows: 0, costByDay: new Map(), totalCost: 0, costRows: 0 }
  let month = ''
  let sink: { stream: Writable; done: Promise<unknown> } | null = null
  let line = 1
  const close = async () => {
    if (!sink) return
    sink.stream.end()
    await sink.done
  }
  for await (const batch of connector.dailyCosts(conn, window, { clock: { now: () => new Date() } })) {
    const day = batch[0]?.date
    if (!day) continue
    if (day.slice(0, 7) !== month) {
      await close()
      month = day.slice(0, 7)
      const file = join(dir, `part-${month}.csv${options.gzip ? '.gz' : ''}`)
      const target = createWriteStream(file)
      const stream = options.gzip ? createGzip() : target
      if (options.gzip) stream.pipe(target)
      sink = { stream, done: once(target, 'close') }
      out.files.push(file)
      line = 1
      stream.write(`\uFEFF${AZURE_FOCUS_COLUMNS.join(',')}\n`)
    }
    const text: string[] = []
    for (const row of batch) {
      line++
      const fields = focusFields(row, row.resourceArmId ? resources.get(row.resourceArmId) : undefined)
      fields.SubAccountName = subscriptionNames.get(row.subscriptionId) ?? ''
      options.alter?.(fields, { file: out.files.length, line })
      text.push(AZURE_FOCUS_COLUMNS.map((c) => field(fields[c] ?? '')).join(','))
      out.rows++
      out.costRows++
      out.totalCost += row.cost
      out.costByDay.set(row.date, (out.costByDay.get(row.date) ?? 0) + row.cost)
    }
    if (!sink!.stream.write(`${text.join('\n')}\n`)) await once(sink!.stream, 'drain')
  }
  await close()
  return out
}

/** The columns Azure fills for a usage row; the rest of the 96 stay empty as in a real export. */
function focusFields(row: DailyCostRow, resource: ResourceItem | undefined): Record<string, string> {
  const start = `${row.date}T00:00:00Z`
  const end = `${addDays(row.date, 1)}T00:00:00Z`
  const monthStart = `${row.date.slice(0, 8)}01T00:00:00Z`
  const cost = String(row.cost)
  const armType = resource?.resourceType.toLowerCase() ?? ''
  return {
    BilledCost: cost,
    BillingAccountId: '/providers/Microsoft.Billing/billingAccounts/1234:5678_2019-05-31',
    BillingAccountName: 'Contoso Ltd',
    BillingAccountType: 'Billing Profile',
    BillingCurrency: row.currency,
    BillingPeriodEnd: end,
    BillingPeriodStart: monthStart,
    ChargeCategory: resource ? 'Usage' : 'Purchase',
    ChargeDescription: row.meterName ?? '',
    ChargeFrequency: resource ? 'Usage-Based' : 'Recurring',
    ChargePeriodEnd: end,
    ChargePeriodStart: start,
    ConsumedQuantity: resource ? '24.000000000000004' : '',
    ConsumedUnit: resource ? 'Hours' : '',
    ContractedCost: cost,
    ContractedUnitPrice: String(row.cost / 24),
    EffectiveCost: cost,
    InvoiceIssuerName: 'Microsoft',
    ListCost: cost,
    ListUnitPrice: String(row.cost / 24),
    PricingCategory: 'Standard',
    PricingQuantity: '24',
    PricingUnit: '1 Hour',
    ProviderName: 'Microsoft',
    PublisherName: 'Microsoft',
    RegionId: resource?.location ?? '',
    RegionName: resource?.location ? 'West Europe' : '',
    ResourceId: row.resourceArmId?.toLowerCase() ?? '',
    ResourceName: resource?.name ?? '',
    ResourceType: DISPLAY_TYPES[armType] ?? (armType ? armType.split('/').at(-1)! : ''),
    ServiceCategory: 'Compute',
    ServiceName: row.serviceName,
    SkuId: 'DZH318Z0BQ4F',
    SkuPriceId: `DZH318Z0BQ4F/${row.meterId.slice(0, 4)}`,
    SubAccountId: `/subscriptions/${row.subscriptionId}`,
    SubAccountType: 'Subscription',
    Tags: resource ? JSON.stringify(resource.tags) : '',
    x_BilledCostInUsd: cost,
    x_BillingExchangeRate: '1',
    x_BillingExchangeRateDate: monthStart,
    x_BillingProfileId: '/providers/Microsoft.Billing/billingAccounts/1234:5678_2019-05-31/billingProfiles/ABCD',
    x_BillingProfileName: 'Contoso',
    x_EffectiveCostInUsd: cost,
    x_EffectiveUnitPrice: String(row.cost / 24),
    x_InvoiceSectionId: '/providers/Microsoft.Billing/billingAccounts/1234:5678_2019-05-31/invoiceSections/EFGH',
    x_InvoiceSectionName: 'Engineering',
    x_ListCostInUsd: cost,
    x_PricingCurrency: row.currency,
    x_PricingUnitDescription: '1 Hour',
    x_ResourceGroupName: row.resourceGroupName ?? '',
    x_ResourceType: resource?.resourceType ?? '',
    x_ServicePeriodEnd: end,
    x_ServicePeriodStart: start,
    x_SkuDescription: row.meterName ?? '',
    x_SkuDetails: resource ? JSON.stringify({ ServiceType: resource.sku ?? 'Standard', VCPUs: 2 }) : '',
    x_SkuMeterCategory: row.serviceName,
    x_SkuMeterId: row.meterId,
    x_SkuMeterName: row.meterName ?? '',
    x_SkuMeterSubcategory: row.serviceName,
    x_SkuOfferId: 'MS-AZR-0017P',
    x_SkuPartNumber: 'AAA-12345',
    x_SkuRegion: resource?.location ?? '',
    x_SkuServiceFamily: 'Compute',
    x_SkuTerm: '',
    x_SkuTier: 'Standard',
  }
}
