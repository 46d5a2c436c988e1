/**
 * A budget's daily pace on a cost chart: each period's amount spread evenly over its days. The periods follow the
 * server's rule (src/features/budgets/periods.ts): a Monthly, Quarterly or Annually budget's periods start on its
 * startDate and repeat every 1, 3 or 12 months (a start on the 31st falls on shorter months' last day); a Custom
 * budget has the periods it lists.
 */
import './pace.css'

/** What the pace needs of a budget (the API's Budget record has it). */
export interface PacedBudget {
  name: string
  period: 'Monthly' | 'Quarterly' | 'Annually' | 'Custom'
  amount: number | null
  periods: { from: string; to: string; amount: number }[] | null
  startDate: string
  currency: string
  scope: {
    tenancyIds: string[] | null
    tags?: { key: string; value: string }[]
    resourceGroup?: string | null
    service?: string | null
  }
}

export const PACE_STROKE = '#b91c1c'

const MONTHS = { Monthly: 1, Quarterly: 3, Annually: 12 } as const
const DAY_MS = 86_400_000

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
}

/** The days from `from` to `to`, both counted. */
export function daysIn(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1
}

/** The day `months` months after `start`, kept on `start`'s day of the month where the month has it. */
function monthsAfter(start: string, months: number): string {
  const [year, month, day] = start.split('-').map(Number) as [number, number, number]
  const last = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate()
  return new Date(Date.UTC(year, month - 1 + months, Math.min(day, last))).toISOString().slice(0, 10)
}

/** The budget's period holding `day`, or null when it has none then. */
export function periodOf(budget: PacedBudget, day: string): { from: string; to: string; amount: number } | null {
  if (budget.period === 'Custom') {
    const found = (budget.periods ?? []).find((p) => p.from <= day && day <= p.to)
    return found ? { ...found } : null
  }
  if (day < budget.startDate || budget.amount === null) return null
  const step = MONTHS[budget.period]
  const [sy, sm] = budget.startDate.split('-').map(Number) as [number, number]
  const [dy, dm] = day.split('-').map(Number) as [number, number]
  let n = Math.max(0, Math.floor(((dy - sy) * 12 + (dm - sm)) / step))
  while (n > 0 && monthsAfter(budget.startDate, n * step) > day) n--
  while (monthsAfter(budget.startDate, (n + 1) * step) <= day) n++
  return {
    from: monthsAfter(budget.startDate, n * step),
    to: addDays(monthsAfter(budget.startDate, (n + 1) * step), -1),
    amount: budget.amount,
  }
}

/** The pace on each of `days`: the amount of the period holding it over that period's days; null outside them. */
export function paceColumn(budget: PacedBudget, days: readonly string[]): (number | null)[] {
  return days.map((day) => {
    const period = periodOf(budget, day)
    return period ? period.amount / daysIn(period.from, period.to) : null
  })
}

/**
 * The budgets whose scope is the chart's: the whole tenant's chart and a budget of exactly this tenancy with
 * nothing narrower; a resource group's chart and a budget of exactly this tenancy on that group (letter case
 * ignored), no tags or service. Only those in the chart's currency: the pace is compared with daily costs.
 */
export function budgetsOfChart<B extends PacedBudget>(
  budgets: readonly B[],
  chart: { tenantId: string; kind: string; value: string; currency: string },
): B[] {
  if (chart.kind !== 'tenant' && chart.kind !== 'resourceGroup') return []
  return budgets.filter((b) => {
    const ids = b.scope.tenancyIds
    if (ids?.length !== 1 || ids[0]!.toLowerCase() !== chart.tenantId.toLowerCase()) return false
    if ((b.scope.tags ?? []).length > 0 || b.scope.service) return false
    if (b.currency.toUpperCase() !== chart.currency.toUpperCase()) return false
    const group = b.scope.resourceGroup ?? null
    return chart.kind === 'tenant' ? group === null : group?.toLowerCase() === chart.value.toLowerCase()
  })
}
