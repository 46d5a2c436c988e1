import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import {
  addDays,
  addMonths,
  DAY_MS,
  dayBounds,
  dayCount,
  dayDiff,
  dayStart,
  daysBetween,
  lastDays,
  monthEndOf,
  monthStart,
  previousMonthStart,
  toDay,
  toInstant,
  utcMillis,
} from './time.js'

/** Any day of the years the API accepts (0001 to 9999 sort as text; Date.UTC maps years below 100 to 19xx). */
const anyDay = fc
  .integer({ min: Date.UTC(1970, 0, 1) / DAY_MS, max: Date.UTC(9999, 11, 31) / DAY_MS })
  .map((n) => new Date(n * DAY_MS).toISOString().slice(0, 10))

describe('UTC days', () => {
  it('take the UTC day of an instant, whatever its time of day', () => {
    expect(toDay(new Date('2026-03-15T00:00:00.000Z'))).toBe('2026-03-15')
    expect(toDay(new Date('2026-03-15T23:59:59.999Z'))).toBe('2026-03-15')
    expect(toDay(new Date('2026-03-16T01:30:00+02:00'))).toBe('2026-03-15')
  })

  it('add and subtract days across month ends, year ends and leap days', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01')
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01')
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29')
    expect(addDays('2024-02-29', 1)).toBe('2024-03-01')
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29')
    expect(addDays('2100-02-28', 1)).toBe('2100-03-01') // not a leap year: divisible by 100
    expect(addDays('2000-02-28', 1)).toBe('2000-02-29') // a leap year: divisible by 400
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01')
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31')
    expect(addDays('2026-03-15', 0)).toBe('2026-03-15')
    expect(addDays('2026-03-15', -30)).toBe('2026-02-13')
    expect(addDays('2024-01-01', 366)).toBe('2025-01-01')
  })

  it('list a range with both ends, and count it without listing it', () => {
    expect(daysBetween('2024-02-27', '2024-03-01')).toEqual(['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01'])
    expect(daysBetween('2025-12-31', '2026-01-01')).toEqual(['2025-12-31', '2026-01-01'])
    expect(daysBetween('2026-03-15', '2026-03-15')).toEqual(['2026-03-15'])
    expect(daysBetween('2026-03-16', '2026-03-15')).toEqual([])
    expect(dayCount('2026-03-15', '2026-03-15')).toBe(1)
    expect(dayCount('2026-03-16', '2026-03-15')).toBe(0)
    expect(dayCount('2024-01-01', '2024-12-31')).toBe(366)
    expect(dayCount('0001-01-01', '9999-12-31')).toBe(3_652_059)
    expect(dayDiff('2024-01-01', '2024-03-01')).toBe(60)
    expect(dayDiff('2024-03-01', '2024-01-01')).toBe(-60)
    expect(dayDiff('2026-03-15', '2026-03-15')).toBe(0)
    expect(lastDays('2024-03-01', 3)).toEqual({ from: '2024-02-28', to: '2024-03-01' })
    expect(lastDays('2024-03-01', 1)).toEqual({ from: '2024-03-01', to: '2024-03-01' })
  })

  it('list the last days the API accepts and stop there', () => {
    expect(daysBetween('9999-12-30', '9999-12-31')).toEqual(['9999-12-30', '9999-12-31'])
    expect(daysBetween('9999-12-31', '9999-12-31')).toEqual(['9999-12-31'])
  })

  it('find month starts, the previous one across a year end', () => {
    expect(monthStart('2026-03-31')).toBe('2026-03-01')
    expect(monthStart('2026-03-01')).toBe('2026-03-01')
    expect(previousMonthStart('2026-03-15')).toBe('2026-02-01')
    expect(previousMonthStart('2026-01-01')).toBe('2025-12-01')
    expect(previousMonthStart('2024-03-31')).toBe('2024-02-01')
  })

  it('start at midnight UTC and end at its last millisecond', () => {
    expect(dayStart('2024-02-29').toISOString()).toBe('2024-02-29T00:00:00.000Z')
    expect(dayBounds('2024-02-29')).toEqual({ start: '2024-02-29T00:00:00.000Z', end: '2024-02-29T23:59:59.999Z' })
  })

  it('keep their laws for any day and any step', () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: -4000, max: 4000 }), (day, n) => {
        const later = addDays(day, n)
        if (!/^\d{4}-\d{2}-\d{2}$/.test(later)) return // past year 9999 the ISO text grows a sign
        expect(addDays(later, -n)).toBe(day)
        expect(toDay(dayStart(day))).toBe(day)
        expect(dayDiff(day, later)).toBe(n)
        if (n >= 0) {
          expect(dayCount(day, later)).toBe(n + 1)
          if (n <= 400) expect(daysBetween(day, later)).toHaveLength(n + 1)
        } else expect(dayCount(day, later)).toBe(0)
      }),
    )
  })
})

