/**
 * Evaluation of the cost forecast: `npm run eval -- forecast` (`--seed N` or a range `1-10` picks the seeds).
 * For each seed, the labelled 180-day estate of the anomaly evaluation (weekly seasonality at every scope, trends,
 * spikes, outages, level shifts, new and removed resources, a partial newest day) is summed into the series a
 * forecast is asked for: the tenant, each subscription and each service. Each series is backtested as a forecast
 * is (src/analysis/forecast/model.ts `backtest`): fitted on its history up to four weeks before its last settled
 * day, the four weeks forecast and scored. MASE is against the seasonal-naive forecast from the same origin (the
 * same weekday of the last week before it); coverage is the share of days inside the 80% interval.
 *
 * The model is pure arithmetic on a daily series: the endpoint's reads (test/costs/forecast.test.ts) hand it the
 * same sums of the same rows, so the evaluation fits it on the estate's series directly, fast enough for many seeds.
 */
import { backtest } from '../src/analysis/forecast/model.js'
import { generateEstate } from './estate.js'

const TARGET_MASE = 1
const TARGET_COVERAGE: [number, number] = [0.75, 0.85]

function seedsOf(args: string[]): number[] {
  const seeds: number[] = []
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '--seed') continue
    const value = args[++i] ?? ''
    const range = /^(\d+)-(\d+)$/.exec(value)
    if (range) for (let s = Number(range[1]); s <= Number(range[2]); s++) seeds.push(s)
    else if (/^\d+$/.test(value)) seeds.push(Number(value))
    else throw new Error(`--seed takes a number or a range such as 1-10, not "${value}"`)
  }
  return seeds.length ? seeds : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
}

interface Scores {
  series: number
  /** MASE of each series, for the median. */
  mases: number[]
  covered: number
  days: number
}

/** The series a forecast is asked for, each the sum of its resources' daily costs. */
function seriesOf(seed: number): Map<string, { firstDate: string; values: number[] }> {
  const estate = generateEstate(seed, { days: 180, lifecycle: true, partialNewestDay: true })
  // The newest day is partial (unsettled): a forecast's history ends the day before.
  const days = estate.days.slice(0, -1)
  const sums = new Map<string, number[]>()
  const add = (key: string, costs: number[]) => {
    const sum = sums.get(key) ?? new Array<number>(days.length).fill(0)
    for (let d = 0; d < days.length; d++) sum[d]! += costs[d] ?? 0
    sums.set(key, sum)
  }
  for (const res of estate.resources) {
    add('tenant', res.costs)
    add(`subscription ${res.subscriptionId}`, res.costs)
    add(`service ${res.service}`, res.costs)
  }
  return new Map([...sums].map(([key, values]) => [key, { firstDate: days[0]!, values }]))
}

const seeds = seedsOf(process.argv.slice(2))
const total: Scores = { series: 0, mases: [], covered: 0, days: 0 }
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
for (const seed of seeds) {
  const scores: Scores = { series: 0, mases: [], covered: 0, days: 0 }
  for (const { firstDate, values } of seriesOf(seed).values()) {
    const accuracy = backtest(values, firstDate)
    if (accuracy.mase === null || accuracy.coverage80 === null) continue
    scores.series++
    scores.mases.push(accuracy.mase)
    scores.covered += accuracy.coverage80 * accuracy.backtestDays
    scores.days += accuracy.backtestDays
  }
  total.series += scores.series
  total.mases.push(...scores.mases)
  total.covered += scores.covered
  total.days += scores.days
  console.log(
    `seed ${seed}: ${scores.series} series, MASE median ${median(scores.mases).toFixed(3)}, 80% interval coverage ${(scores.covered / scores.days).toFixed(3)}`,
  )
}
const mase = median(total.mases)
const coverage = total.covered / total.days
const maseMet = mase < TARGET_MASE
const coverageMet = coverage >= TARGET_COVERAGE[0] && coverage <= TARGET_COVERAGE[1]
console.log(
  `\nforecast over ${seeds.length} seeds, ${total.series} series, ${total.days} backtest days:\n` +
    `  MASE (median over series) ${mase.toFixed(3)}: target < ${TARGET_MASE}: ${maseMet ? 'met' : 'MISSED'}\n` +
    `  MASE below 1 in ${total.mases.filter((m) => m < 1).length} of ${total.mases.length} series\n` +
    `  80% interval coverage ${coverage.toFixed(3)}: target ${TARGET_COVERAGE.join('-')}: ${coverageMet ? 'met' : 'MISSED'}\n` +
    `targets: ${maseMet && coverageMet ? 'all met' : 'NOT all met'}`,
)
