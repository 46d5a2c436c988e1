/**
 * Anomaly detection over one daily cost series: pure arithmetic on a plain array, no I/O.
 *
 * For each day, once at least `minHistoryDays` of history exist:
 * - expected cost: the median of the same weekday over the previous `seasonWeeks` weeks, read from a *cleaned*
 *   history in which earlier anomalous days stand at their expected value, so one outlier never poisons the
 *   baseline;
 * - a robust score: the deviation from expected over a scale taken from the median absolute deviation of the
 *   week-over-week differences of the last five weeks (a spread that weekly seasonality does not inflate), in
 *   money and in proportion to the day's expected cost, whichever is larger (so quiet weekends do not deflate a
 *   busy weekday's spread);
 * - a day is anomalous when the score is at least `scoreThreshold` in either direction (spike or drop) and the
 *   deviation clears both minimum impacts, absolute and percent, so small wobbles and tiny series never count.
 *
 * Consecutive anomalous days in one direction are one episode and raise one anomaly, on its first day. An
 * episode that lasts `shiftConfirmDays` is a level shift: the history before it is moved by the episode's median
 * deviation, so the baseline follows the new level at once instead of raising an anomaly a day until it catches
 * up. A shift that returns to the old level within four weeks was a long spike: the return raises nothing.
 */

// The thresholds are settings (COSTWATCH_ANOMALY_*): their type and defaults live with the other settings.
import { DEFAULT_DETECTION, type DetectionOptions } from '../../config.js'

export { DEFAULT_DETECTION, type DetectionOptions }

/** Every severity, highest first: the one list the schemas, the reports and (through the document) the UI use. */
export const ANOMALY_SEVERITIES = ['High', 'Medium', 'Low'] as const
export type AnomalySeverity = (typeof ANOMALY_SEVERITIES)[number]

/**
 * One anomaly episode: consecutive anomalous days departing one way, raised once on its first day. `expected`,
 * `actual`, `impact` and `impactPercent` are the first day's; the totals are over the episode's days.
 */
export interface DetectedAnomaly {
  /** The first day's position in the series. */
  index: number
  /** The last anomalous day's position (the episode's last day so far when ongoing). */
  end: number
  /** The episode reaches the last judged day: it may go on. */
  ongoing: boolean
  /** The episode became the series' new level (a lasting change, or a change adopted through `adoptAt`). */
  adopted: boolean
  expected: number
  actual: number
  /** actual - expected: positive for a spike, negative for a drop. */
  impact: number
  /** impact in percent of expected (100 when nothing was expected). */
  impactPercent: number
  /** Sums over the episode's days. */
  totalExpected: number
  totalActual: number
  totalImpact: number
  /** The day's impact of largest size in the episode (signed). */
  maxImpact: number
  score: number
  /** From the episode's total impact. */
  severity: AnomalySeverity
}

/** What a caller knows about a series beyond its values. */
export interface JudgeOptions extends Partial<DetectionOptions> {
  /**
   * The last position that may be judged: later days are unsettled (a source's newest days, still restated) or not
   * covered, and are neither judged nor learnt from. Defaults to the last day.
   */
  judgeThrough?: number
  /**
   * Positions where a change is known to be expected (a person said so, or the resource was removed): an episode
   * starting on such a day, or the day after, becomes the new level at once.
   */
  adoptAt?: ReadonlySet<number>
}

export interface SeriesJudgement {
  /** The expected cost of every day (NaN before there is enough history). */
  expected: Float64Array
  anomalies: DetectedAnomaly[]
}

const MAD_TO_SIGMA = 1.4826
/** Week-over-week differences of two noisy days have √2 times the spread of one day. */
const DIFF_TO_DAY = 1 / Math.SQRT2
const SCALE_WEEKS = 5
/** Variance of the median of n normal samples, in units of σ²/n: π/2. */
const MEDIAN_VARIANCE = Math.PI / 2
const RETURN_WITHIN_DAYS = 28

/**
 * Severity from the impact, in units of the minimum impact: High from 10 times the minimum with at least 50%
 * change, Medium from 3 times, Low below.
 */
