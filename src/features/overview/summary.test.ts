import { describe, expect, it } from 'vitest'
import { changePercent, combineIntervals, monthToDateWindows, topMovers } from './summary.js'

describe('overview arithmetic', () => {
  it('compares month to date with as many days from the first of last month, cut at its end', () => {
    expect(monthToDateWindows('2026-11-20')).toEqual({
      current: { from: '2026-11-01', to: '2026-11-20', days: 20 },
      previous: { from: '2026-10-01', to: '2026-10-20', days: 20 },
    })
    expect(monthToDateWindows('2027-03-31').previous).toEqual({ from: '2027-02-01', to: '2027-02-28', days: 28 })
    expect(monthToDateWindows('2027-01-01').previous).toEqual({ from: '2026-12-01', to: '2026-12-01', days: 1 })
  })

  it('adds expected values and combines the intervals of independent tenancies in quadrature', () => {
    expect(combineIntervals([])).toBeNull()
    expect(combineIntervals([{ expected: 100, lower: 90, upper: 120 }])).toEqual({
      expected: 100,
      lower: 90,
      upper: 120,
    })
    // 3-4-5 on each side: narrower than the sum of the widths (7 below, 14 above), wider than either alone.
    expect(
      combineIntervals([
        { expected: 100, lower: 97, upper: 106 },
        { expected: 50, lower: 46, upper: 58 },
      ]),
    ).toEqual({ expected: 150, lower: 145, upper: 160 })
  })

  it('ranks movers by the size of their change either way, ties by their order, no change left out', () => {
    const ranked = topMovers(
      [
        { item: 'a', currency: 'USD', change: 5, order: 'a' },
        { item: 'b', currency: 'USD', change: -9, order: 'b' },
        { item: 'c', currency: 'USD', change: 5, order: 'c' },
        { item: 'd', currency: 'USD', change: 0.001, order: 'd' },
        { item: 'e', currency: 'USD', change: 1, order: 'e' },
      ],
      3,
    )
    expect(ranked.map((r) => r.item)).toEqual(['b', 'a', 'c'])
    expect(changePercent(160, 100)).toBe(60)
    expect(changePercent(5, 0)).toBeNull()
  })
})
