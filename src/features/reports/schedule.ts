import type { FieldErrors } from '../../platform/http/errors.js'
import { addDays, toDay } from '../../platform/time.js'
import { Weekdays } from './constants.js'
import type { ReportSchedule } from './schemas.js'

/** Checks what the schema cannot: a day of the week only for Weekly, a day of the month only for Monthly. */
export function checkSchedule(schedule: ReportSchedule | null | undefined, errors: FieldErrors): void {
  if (!schedule) return
  if (schedule.dayOfWeek !== undefined && schedule.frequency !== 'Weekly')
    errors['schedule.dayOfWeek'] = ['is only allowed with frequency Weekly']
  if (schedule.dayOfMonth !== undefined && schedule.frequency !== 'Monthly')
    errors['schedule.dayOfMonth'] = ['is only allowed with frequency Monthly']
}

/**
 * The day of the schedule's current period on which its run is due, once its hour has come (UTC): today for
 * Daily, this week's day for Weekly (weeks start on Monday), this month's day for Monthly. Null before then.
 * That day names the period: one run per report and day, whatever the number of workers (a unique index).
 */
export function dueDay(schedule: ReportSchedule, now: Date): string | null {
  const today = toDay(now)
  let day: string
  if (schedule.frequency === 'Daily') day = today
  else if (schedule.frequency === 'Weekly') {
    const mondayBased = (now.getUTCDay() + 6) % 7
    const wanted = Weekdays.indexOf(schedule.dayOfWeek ?? 'Monday')
    day = addDays(today, wanted - mondayBased)
  } else day = `${today.slice(0, 8)}${String(schedule.dayOfMonth ?? 1).padStart(2, '0')}`
  const due = Date.parse(`${day}T${String(schedule.hourUtc).padStart(2, '0')}:00:00.000Z`)
  return now.getTime() >= due ? day : null
}