export function severityOf(impact: number, impactPercent: number, minImpact: number): AnomalySeverity {
  const size = Math.abs(impact) / minImpact
  if (size >= 10 && Math.abs(impactPercent) >= 50) return 'High'
  if (size >= 3) return 'Medium'
  return 'Low'
}

/** Median of the first `n` entries of `buf` (reordered in place); insertion sort, as n is small. */
function medianOf(buf: Float64Array, n: number): number {
  for (let i = 1; i < n; i++) {
    const v = buf[i]!
    let j = i - 1
    while (j >= 0 && buf[j]! > v) {
      buf[j + 1] = buf[j]!
      j--
    }
    buf[j + 1] = v
  }
  const mid = n >> 1
  return n % 2 === 1 ? buf[mid]! : (buf[mid - 1]! + buf[mid]!) / 2
}

interface Episode {
  /** The anomaly this episode raised, its totals kept up to date day by day. */
  raised: DetectedAnomaly
  direction: 1 | -1
  start: number
  /** The scales at the episode's start, those of the level before it. */
  scales: Scales
  days: number
  actuals: number[]
  expecteds: number[]
  shift: Shift | null
}

/**
 * A confirmed shift, with the cleaned history as it stood before it: a shift that turns out to be a long spike is
 * undone by restoring that history, which also works when the shift was to nothing (an outage at zero cost, whose
 * factor of 0 cannot be divided out).
 */
interface ConfirmedShift {
  start: number
  history: Float64Array
  scales: Scales
}

/** The spread of daily costs: in money, and in proportion to the day's cost (see `spreadOf`). */
interface Scales {
  money: number
  relative: number
}

/**
 * The spread of a day expected to cost `base`, judged on a baseline of `samples` days. Cost noise grows with the
 * day's cost: a busy weekday wobbles more, in money, than a quiet weekend, so the spread in money, pooled over
 * both, understates a weekday's; the spread in proportion to the expected cost gives it its due, and the spread in
 * money remains the floor (and the only measure near zero cost). The baseline is itself a median of `samples`
 * noisy days (its spread about 1.25 σ / √samples): a young series, judged on two or three weeks, must not read
 * the baseline's own error as the day's departure.
 */
function spreadOf(scales: Scales, base: number, samples: number): number {
  const day = Math.max(scales.money, scales.relative * Math.abs(base))
  return Math.max(day * Math.sqrt(1 + MEDIAN_VARIANCE / samples), 0.01 * Math.abs(base), 1e-6)
}

/**
 * A new level, as a factor on the old one when the old level had costs to scale (weekly seasonality scales with
 * it), else as an amount added (a resource that starts costing from nothing).
 */
type Shift = { start: number; factor: number } | { start: number; add: number }

function applyShift(shift: Shift, value: number): number {
  return 'factor' in shift ? value * shift.factor : value + shift.add
}

/**
 * The expected cost of day `t` from the history before a shift (the median of its weekdays before the shift), and
 * the spread of that day at the old level.
 */
function baselineBefore(shift: ConfirmedShift, t: number, buf: Float64Array): { base: number; spread: number } {
  let samples = 0
  for (let i = t - 7; i >= 0 && samples < buf.length; i -= 7) if (i < shift.start) buf[samples++] = shift.history[i]!
  if (samples === 0) return { base: Number.NaN, spread: Number.NaN }
  const base = medianOf(buf, samples)
  return { base, spread: spreadOf(shift.scales, base, samples) }
}

function shiftOf(episode: Episode, minImpact: number): Shift {
  const n = episode.actuals.length
  if (episode.expecteds.every((e) => e >= minImpact)) {
    const ratios = Float64Array.from(episode.actuals, (a, i) => a / episode.expecteds[i]!)
    return { start: episode.start, factor: medianOf(ratios, n) }
  }
  const deltas = Float64Array.from(episode.actuals, (a, i) => a - episode.expecteds[i]!)
  return { start: episode.start, add: medianOf(deltas, n) }
}

/**
 * The days before any can be judged have no baseline of their own; an outlier among them would poison the first
 * weeks' medians. Each is compared with the same weekday up to three weeks either side instead.
 */
