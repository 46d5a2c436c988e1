import type { FieldErrors } from '../../../platform/http/errors.js'
import { readableDay } from '../period.js'
import { cents } from './resources.js'
import type { InsightLine, ReportKind, Row } from './types.js'

/** No parameters: the insights open on the day the run was requested. */
export type InsightSavingsParameters = Record<string, never>

/**
 * Open insights grouped by category and currency, the groups with the largest monthly savings first, and within
 * a group the largest saving first (amounts are never added across currencies, so neither are groups).
 */
export function bySavings(lines: readonly InsightLine[]): InsightLine[] {
  const groups = new Map<string, { total: number; lines: InsightLine[] }>()
  for (const line of lines) {
    const key = `${line.category}\u0000${line.currency}`
    const group = groups.get(key) ?? { total: 0, lines: [] }
    group.total += line.estimatedMonthlySavings
    group.lines.push(line)
    groups.set(key, group)
  }
  const bySaving = (a: InsightLine, b: InsightLine) =>
    b.estimatedMonthlySavings - a.estimatedMonthlySavings ||
    a.resourceName.localeCompare(b.resourceName) ||
    a.tenancyName.localeCompare(b.tenancyName)
  return [...groups.entries()]
    .sort(([ka, a], [kb, b]) => b.total - a.total || ka.localeCompare(kb))
    .flatMap(([, g]) => g.lines.sort(bySaving))
}

/** The open cost-reduction insights, by category, with their estimated monthly savings, largest first. */
export const insightSavings: ReportKind<InsightSavingsParameters> = {
  name: 'InsightSavings',
  description:
    'The open insights (Active, or snoozed until the run at the latest) on the day the run was requested, by ' +
    'category, the category with the largest estimated monthly savings first, and within it the largest saving ' +
    'first: resource, group, subscription, tenancy, severity, the recommendation and its monthly saving. No ' +
    'parameters.',

  parse(raw) {
    const errors: FieldErrors = {}
    for (const key of Object.keys(raw)) errors[`parameters.${key}`] = ['is not a parameter of InsightSavings']
    if (Object.keys(errors).length) return { ok: false, errors }
    return { ok: true, value: {} }
  },

  period: (_p, today) => ({ from: today, to: today, label: `Open on ${readableDay(today)}` }),

  subtitle: () => 'Open insights by category, with their monthly savings',

  produce(_p, { tenancyIds, period, source }) {
    async function* rows(): AsyncGenerator<Row[]> {
      // Open on the day: a snooze ending that day counts as open, as on the insight list by its end.
      const lines = bySavings(await source.openInsights(tenancyIds, `${period.to}T23:59:59.999Z`))
      yield lines.map((i) => [
        i.category,
        i.resourceName,
        i.resourceGroupName,
        i.subscriptionId,
        i.tenancyName,
        i.severity,
        i.title,
        cents(i.estimatedMonthlySavings),
        i.currency,
      ])
    }
    return {
      columns: [
        { title: 'Category', type: 'text', width: 24 },
        { title: 'Resource', type: 'text', width: 20 },
        { title: 'Resource group', type: 'text', width: 16 },
        { title: 'Subscription', type: 'text', width: 14 },
        { title: 'Tenancy', type: 'text', width: 13 },
        { title: 'Severity', type: 'text', width: 10 },
        { title: 'Recommendation', type: 'text', width: 32 },
        { title: 'Monthly savings', type: 'money', width: 18 },
        { title: 'Currency', type: 'text', width: 9 },
      ],
      amountColumn: 7,
      currencyColumn: 8,
      rows: rows(),
      // One day: a chart of it would be one bar.
      pdf: { chart: false, noRows: 'No insight is open for this scope.' },
    }
  },
}
