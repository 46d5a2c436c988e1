import { describe, expect, it } from 'vitest'
import { judgeSeries } from '../../src/analysis/anomalies/detect.js'

/** A resource's daily cost: `level` on weekdays, 70% of it at weekends, with a fixed wobble of up to ±12%. */
function series(days: number, level: number): number[] {
  return Array.from({ length: days }, (_, d) => {
    const weekend = d % 7 === 5 || d % 7 === 6 ? 0.7 : 1
    return level * weekend * (1 + 0.12 * Math.sin(d * 12.9898) * Math.cos(d * 4.1414))
  })
}

describe('anomaly detection of one series', () => {
  it('raises a multi-day outage once, and not the return to the old level with its usual wobble', () => {
    const costs = series(90, 450)
    const outage = 60
    for (let d = outage; d < outage + 5; d++) costs[d]! *= 0.15
    // Back a little above its usual day: ordinary wobble at 450 a day, many times the wobble of the outage's level.
    costs[outage + 5]! += 15
    const { anomalies } = judgeSeries(costs)
    expect(anomalies.map((a) => [a.index, Math.sign(a.impact)])).toEqual([[outage, -1]])
  })

  it('still raises a return that overshoots the old level by far', () => {
    const costs = series(90, 450)
    const outage = 60
    for (let d = outage; d < outage + 5; d++) costs[d]! *= 0.15
    for (let d = outage + 5; d < costs.length; d++) costs[d]! *= 2
    const { anomalies } = judgeSeries(costs)
    expect(anomalies.map((a) => [a.index, Math.sign(a.impact)])).toEqual([
      [outage, -1],
      [outage + 5, 1],
    ])
  })
})