function cleanHead(values: ArrayLike<number>, cleaned: Float64Array, o: DetectionOptions): void {
  const n = values.length
  const head = Math.min(n, o.minHistoryDays)
  const diffs = new Float64Array(Math.max(0, Math.min(n, SCALE_WEEKS * 7) - 7))
  for (let i = 7; i < 7 + diffs.length; i++) diffs[i - 7] = values[i]! - values[i - 7]!
  const m = diffs.length
  if (m === 0) return
  const centre = medianOf(diffs, m)
  for (let i = 0; i < m; i++) diffs[i] = Math.abs(diffs[i]! - centre)
  const scale = MAD_TO_SIGMA * DIFF_TO_DAY * medianOf(diffs, m)
  const around = new Float64Array(6)
  for (let i = 0; i < head; i++) {
    let k = 0
    for (const j of [i - 21, i - 14, i - 7, i + 7, i + 14, i + 21]) if (j >= 0 && j < n) around[k++] = values[j]!
    if (k < 3) continue // two could be one usual day and one outlier: no majority
    const reference = medianOf(around, k)
    const deviation = values[i]! - reference
    const spread = Math.max(scale, 0.01 * Math.abs(reference), 1e-6)
    if (Math.abs(deviation) / spread >= o.scoreThreshold && Math.abs(deviation) >= o.minImpact) cleaned[i] = reference
  }
}

/**
 * The spread of a day in proportion to its cost: the median absolute deviation of the week-over-week changes of
 * the last five weeks, each in proportion to the mean of the two days it compares (days without cost are left out).
 */
function relativeScaleOf(cleaned: Float64Array, t: number, buf: Float64Array): number {
  let m = 0
  for (let i = Math.max(7, t - SCALE_WEEKS * 7); i < t; i++) {
    const level = (Math.abs(cleaned[i]!) + Math.abs(cleaned[i - 7]!)) / 2
    if (level > 0) buf[m++] = (cleaned[i]! - cleaned[i - 7]!) / level
  }
  if (m === 0) return 0
  const centre = medianOf(buf, m)
  for (let i = 0; i < m; i++) buf[i] = Math.abs(buf[i]! - centre)
  return MAD_TO_SIGMA * DIFF_TO_DAY * medianOf(buf, m)
}

