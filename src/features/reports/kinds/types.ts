import type { FieldErrors } from '../../../platform/http/errors.js'

import type { ResourceServiceCost } from '../../costs/read/index.js'
import type { ResourceFacts } from '../../inventory/public.js'

/** How a column's cells are typed in every format: money right-aligned with its currency, dates as dates. */
export type CellType = 'text' | 'money' | 'date' | 'integer'
export type Cell = string | number | null
export type Row = Cell[]

export interface Column {
  title: string
  type: CellType
  /** Width in characters, a hint for XLSX columns and PDF tables. */
  width: number
}

/** The days a report covers, inclusive, as UTC days. */
export interface Period {
  from: string
  to: string
  /** How a reader names it: "Month to date", "1 Mar 2026 to 31 Mar 2026". */
  label: string
}

/** An anomaly as a report lists it: its numbers, and its scope as people name it. */
export interface AnomalyLine {
  tenancyName: string
  status: string
  severity: string
  dateRaised: string
  scopeKind: string
  /** The subscription, group, resource or service name; '(whole tenancy)' for a tenancy's. */
  scopeName: string
  subscriptionId: string | null
  expectedCost: number
  actualCost: number
  impact: number
  currency: string
}

/** An open insight as a report lists it. */
export interface InsightLine {
  tenancyName: string
  category: string
  severity: string
  title: string
  resourceName: string
  resourceGroupName: string
  subscriptionId: string
  estimatedMonthlySavings: number
  currency: string
}

/** What a kind reads; the costs come through the costs store (see resourceCostBatches). */
export interface ReportSource {
  /** Per resource, service and currency, in batches in resource-key order, for one tenancy at a time. */
  resourceCosts(
    tenancyId: string,
    period: Period,
  ): AsyncIterable<{
    costs: ResourceServiceCost[]
    facts: Map<string, ResourceFacts>
  }>
  /** The daily totals of the tenancies, per currency (the chart's series). */
  dailyTotals(tenancyIds: string[], period: Period): Promise<{ date: string; currency: string; cost: number }[]>
  /** The tenancies' anomalies raised in the period (a few per tenancy a day at most). */
  anomalies(tenancyIds: string[], period: Period): Promise<AnomalyLine[]>
  /** The tenancies' insights open at `asOf`: Active, or snoozed until then at the latest. */
  openInsights(tenancyIds: string[], asOf: string): Promise<InsightLine[]>
}

/** A run's data: the columns, then the rows in batches, in the order the report shows them. */
export interface ReportData {
  columns: Column[]
  /** The column summed in totals, and the column naming each row's currency. */
  amountColumn: number
  currencyColumn: number
  rows: AsyncIterable<Row[]>
  /** Whether the PDF shows the daily cost chart (default true) and each row's share of the total (default true). */
  pdf?: { chart?: boolean; share?: boolean; noRows?: string }
}

/**
 * A kind of report: one module each (cost by dimension, top resources...). It checks its own parameters and
 * produces rows; the run, the files and the API are the same for every kind.
 */
export interface ReportKind<P = Record<string, unknown>> {
  name: string
  /** What the kind shows, for the OpenAPI document and `costwatch reports kinds`. */
  description: string
  /** The parameters, checked and completed with defaults, or the errors by field (`parameters.x`). */
  parse(raw: Record<string, unknown>): { ok: true; value: P } | { ok: false; errors: FieldErrors }
  /** The period the parameters name, as of `today` (a UTC day). */
  period(parameters: P, today: string): Period
  /** A subtitle for documents, e.g. "Cost by service". */
  subtitle(parameters: P): string
  produce(parameters: P, context: { tenancyIds: string[]; period: Period; source: ReportSource }): ReportData
}
