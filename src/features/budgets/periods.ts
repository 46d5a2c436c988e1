/**
 * A budget's periods: plain date arithmetic, no I/O. A Monthly, Quarterly or Annually budget's periods start on
 * its startDate and repeat every 1, 3 or 12 months from it (a start on the 31st falls on shorter months' last day);
 * a Custom budget has the periods it lists, each with its own amount.
 */
import { addDays, addMonths, daysBetween } from '../../platform/time.js'

export type BudgetPeriodKind = 'Monthly' | 'Quarterly' | 'Annually' | 'Custom'

export interface CustomPeriod {
  from: string
  to: string
  amount: number
}

export interface BudgetPeriod {
  from: string
  to: string
  amount: number
}

const MONTHS: Record<Exclude<BudgetPeriodKind, 'Custom'>, number> = { Monthly: 1, Quarterly: 3, Annually: 12 }

/**
 * The period holding `day`, or null when the budget has none then (before its start; between or after a Custom
 * budget's periods).
 */
export function periodOf(
  budget: { period: BudgetPeriodKind; startDate: string; amount: number | null; periods: CustomPeriod[] | null },
  day: string,
): BudgetPeriod | null {
  if (budget.period === 'Custom') {
    const found = (budget.periods ?? []).find((p) => p.from <= day && day <= p.to)
    return found ? { ...found } : null
  }
  if (day < budget.startDate) return null
  const step = MONTHS[budget.period]
  // Count whole steps from the start: an estimate from the months between, corrected by one either way.
  const [sy, sm] = budget.startDate.split('-').map(Number) as [number, number]
  const [dy, dm] = day.split('-').map(Number) as [number, number]
  let n = Math.max(0, Math.floor(((dy - sy) * 12 + (dm - sm)) / step))
  while (n > 0 && addMonths(budget.startDate, n * step) > day) n--
  while (addMonths(budget.startDate, (n + 1) * step) <= day) n++
  return {
    from: addMonths(budget.startDate, n * step),
    to: addDays(addMonths(budget.startDate, (n + 1) * step), -1),
    amount: budget.amount ?? 0,
  }
}

/** Why a Custom budget's periods are refused, per field (`periods[i].to`…), or {} when they are sound. */
export function customPeriodErrors(periods: readonly CustomPeriod[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  periods.forEach((p, i) => {
    if (p.to < p.from) errors[`periods.${i}.to`] = ['must not be before from']
    else if (i > 0 && p.from <= periods[i - 1]!.to)
      errors[`periods.${i}.from`] = [`must be after the previous period's end (${periods[i - 1]!.to})`]
  })
  return errors
}

const dayLists = new Map<string, readonly string[]>()

/**
 * daysBetween, each list made once: an evaluation walks the same periods and history windows for every scope
 * (1,000 budgets: half a second of date formatting). A few hundred lists at most; cleared beyond that.
 */
export function daysOf(from: string, to: string): readonly string[] {
  const key = `${from}/${to}`
  let days = dayLists.get(key)
  if (!days) {
    if (dayLists.size >= 512) dayLists.clear()
    days = daysBetween(from, to)
    dayLists.set(key, days)
  }
  return days
}