/** Judges every day of `values` (one per consecutive UTC day); see the module comment for the method. */
export function judgeSeries(series: ArrayLike<number>, options: JudgeOptions = {}): SeriesJudgement {
  const o = { ...DEFAULT_DETECTION, ...options }
  const n = Math.max(0, Math.min(series.length, (options.judgeThrough ?? series.length - 1) + 1))
  // Unsettled days are neither judged nor learnt from: the history ends with the last settled day.
  const values = n === series.length ? series : Float64Array.from({ length: n }, (_, i) => series[i]!)
  const cleaned = Float64Array.from(values as ArrayLike<number>)
  cleanHead(values, cleaned, o)
  const expected = new Float64Array(series.length).fill(Number.NaN)
  const anomalies: DetectedAnomaly[] = []
  const seasonBuf = new Float64Array(o.seasonWeeks)
  const diffBuf = new Float64Array(SCALE_WEEKS * 7)
  let episode: Episode | null = null
  let lastShift: ConfirmedShift | null = null
  let scales: Scales = { money: 0, relative: 0 }
  let scaleAt = -1
  const adoptAt = options.adoptAt
  const isAdopted = (t: number) => adoptAt !== undefined && (adoptAt.has(t) || adoptAt.has(t - 1))

  for (let t = Math.max(o.minHistoryDays, 7); t < n; t++) {
    let samples = 0
    for (let k = 1; k <= o.seasonWeeks && t - 7 * k >= 0; k++) seasonBuf[samples++] = cleaned[t - 7 * k]!
    const base = medianOf(seasonBuf, samples)
    expected[t] = base
    // The scale moves slowly; recomputing it weekly (and after a shift) keeps detection linear and cheap.
    if (scaleAt < 0 || t - scaleAt >= 7) {
      let m = 0
      for (let i = Math.max(7, t - SCALE_WEEKS * 7); i < t; i++) diffBuf[m++] = cleaned[i]! - cleaned[i - 7]!
      const centre = medianOf(diffBuf, m)
      for (let i = 0; i < m; i++) diffBuf[i] = Math.abs(diffBuf[i]! - centre)
      const money = MAD_TO_SIGMA * DIFF_TO_DAY * medianOf(diffBuf, m)
      scales = { money, relative: relativeScaleOf(cleaned, t, diffBuf) }
      scaleAt = t
    }
    const actual = values[t]!
    const deviation = actual - base
    const spread = spreadOf(scales, base, samples)
    const score = deviation / spread
    const percent = base !== 0 ? (100 * deviation) / Math.abs(base) : deviation === 0 ? 0 : 100 * Math.sign(deviation)
    const significant = Math.abs(score) >= o.scoreThreshold && (base === 0 || Math.abs(percent) >= o.minImpactPercent)
    // An open episode goes on while the day departs the same way, even by less than the minimum impact: a new
    // level just under it (a halved 48 a day) would otherwise end the episode each day and never be confirmed.
    const continues = episode !== null && Math.sign(deviation) === episode.direction
    const anomalous = significant && (Math.abs(deviation) >= o.minImpact || continues)

    if (!anomalous) {
      episode = null
      continue // cleaned[t] keeps the actual value
    }
    const direction: 1 | -1 = deviation > 0 ? 1 : -1

    // The end of a long spike: back to the level before the shift it looked like. Undo that shift. The old level
    // is judged in its own units: after a drop to a tenth, today's spread is a tenth of the old level's.
    const old = lastShift && t - lastShift.start <= RETURN_WITHIN_DAYS ? baselineBefore(lastShift, t, seasonBuf) : null
    if (
      lastShift &&
      old &&
      (episode === null || episode.shift !== null) &&
      Math.abs(actual - old.base) <= Math.max(o.scoreThreshold * old.spread, o.minImpact)
    ) {
      cleaned.set(lastShift.history)
      // The days of the long spike stand at the old level, as any anomalous day stands at its expected value.
      for (let i = lastShift.start; i < t; i++) cleaned[i] = baselineBefore(lastShift, i, seasonBuf).base
      lastShift = null
      episode = null
      scaleAt = -1
      continue
    }

    if (episode === null || episode.direction !== direction) {
      const raised: DetectedAnomaly = {
        index: t,
        end: t,
        ongoing: false,
        adopted: false,
        expected: base,
        actual,
        impact: deviation,
        impactPercent: percent,
        totalExpected: 0,
        totalActual: 0,
        totalImpact: 0,
        maxImpact: 0,
        score,
        severity: 'Low',
      }
      anomalies.push(raised)
      episode = { raised, direction, start: t, scales, days: 0, actuals: [], expecteds: [], shift: null }
    }
    episode.days++
    episode.actuals.push(actual)
    episode.expecteds.push(base)
    const raised = episode.raised
    raised.end = t
    raised.totalExpected += base
    raised.totalActual += actual
    raised.totalImpact += deviation
    if (Math.abs(deviation) > Math.abs(raised.maxImpact)) raised.maxImpact = deviation
    if (Math.abs(score) > Math.abs(raised.score)) raised.score = score
    raised.severity = severityOf(
      raised.totalImpact,
      raised.totalExpected !== 0 ? (100 * raised.totalImpact) / Math.abs(raised.totalExpected) : 100,
      o.minImpact,
    )
    if (episode.shift !== null) continue // a confirmed new level: keep the actual value
    cleaned[t] = base
    const adopted = isAdopted(episode.start)
    if (adopted || episode.days >= o.shiftConfirmDays) {
      raised.adopted = true
      const shift = shiftOf(episode, o.minImpact)
      lastShift = { start: episode.start, history: cleaned.slice(0, episode.start), scales: episode.scales }
      for (let i = 0; i < episode.start; i++) cleaned[i] = applyShift(shift, cleaned[i]!)
      for (let i = episode.start; i <= t; i++) cleaned[i] = values[i]!
      episode.shift = shift
      scaleAt = -1
      // A change someone expected is not a long spike to undo when it ends.
      if (adopted) lastShift = null
    }
  }
  const last = anomalies.at(-1)
  if (last && episode?.raised === last && last.end === n - 1) last.ongoing = true
  return { expected, anomalies }
}
