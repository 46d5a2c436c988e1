import { describe, expect, it } from 'vitest'
import { addDays, dayCount } from '../../platform/time.js'
import { DAYS_PER_MONTH, MAX_OBSERVED_DAYS, monthlyDelta, observedWindows } from './observed.js'

const weekdays = (from: string, to: string) => {
  const counts = new Array(7).fill(0)
  for (let d = from; d <= to; d = addDays(d, 1)) counts[new Date(`${d}T00:00:00Z`).getUTCDay()]++
  return counts
}

describe('observedWindows', () => {
  it('compares as many days before as after, each weekday as often, the marker day on neither side', () => {
    const marker = '2026-02-17'
    for (let n = 1; n <= 40; n++) {
      const w = observedWindows(marker, addDays(marker, n), '2025-01-01')!
      const days = Math.min(n, MAX_OBSERVED_DAYS)
      expect(w.days).toBe(days)
      expect(w.after).toEqual({ from: '2026-02-18', to: addDays('2026-02-17', days) })
      expect(dayCount(w.before.from, w.before.to)).toBe(days)
      expect(w.before.to < marker).toBe(true)
      expect(weekdays(w.before.from, w.before.to)).toEqual(weekdays(w.after.from, w.after.to))
      // Whole weeks: the days just before the marker.
      if (days % 7 === 0) expect(w.before.to).toBe('2026-02-16')
    }
  })

  it('is null without a settled day after the marker day; shrinks to what the costs reach back to', () => {
    expect(observedWindows('2026-02-17', '2026-02-17', '2025-01-01')).toBeNull()
    expect(observedWindows('2026-02-17', '2026-02-10', '2025-01-01')).toBeNull()
    expect(observedWindows('2026-02-17', '2026-02-24', '2026-02-17')).toBeNull()
    const w = observedWindows('2026-02-17', '2026-03-30', '2026-02-03')!
    expect(w.before.from >= '2026-02-03').toBe(true)
    expect(w.days).toBe(14)
  })

  it('gives the monthly rate of the daily difference', () => {
    expect(monthlyDelta(700, 1400, 7)).toBe(100 * DAYS_PER_MONTH)
    expect(monthlyDelta(100, 100, 3)).toBe(0)
    expect(monthlyDelta(300, 0, 10)).toBe(-913.13)
  })
})
