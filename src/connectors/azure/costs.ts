import { normaliseCurrency } from '../focus/fields.js'
import { type ChargeCategory, type ChargeClass, ConnectorError, type DailyCostRow, type DayWindow } from '../types.js'
import type { ArmClient } from './http.js'
import { list, num, obj, page, parseArmId, str } from './json.js'

export const COST_MANAGEMENT_API = '2023-11-01'

/**
 * Amortised cost (FOCUS EffectiveCost: reservations and savings plans spread over the days that use them) per UTC
 * day, resource, meter and charge type. The Query API takes at most two groupings, so the daily query groups by
 * ResourceId and MeterId; the charge type comes from an undated query grouped by ChargeType: with one type in the
 * window (the usual case) the daily query needs no more, with several it runs once per type, filtered to it. The
 * resource group comes from the ResourceId, and service and meter names from two small undated queries that group
 * MeterId with ServiceName and with Meter.
 */
export function costQuery(window: DayWindow, granularity: 'Daily' | 'None', grouping: string[], chargeType?: string) {
  return {
    type: 'AmortizedCost',
    timeframe: 'Custom',
    timePeriod: { from: `${window.from}T00:00:00Z`, to: `${window.to}T23:59:59Z` },
    dataset: {
      granularity,
      aggregation: { totalCost: { name: 'Cost', function: 'Sum' } },
      grouping: grouping.map((name) => ({ type: 'Dimension', name })),
      ...(chargeType === undefined
        ? {}
        : { filter: { dimensions: { name: 'ChargeType', operator: 'In', values: [chargeType] } } }),
    },
  }
}

/**
 * Cost Management's ChargeType as FOCUS ChargeCategory and ChargeClass, as Microsoft's FOCUS export maps them:
 * unused reservations and savings plans are usage (amortised), a refund is a correction of a purchase, a rounding
 * adjustment an adjustment. A type this list does not know is kept out of usage, as an adjustment.
 */
export function chargeOfType(chargeType: string): { chargeCategory: ChargeCategory; chargeClass: ChargeClass | null } {
  switch (chargeType.toLowerCase()) {
    case 'usage':
    case 'unusedreservation':
    case 'unusedsavingsplan':
      return { chargeCategory: 'Usage', chargeClass: null }
    case 'purchase':
      return { chargeCategory: 'Purchase', chargeClass: null }
    case 'refund':
      return { chargeCategory: 'Purchase', chargeClass: 'Correction' }
    case 'tax':
      return { chargeCategory: 'Tax', chargeClass: null }
    case 'credit':
      return { chargeCategory: 'Credit', chargeClass: null }
    default:
      return { chargeCategory: 'Adjustment', chargeClass: null }
  }
}

interface QueryPage {
  columns: string[]
  rows: unknown[][]
}

/** One Query, page by page: each `nextLink` is POSTed the same body (the link carries the `$skiptoken`). */
async function* queryPages(
  arm: ArmClient,
  subscriptionId: string,
  body: unknown,
  what: string,
  signal?: AbortSignal,
): AsyncGenerator<QueryPage> {
  let url: string | null =
    `${arm.origin}/subscriptions/${encodeURIComponent(subscriptionId)}/providers/Microsoft.CostManagement/query?api-version=${COST_MANAGEMENT_API}`
  while (url) {
    const answer = page(await arm.send({ method: 'POST', url, body, what }, signal), what)
    const properties = obj(answer.properties)
    yield {
      columns: list(properties.columns).map((c) => str(obj(c).name) ?? ''),
      rows: list(properties.rows).filter(Array.isArray),
    }
    url = str(properties.nextLink)
  }
}

/** Columns are read by name from `properties.columns`, never by position: their order is the service's choice. */
function columnOf(result: QueryPage, names: string[], what: string): number {
  const wanted = names.map((n) => n.toLowerCase())
  const index = result.columns.findIndex((c) => wanted.includes(c.toLowerCase()))
  if (index < 0 && result.rows.length > 0) {
    throw new ConnectorError('provider_error', `Azure answered ${what} without a ${names[0]} column.`)
  }
  return index
}

// The cost column is named after the aggregation's `name`: `Cost` for ActualCost and AmortizedCost, `PreTaxCost`
// for the legacy Usage type (the examples); `totalCost` is the aggregation's own key, seen from some scopes.
const COST_COLUMNS = ['Cost', 'PreTaxCost', 'totalCost']

/** MeterId (lower case; '' for charges without one) to the label another dimension gives it, e.g. the service name. */
async function meterLabels(
  arm: ArmClient,
  subscriptionId: string,
  window: DayWindow,
  dimension: string,
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  const what = `the Cost Management query of ${dimension} names for subscription ${subscriptionId}`
  const labels = new Map<string, string>()
  for await (const p of queryPages(
    arm,
    subscriptionId,
    costQuery(window, 'None', ['MeterId', dimension]),
    what,
    signal,
  )) {
    const meter = columnOf(p, ['MeterId'], what)
    const label = columnOf(p, [dimension], what)
    for (const row of p.rows) {
      const name = str(row[label])
      if (name) labels.set((str(row[meter]) ?? '').toLowerCase(), name)
    }
  }
  return labels
}

