/**
 * UTC days and instants, the two time formats of the API and the database: a day is `YYYY-MM-DD` (a UTC calendar
 * day), an instant is RFC 3339 in UTC with milliseconds. Pure arithmetic in UTC: the host's time zone and its
 * daylight saving changes never enter, so every day has 24 hours. The current time comes from the injected Clock
 * (clock.ts), never from here.
 */

export const DAY_MS = 86_400_000

/** The UTC day of an instant. */
export function toDay(at: Date): string {
  return at.toISOString().slice(0, 10)
}

/** RFC 3339 in UTC with milliseconds, the one instant format of the API, optionally `plusMs` later. */
export function toInstant(at: Date, plusMs = 0): string {
  return new Date(at.getTime() + plusMs).toISOString()
}

/** The first millisecond of a UTC day. */
export function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`)
}

/** The first and last instants of a UTC day, as RFC 3339 text (inclusive bounds of a query over instants). */
export function dayBounds(day: string): { start: string; end: string } {
  return { start: `${day}T00:00:00.000Z`, end: `${day}T23:59:59.999Z` }
}

/** The day `n` days after `day` (before it when `n` is negative). */
export function addDays(day: string, n: number): string {
  return toDay(new Date(dayStart(day).getTime() + n * DAY_MS))
}

/** How many days `to` is after `from` (negative when it is before). */
export function dayDiff(from: string, to: string): number {
  return Math.round((dayStart(to).getTime() - dayStart(from).getTime()) / DAY_MS)
}

/** How many days `from`..`to` spans, both ends included; 0 when `from` is after `to`. */
export function dayCount(from: string, to: string): number {
  return Math.max(0, dayDiff(from, to) + 1)
}

/**
 * Every day from `from` to `to`, both included, in order; empty when `from` is after `to`. Counted, not compared
 * as text: the day after 9999-12-31 is written `+010000-01-01`, which sorts before it, so a loop to 9999-12-31
 * while `day <= to` never ended.
 */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = new Array(dayCount(from, to))
  const start = dayStart(from).getTime()
  for (let i = 0; i < days.length; i++) days[i] = toDay(new Date(start + i * DAY_MS))
  return days
}

/** The `n` days ending with `last`, as an inclusive range. */
export function lastDays(last: string, n: number): { from: string; to: string } {
  return { from: addDays(last, -(n - 1)), to: last }
}

/** The first day of the day's month. */
export function monthStart(day: string): string {
  return `${day.slice(0, 7)}-01`
}

/** The last day of the day's month. */
export function monthEndOf(day: string): string {
  const [year, month] = day.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10)
}

/** The same day `months` months later, kept on the day's day of the month where the month has it (else its last). */
export function addMonths(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  const last = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate()
  return new Date(Date.UTC(year, month - 1 + months, Math.min(date, last))).toISOString().slice(0, 10)
}

/** The first day of the month before the day's month. */
export function previousMonthStart(day: string): string {
  return monthStart(addDays(monthStart(day), -1))
}

/**
 * Milliseconds since the epoch of a UTC date and time of day, or null when the fields do not name a real one
 * (31 February, hour 24, second 60): a Date rolls those over into the next unit, and a real one survives the
 * round trip.
 */
export function utcMillis(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0) {
  // Not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  const check = new Date(0)
  check.setUTCFullYear(year, month - 1, day)
  check.setUTCHours(hour, minute, second, ms)
  const at = check.getTime()
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    check.getUTCHours() !== hour ||
    check.getUTCMinutes() !== minute ||
    check.getUTCSeconds() !== second
  ) {
    return null
  }
  return at
}
