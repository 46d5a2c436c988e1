import type { FieldErrors } from '../../../platform/http/errors.js'
import { AnomalySeverities, AnomalyStatuses } from '../../anomalies/public.js'
import { checkPeriod, type PeriodParameters, resolvePeriod } from '../period.js'
import { cents } from './resources.js'
import type { AnomalyLine, ReportKind, Row } from './types.js'

export type AnomalySummaryParameters = PeriodParameters

/** Where a value sits in its list (Active before Acknowledged, High before Low); unknown values last. */
function rank(list: readonly string[], value: string): number {
  const at = list.indexOf(value)
  return at === -1 ? list.length : at
}

/**
 * The order of the summary: by status (Active, Acknowledged, Resolved), then severity (High, Medium, Low), then
 * newest day first, then largest impact either way (a drop matters as much as a spike).
 */
export function anomalyOrder(a: AnomalyLine, b: AnomalyLine): number {
  return (
    rank(AnomalyStatuses, a.status) - rank(AnomalyStatuses, b.status) ||
    rank(AnomalySeverities, a.severity) - rank(AnomalySeverities, b.severity) ||
    b.dateRaised.localeCompare(a.dateRaised) ||
    Math.abs(b.impact) - Math.abs(a.impact) ||
    a.tenancyName.localeCompare(b.tenancyName) ||
    a.scopeName.localeCompare(b.scopeName)
  )
}

/** The anomalies raised in a period, by status and severity, with their scope and numbers. */
export const anomalySummary: ReportKind<AnomalySummaryParameters> = {
  name: 'AnomalySummary',
  description:
    'The anomalies raised in a period, by status (Active, Acknowledged, Resolved) then severity (High, Medium, ' +
    'Low), newest first: tenancy, scope, day raised, expected and actual cost, and impact (actual - expected).',

  parse(raw) {
    const errors: FieldErrors = {}
    for (const key of Object.keys(raw))
      if (!['period', 'from', 'to'].includes(key))
        errors[`parameters.${key}`] = ['is not a parameter of AnomalySummary']
    const period = checkPeriod(raw, errors)
    if (Object.keys(errors).length) return { ok: false, errors }
    return { ok: true, value: period }
  },

  period: (p, today) => resolvePeriod(p, today),

  subtitle: () => 'Anomalies by status and severity',

  produce(_p, { tenancyIds, period, source }) {
    async function* rows(): AsyncGenerator<Row[]> {
      // Detection raises a few anomalies per tenancy a day at most: they are sorted in memory.
      const lines = (await source.anomalies(tenancyIds, period)).sort(anomalyOrder)
      yield lines.map((a) => [
        a.status,
        a.severity,
        a.dateRaised,
        a.tenancyName,
        a.scopeKind,
        a.scopeName,
        a.subscriptionId ?? '',
        cents(a.expectedCost),
        cents(a.actualCost),
        cents(a.impact),
        a.currency,
      ])
    }
    return {
      columns: [
        { title: 'Status', type: 'text', width: 15 },
        { title: 'Severity', type: 'text', width: 11 },
        { title: 'Raised', type: 'date', width: 13 },
        { title: 'Tenancy', type: 'text', width: 14 },
        { title: 'Scope', type: 'text', width: 15 },
        { title: 'Name', type: 'text', width: 22 },
        { title: 'Subscription', type: 'text', width: 16 },
        { title: 'Expected cost', type: 'money', width: 14 },
        { title: 'Actual cost', type: 'money', width: 14 },
        { title: 'Impact', type: 'money', width: 14 },
        { title: 'Currency', type: 'text', width: 9 },
      ],
      amountColumn: 9,
      currencyColumn: 10,
      rows: rows(),
      // A share of a net impact (spikes and drops summed) says nothing; the daily cost beside it does.
      pdf: { share: false, noRows: 'No anomaly was raised in this period for this scope.' },
    }
  },
}