// Charges without a meter (some marketplace and purchase rows) still need a key; there is one such row per
// resource and day because the query groups by MeterId.
const NO_METER = 'unmetered'

/** The charge types with cost in the window, from one undated query grouped by ChargeType. */
async function chargeTypes(
  arm: ArmClient,
  subscriptionId: string,
  window: DayWindow,
  signal?: AbortSignal,
): Promise<string[]> {
  const what = `the Cost Management query of charge types for subscription ${subscriptionId}`
  const types = new Set<string>()
  for await (const p of queryPages(arm, subscriptionId, costQuery(window, 'None', ['ChargeType']), what, signal)) {
    const type = columnOf(p, ['ChargeType'], what)
    for (const row of p.rows) {
      const name = str(row[type])
      if (name) types.add(name)
    }
  }
  return [...types].sort()
}

export async function* subscriptionDailyCosts(
  arm: ArmClient,
  subscriptionId: string,
  window: DayWindow,
  signal?: AbortSignal,
): AsyncGenerator<DailyCostRow[]> {
  const services = await meterLabels(arm, subscriptionId, window, 'ServiceName', signal)
  const meterNames = await meterLabels(arm, subscriptionId, window, 'Meter', signal)
  const types = await chargeTypes(arm, subscriptionId, window, signal)
  // One type (or none): the unfiltered query holds only its rows. Several: one filtered query per type.
  const queries = types.length > 1 ? types : [types[0] ?? 'Usage']
  for (const chargeType of queries) {
    const charge = chargeOfType(chargeType)
    const what = `the Cost Management query for subscription ${subscriptionId}`
    const body = costQuery(window, 'Daily', ['ResourceId', 'MeterId'], types.length > 1 ? chargeType : undefined)
    for await (const p of queryPages(arm, subscriptionId, body, what, signal)) {
      const col = {
        cost: columnOf(p, COST_COLUMNS, what),
        date: columnOf(p, ['UsageDate'], what),
        resource: columnOf(p, ['ResourceId'], what),
        meter: columnOf(p, ['MeterId'], what),
        currency: columnOf(p, ['Currency', 'BillingCurrency'], what),
      }
      const rows: DailyCostRow[] = []
      for (const row of p.rows) {
        const date = usageDate(row[col.date])
        const cost = num(row[col.cost])
        const reportedCurrency = str(row[col.currency])
        if (!date || date < window.from || date > window.to || cost === null || !reportedCurrency) continue
        const currency = currencyCode(reportedCurrency, what)
        const resourceArmId = str(row[col.resource])
        const reportedMeter = str(row[col.meter])
        const labelKey = (reportedMeter ?? '').toLowerCase()
        rows.push({
          date,
          subscriptionId,
          resourceArmId,
          resourceGroupName: resourceArmId ? parseArmId(resourceArmId).resourceGroupName : null,
          meterId: reportedMeter ?? NO_METER,
          meterName: meterNames.get(labelKey) ?? null,
          ...charge,
          serviceName: services.get(labelKey) ?? 'Unknown',
          cost,
          currency,
        })
      }
      if (rows.length > 0) yield rows
    }
  }
}

/**
 * A currency code as the FOCUS reader takes it: ISO 4217, three letters, upper-cased. Codes reach report cells
 * (an XLSX formula among them), so anything else fails the run: Cost Management never sends one, and a run half
 * kept would misstate the totals. The value itself is not repeated in the error.
 */
function currencyCode(text: string, what: string): string {
  const code = normaliseCurrency(text)
  if (code) return code
  throw new ConnectorError(
    'provider_error',
    `${what} answered a currency that is not a three-letter ISO 4217 code; nothing of this run was kept.`,
  )
}

/** The subscription's billing currency, from the Currency column of an ungrouped query; null without any cost. */
export async function billingCurrency(
  arm: ArmClient,
  subscriptionId: string,
  window: DayWindow,
  signal?: AbortSignal,
): Promise<string | null> {
  const what = `the Cost Management currency query for subscription ${subscriptionId}`
  for await (const p of queryPages(arm, subscriptionId, costQuery(window, 'None', []), what, signal)) {
    const currency = columnOf(p, ['Currency', 'BillingCurrency'], what)
    for (const row of p.rows) {
      const code = str(row[currency])
      if (code) return currencyCode(code, what)
    }
  }
  return null
}

/** `UsageDate` is a number like 20231101 (yyyymmdd); some API versions send `2023-11-01T00:00:00` instead. */
export function usageDate(value: unknown): string | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : ''
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(text)
  if (compact) return `${compact[1]}-${compact[2]}-${compact[3]}`
  const iso = /^(\d{4}-\d{2}-\d{2})/.exec(text)
  return iso?.[1] ?? null
}
