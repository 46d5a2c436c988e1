import type { Tenant } from '../../api'
import type { Dimension, PeriodName, Report, ReportKind, ReportRun, ReportSchedule, Weekday } from './api'

/** How the pages name the API's values to a reader. */

export const KINDS: { value: ReportKind; label: string; hint: string }[] = [
  { value: 'CostByDimension', label: 'Cost by dimension', hint: 'Costs grouped by service, subscription, tag…' },
  { value: 'TopResources', label: 'Top resources', hint: 'The most expensive resources, ranked.' },
  {
    value: 'AnomalySummary',
    label: 'Anomaly summary',
    hint: 'The anomalies raised in the period, by status and severity, with their cost impact.',
  },
  {
    value: 'InsightSavings',
    label: 'Insight savings',
    hint: 'The open cost-reduction insights by category, largest monthly saving first.',
  },
]

/** Kinds that cover a period (every one but the insight savings, which are as of the run's day). */
export const hasPeriod = (kind: ReportKind) => kind !== 'InsightSavings'

export const DIMENSIONS: { value: Dimension; label: string }[] = [
  { value: 'Service', label: 'Service' },
  { value: 'Subscription', label: 'Subscription' },
  { value: 'ResourceGroup', label: 'Resource group' },
  { value: 'Resource', label: 'Resource' },
  { value: 'Tag', label: 'Tag' },
]

export const PERIODS: { value: PeriodName; label: string }[] = [
  { value: 'MonthToDate', label: 'Month to date' },
  { value: 'LastMonth', label: 'Last month' },
  { value: 'Last30Days', label: 'Last 30 days' },
  { value: 'Last90Days', label: 'Last 90 days' },
  { value: 'Custom', label: 'Custom range' },
]

export const WEEKDAYS: Weekday[] = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']

const labelOf = <T extends string>(list: { value: T; label: string }[], value: T | undefined) =>
  list.find((item) => item.value === value)?.label ?? value ?? ''

export const kindLabel = (kind: ReportKind) => labelOf(KINDS, kind)

/** "By service, last 30 days, top 10" or "Top 20 resources, 1 Mar 2026 to 31 Mar 2026". */
export function parametersInWords(report: Pick<Report, 'kind' | 'parameters'>): string {
  const p = report.parameters
  const period =
    p.period === 'Custom' ? `${readableDay(p.from ?? '')} to ${readableDay(p.to ?? '')}` : labelOf(PERIODS, p.period)
  if (report.kind === 'TopResources') return `Top ${p.count ?? 20} resources, ${period.toLowerCase()}`
  if (report.kind === 'AnomalySummary') return `Anomalies raised, ${period.toLowerCase()}`
  if (report.kind === 'InsightSavings') return 'Open insights and their monthly savings, as of the run'
  const by = p.dimension === 'Tag' ? `tag “${p.tagKey ?? ''}”` : labelOf(DIMENSIONS, p.dimension).toLowerCase()
  return `By ${by}, ${period.toLowerCase()}${p.top ? `, top ${p.top}` : ''}`
}

/** "Whole organisation" or the tenancies' names ("2 tenancies" when one is not visible to the user). */
export function scopeInWords(tenancyIds: string[] | null, tenants: Tenant[] | null): string {
  if (tenancyIds === null) return 'Whole organisation'
  const names = tenancyIds.map((id) => tenants?.find((t) => t.id === id)?.name)
  if (names.every((name) => name !== undefined)) return names.join(', ')
  return `${tenancyIds.length} ${tenancyIds.length === 1 ? 'tenancy' : 'tenancies'}`
}

const hour = (h: number) => `${String(h).padStart(2, '0')}:00 UTC`

export function scheduleInWords(schedule: ReportSchedule | null): string {
  if (!schedule) return 'Not scheduled: runs when asked'
  if (schedule.frequency === 'Daily') return `Every day at ${hour(schedule.hourUtc)}`
  if (schedule.frequency === 'Weekly') return `Every ${schedule.dayOfWeek ?? 'Monday'} at ${hour(schedule.hourUtc)}`
  return `Monthly on day ${schedule.dayOfMonth ?? 1} at ${hour(schedule.hourUtc)}`
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** `2026-03-01` as `1 Mar 2026`. */
export function readableDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number)
  if (!y || !m || !d) return day
  return `${d} ${MONTHS[m - 1]} ${y}`
}

export function runPeriod(run: ReportRun): string {
  return run.periodStart && run.periodEnd ? `${readableDay(run.periodStart)} to ${readableDay(run.periodEnd)}` : ''
}

export const STATUS_WORDS: Record<ReportRun['status'], string> = {
  Queued: 'waiting for a worker',
  Running: 'reading the costs and writing the files',
  Succeeded: 'done',
  Failed: 'failed',
}

export function isFinished(run: ReportRun): boolean {
  return run.status === 'Succeeded' || run.status === 'Failed'
}

/** A field of the API's errors (`parameters.tagKey`) as the form's label names it. */
export const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  kind: 'Kind',
  parameters: 'Parameters',
  'parameters.dimension': 'Group by',
  'parameters.tagKey': 'Tag key',
  'parameters.top': 'Largest rows only',
  'parameters.count': 'Number of resources',
  'parameters.period': 'Period',
  'parameters.from': 'From',
  'parameters.to': 'To',
  tenancyIds: 'Tenancies',
  schedule: 'Schedule',
  'schedule.frequency': 'Schedule',
  'schedule.hourUtc': 'Hour (UTC)',
  'schedule.dayOfWeek': 'Day of the week',
  'schedule.dayOfMonth': 'Day of the month',
}
