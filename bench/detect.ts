/**
 * Anomaly detection over 20,000 daily series of 400 days (BENCH_DETECT_SERIES, BENCH_DETECT_DAYS), in process:
 * the pure function alone, as the analysis run calls it once per scope. Target: under 10 s. Beside it, in the same
 * run, the floor any seasonal detector pays: one pass that reads every day and its previous same weekdays.
 */
import { DEFAULT_DETECTION, judgeSeries } from '../src/analysis/anomalies/detect.js'
import type { Benchmark } from './lib.js'
import { intFromEnv, secondsSince } from './support.js'

const TARGET_SECONDS = 10

/** Weekly seasonality, growth, noise and a spike every 97 days: the shape of a real resource's usage cost. */
function makeSeries(count: number, days: number): Float64Array[] {
  let seed = 42
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
    return seed / 2_147_483_648
  }
  return Array.from({ length: count }, (_, s) => {
    const level = 5 + 500 * next()
    const series = new Float64Array(days)
    for (let d = 0; d < days; d++) {
      const season = d % 7 >= 5 ? 0.7 : 1
      series[d] = level * season * (1 + 0.0005 * d) * (1 + 0.1 * (next() - 0.5)) * ((d + s) % 97 === 0 ? 3 : 1)
    }
    return series
  })
}

/** The floor: every day read with its previous same weekdays, nothing judged. */
function floorPass(series: Float64Array[]): number {
  let sum = 0
  for (const values of series) {
    for (let t = 14; t < values.length; t++) {
      for (let k = 1; k <= DEFAULT_DETECTION.seasonWeeks && t - 7 * k >= 0; k++) sum += values[t - 7 * k]!
    }
  }
  return sum
}

export const detectBenchmark: Benchmark = {
  name: 'detect',
  description: 'anomaly detection over 20,000 series x 400 days, in process',
  async run() {
    const count = intFromEnv('BENCH_DETECT_SERIES', 20_000)
    const days = intFromEnv('BENCH_DETECT_DAYS', 400)
    const series = makeSeries(count, days)
    let started = performance.now()
    floorPass(series)
    const floor = secondsSince(started)
    started = performance.now()
    let found = 0
    for (const values of series) found += judgeSeries(values).anomalies.length
    const seconds = secondsSince(started)
    const met = seconds < TARGET_SECONDS
    process.stdout.write(
      `series ${count} x ${days} days: detection ${seconds.toFixed(2)} s (${Math.round((count * days) / seconds).toLocaleString('en')} days/s), ` +
        `${found} anomalies; floor (reading each day's same weekdays) ${floor.toFixed(2)} s; ` +
        `target < ${TARGET_SECONDS} s: ${met ? 'met' : 'MISSED'}\n`,
    )
    return { met }
  },
}
