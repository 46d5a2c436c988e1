import { describe, expect, it } from 'vitest'
import { driversOf, explainingChild } from './drivers.js'

describe('the drivers of an anomaly', () => {
  it('ranks the children that moved with the parent by their share of its change', () => {
    const drivers = driversOf(500, [
      { key: 'vm-a', expected: 100, actual: 480 },
      { key: 'vm-b', expected: 50, actual: 170 },
      { key: 'vm-c', expected: 80, actual: 60 },
      { key: 'vm-d', expected: 10, actual: 10 },
    ])
    expect(drivers.map((d) => [d.key, d.change, d.share])).toEqual([
      ['vm-a', 380, 0.76],
      ['vm-b', 120, 0.24],
    ])
    expect(explainingChild(drivers)?.key).toBe('vm-a')
  })

  it('works for drops, and names no single child when none explains half', () => {
    const drivers = driversOf(-300, [
      { key: 'sub-1', expected: 200, actual: 80 },
      { key: 'sub-2', expected: 200, actual: 80 },
      { key: 'sub-3', expected: 200, actual: 140 },
    ])
    expect(drivers.map((d) => d.key)).toEqual(['sub-1', 'sub-2', 'sub-3'])
    expect(drivers[0]!.share).toBeCloseTo(0.4, 10)
    expect(explainingChild(drivers)).toBeNull()
  })

  it('counts a child without an expected cost by its whole cost, and keeps at most the limit', () => {
    const children = Array.from({ length: 8 }, (_, i) => ({ key: `r${i}`, expected: Number.NaN, actual: 10 + i }))
    const drivers = driversOf(100, children, 3)
    expect(drivers.map((d) => [d.key, d.expected, d.change])).toEqual([
      ['r7', 0, 17],
      ['r6', 0, 16],
      ['r5', 0, 15],
    ])
  })
})