describe('the host time zone', () => {
  const original = process.env.TZ
  afterEach(() => {
    if (original === undefined) delete process.env.TZ
    else process.env.TZ = original
  })

  // Node reads TZ again when it changes: these zones move their clocks on these days (Europe on the last Sunday
  // of March and October, the US on the second Sunday of March and first of November, Lord Howe by half an hour).
  it.each(['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Kiritimati'])(
    'never shifts a day (%s)',
    (zone) => {
      process.env.TZ = zone
      expect(new Date('2026-03-29T12:00:00Z').getTimezoneOffset()).not.toBe(0) // the zone is in effect
      expect(addDays('2026-03-28', 1)).toBe('2026-03-29')
      expect(addDays('2026-03-29', 1)).toBe('2026-03-30')
      expect(addDays('2026-03-08', 1)).toBe('2026-03-09')
      expect(addDays('2026-10-25', -1)).toBe('2026-10-24')
      expect(addDays('2026-11-01', 1)).toBe('2026-11-02')
      expect(addDays('2026-04-05', 1)).toBe('2026-04-06')
      expect(daysBetween('2026-03-27', '2026-03-31')).toHaveLength(5)
      expect(dayCount('2026-01-01', '2026-12-31')).toBe(365)
      expect(toDay(new Date('2026-03-29T23:59:59.999Z'))).toBe('2026-03-29')
      expect(dayStart('2026-03-29').getTime()).toBe(Date.UTC(2026, 2, 29))
    },
  )
})

describe('instants', () => {
  it('are RFC 3339 in UTC with milliseconds, optionally later', () => {
    const at = new Date('2026-03-15T10:20:30+01:00')
    expect(toInstant(at)).toBe('2026-03-15T09:20:30.000Z')
    expect(toInstant(at, 1)).toBe('2026-03-15T09:20:30.001Z')
    expect(toInstant(at, -DAY_MS)).toBe('2026-03-14T09:20:30.000Z')
  })

  it('are built only from real dates and times of day', () => {
    expect(utcMillis(2024, 2, 29)).toBe(Date.UTC(2024, 1, 29))
    expect(utcMillis(2025, 12, 31, 23, 59, 59, 999)).toBe(Date.UTC(2025, 11, 31, 23, 59, 59, 999))
    expect(utcMillis(2025, 2, 29)).toBeNull()
    expect(utcMillis(2025, 4, 31)).toBeNull()
    expect(utcMillis(2025, 13, 1)).toBeNull()
    expect(utcMillis(2025, 1, 0)).toBeNull()
    expect(utcMillis(2025, 1, 1, 24)).toBeNull()
    expect(utcMillis(2025, 1, 1, 0, 60)).toBeNull()
    expect(utcMillis(2025, 1, 1, 0, 0, 60)).toBeNull() // no leap seconds
    // The years 1 to 99 are those years, not 1901 to 1999.
    expect(new Date(utcMillis(50, 6, 15, 12)!).toISOString()).toBe('0050-06-15T12:00:00.000Z')
    expect(new Date(utcMillis(4, 2, 29)!).toISOString()).toBe('0004-02-29T00:00:00.000Z')
    expect(utcMillis(5, 2, 29)).toBeNull() // 0005 was no leap year
  })
})

describe('months', () => {
  it('ends a month on its last day, leap years included', () => {
    expect(monthEndOf('2026-02-10')).toBe('2026-02-28')
    expect(monthEndOf('2028-02-01')).toBe('2028-02-29')
    expect(monthEndOf('2026-12-31')).toBe('2026-12-31')
  })

  it("keeps the day of the month where the month has it, else takes the month's last day", () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28')
    expect(addMonths('2026-01-31', 2)).toBe('2026-03-31')
    expect(addMonths('2026-11-15', 3)).toBe('2027-02-15')
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28')
    expect(addMonths('2024-02-29', 12)).toBe('2025-02-28')
  })
})
