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
 * episode goes on through a day under the thresholds that still departs clearly (half the score) by about as much
 * (within half the change, in money or as a ratio): a resource added to a scope is a large change on a quiet
 * weekend and a small one on a busy weekday, but one change. An episode that lasts `shiftConfirmDays` is a level
 * shift: the history before it is moved by the episode's median change (a factor, or an amount added when that fits
 * days of unlike levels better), so the baseline follows the new level at once instead of raising an anomaly a day
 * until it catches up. A lasting change must agree with the baseline on every weekday, so:
 * - the shift moves each weekday of its episode that one change does not describe to that day's own level, and in
 *   the week after it is confirmed each other weekday settles on its own: back to its old level when the day shows
 *   it kept it, to the day's own level when it departs as the shift did or when it departs from the shift itself;
 * - a change that began quietly (days under the thresholds, departing alike) and then clears them on a quiet
 *   weekday is one episode from its first day, a shift when that run lasts `shiftConfirmDays`;
 * - a change on every other day goes on in the episode that ended a day or two before;
 * - a day that departs as the same weekday a week before did, when that day was held out of the history, is that
 *   weekday's new level: both return to the history as they were and raise nothing more.
 * - a week of days under the thresholds departing alike is a lasting change too small to raise: the history
 *   moves to it quietly, so what comes next is judged on the level the scope now has.
 * - a shift confirmed on days that held a spike (two or more of them far from the level of its first week) is
 *   taken again from that week once it exists and no episode is open, the days far from the level (the spike, an
 *   outage) standing at it, so it does not overshoot.
 * A shift that returns to the old level within four weeks was a long spike: the return raises nothing.
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
  /** The position in `adoptAt` of the known change the episode was adopted for, when it was. */
  knownAt?: number
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
/** How close two days' departures must be to be one change (see `sameChange`). */
const SAME_CHANGE = 0.5
/** How far back a lasting change that started quietly is looked for. */
const QUIET_RUN_DAYS = 13
/** A week of days under the thresholds departing alike is a lasting change too small to raise. */
const QUIET_SHIFT_DAYS = 7
/** A shift confirmed on its first days is re-fitted on the days after it once none is open, within two weeks. */
const REFIT_WITHIN_DAYS = 14

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

/**
 * Median of the first `n` entries of `buf` (reordered in place): insertion sort when n is small (a season's weeks),
 * else Hoare's selection, linear on average (the five weeks of a scale).
 */
function medianOf(buf: Float64Array, n: number): number {
  if (n <= 12) {
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
  const mid = n >> 1
  let lo = 0
  let hi = n - 1
  while (lo < hi) {
    const pivot = buf[(lo + hi) >> 1]!
    let i = lo
    let j = hi
    while (i <= j) {
      while (buf[i]! < pivot) i++
      while (buf[j]! > pivot) j--
      if (i <= j) {
        const x = buf[i]!
        buf[i] = buf[j]!
        buf[j] = x
        i++
        j--
      }
    }
    if (mid <= j) hi = j
    else if (mid >= i) lo = i
    else break
  }
  const upper = buf[mid]!
  if (n % 2 === 1) return upper
  // The lower middle is the largest of the entries before the middle, all of which are at most the upper one.
  let lower = buf[0]!
  for (let i = 1; i < mid; i++) if (buf[i]! > lower) lower = buf[i]!
  return (lower + upper) / 2
}

interface Episode {
  /** The anomaly this episode raised, its totals kept up to date day by day. */
  raised: DetectedAnomaly
  direction: 1 | -1
  start: number
  /** The scales at the episode's start, those of the level before it. */
  scales: Scales
  days: number
  /** The weekdays of its days, a bit each. */
  weekdays: number
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

/** A shift confirmed before a week of its new level existed, and the number of days it was confirmed on. */
interface Refit extends ConfirmedShift {
  days: number
}

/** A shift confirmed in the last week, the change it made and the weekdays seen at the new level so far. */
interface Settling extends ConfirmedShift {
  confirmedAt: number
  weekdays: number
  like: Departure
  direction: number
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

/**
 * The new level of a confirmed episode. A factor when the old level had costs to scale (weekly seasonality scales
 * with it), else an amount added (a resource that starts costing from nothing); and an amount added when it fits the
 * episode's days clearly better, as when a resource appears in a scope whose weekdays cost unlike amounts (a
 * database of 141 a day is +14% on a busy weekday and +26% on a quiet Saturday: no one factor says that).
 */
function shiftOf(episode: Episode, minImpact: number): Shift {
  const { actuals, expecteds } = episode
  const n = actuals.length
  const add = medianOf(
    Float64Array.from(actuals, (a, i) => a - expecteds[i]!),
    n,
  )
  if (!expecteds.every((e) => e >= minImpact)) return { start: episode.start, add }
  const factor = medianOf(
    Float64Array.from(actuals, (a, i) => a / expecteds[i]!),
    n,
  )
  // Days of one level cannot tell a factor from an amount added: the factor, as weekly seasonality scales.
  if (Math.max(...expecteds) < 1.25 * Math.min(...expecteds)) return { start: episode.start, factor }
  let byFactor = 0
  let byAdd = 0
  for (let i = 0; i < n; i++) {
    byFactor += Math.abs(actuals[i]! - expecteds[i]! * factor)
    byAdd += Math.abs(actuals[i]! - expecteds[i]! - add)
  }
  return byAdd < 0.8 * byFactor ? { start: episode.start, add } : { start: episode.start, factor }
}

/** How far a day departs from its expected cost: in money, and as a ratio (NaN when nothing was expected). */
interface Departure {
  add: number
  factor: number
}

const departureOf = (actual: number, base: number): Departure => ({
  add: actual - base,
  factor: base > 0 ? actual / base : Number.NaN,
})

/**
 * Two days of one lasting change depart the same way by about as much: within half the change, in money (a
 * resource added) or as a ratio (a level scaled), so a change the same in money on a busy and a quiet weekday and
 * one the same in proportion both hold together, while a spike and the usual days around it do not.
 */
function sameChange(actual: number, base: number, like: Departure, direction: number): boolean {
  const d = actual - base
  if (Math.sign(d) !== direction) return false
  if (Math.abs(d - like.add) <= SAME_CHANGE * Math.abs(like.add)) return true
  return (
    base > 0 &&
    Number.isFinite(like.factor) &&
    Math.abs(actual / base - like.factor) <= SAME_CHANGE * Math.abs(like.factor - 1)
  )
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

export function judgeSeries(series: ArrayLike<number>, options: JudgeOptions = {}): SeriesJudgement {
  const o = { ...DEFAULT_DETECTION, ...options }
  const n = Math.max(0, Math.min(series.length, (options.judgeThrough ?? series.length - 1) + 1))
  // Unsettled days are neither judged nor learnt from: the history ends with the last settled day.
  const values = n === series.length ? series : Float64Array.from({ length: n }, (_, i) => series[i]!)
  const cleaned = Float64Array.from(values as ArrayLike<number>)
  cleanHead(values, cleaned, o)
  const expected = new Float64Array(series.length).fill(Number.NaN)
  /** Each judged day's score, and the direction of the days held out of the history (at their expected cost). */
  const scores = new Float64Array(n)
  const held = new Int8Array(n)
  const anomalies: DetectedAnomaly[] = []
  const seasonBuf = new Float64Array(o.seasonWeeks)
  const diffBuf = new Float64Array(SCALE_WEEKS * 7)
  let episode: Episode | null = null
  let lastShift: ConfirmedShift | null = null
  /** The last unconfirmed episode that ended: a change seen on every other day may go on in it. */
  let recent: Episode | null = null
  /** A shift confirmed within the last week: each weekday not yet seen at its new level settles on its own. */
  let settling: Settling | null = null
  /** Days under the thresholds departing alike, in a row (see `quietRun`). */
  let run: { start: number; direction: number; like: Departure } | null = null
  /** No quiet run is looked for before this day: the level before it was adopted since. */
  let quietFrom = 0
  /** A shift confirmed before a week of its new level existed: re-fitted on that week (see `refitShift`). */
  let refit: Refit | null = null
  let scales: Scales = { money: 0, relative: 0 }
  let scaleAt = -1
  const adoptAt = options.adoptAt
  const departs = (t: number) => Math.abs(scores[t]!) >= o.scoreThreshold / 2

  /**
   * The position of the known change (`adoptAt`) an episode starting on `t` belongs to, or -1: one starting on that
   * day or the next (a removed resource's last day is often billed in part), or later when every day since departed
   * the same way, clearly though under the thresholds: a resource removed from a large scope may be a drop of 19% on
   * its first day and of 20% on the next, and the drop is the removal's all the same.
   */
  function knownAt(t: number, direction: number): number {
    if (adoptAt === undefined) return -1
    for (let i = t; i >= 0 && t - i <= QUIET_RUN_DAYS; i--) {
      if (i < t && (held[i] !== 0 || !departs(i) || Math.sign(scores[i]!) !== direction)) return -1
      if (adoptAt.has(i)) return i
      if (adoptAt.has(i - 1)) return i - 1
    }
    return -1
  }

  /** Day `i` joins the open episode: its totals, and held out of the history until the episode is confirmed. */
  function extend(ep: Episode, i: number): void {
    const base = expected[i]!
    const actual = values[i]!
    const deviation = actual - base
    ep.days++
    ep.weekdays |= 1 << (i % 7)
    ep.actuals.push(actual)
    ep.expecteds.push(base)
    const raised = ep.raised
    raised.end = i
    raised.totalExpected += base
    raised.totalActual += actual
    raised.totalImpact += deviation
    if (Math.abs(deviation) > Math.abs(raised.maxImpact)) raised.maxImpact = deviation
    if (Math.abs(scores[i]!) > Math.abs(raised.score)) raised.score = scores[i]!
    raised.severity = severityOf(
      raised.totalImpact,
      raised.totalExpected !== 0 ? (100 * raised.totalImpact) / Math.abs(raised.totalExpected) : 100,
      o.minImpact,
    )
    if (ep.shift !== null) return
    cleaned[i] = base
    held[i] = ep.direction
  }

  /**
   * The same weekday a week before departed the same way by about as much, and was held out: this weekday has a
   * new level (a change too small to judge on the other weekdays, or one that only some weekdays have). Its earlier
   * held-out weeks become history as they were, and the weeks before them move to the new level.
   */
  function adoptWeekday(t: number, direction: number, today: Departure): boolean {
    if (t < 7 || held[t - 7] !== direction || !sameChange(values[t - 7]!, expected[t - 7]!, today, direction)) {
      return false
    }
    let first = t
    for (let j = t - 7; j >= 0 && held[j] === direction; j -= 7) first = j
    const weeks = (t - first) / 7 + 1
    const ratios = new Float64Array(weeks)
    const deltas = new Float64Array(weeks)
    let byFactor = true
    for (let k = 0, j = first; j <= t; j += 7, k++) {
      const base = expected[j]!
      byFactor &&= base >= o.minImpact
      ratios[k] = values[j]! / base
      deltas[k] = values[j]! - base
    }
    const shift: Shift = byFactor
      ? { start: first, factor: medianOf(ratios, weeks) }
      : { start: first, add: medianOf(deltas, weeks) }
    for (let i = first - 7; i >= 0; i -= 7) cleaned[i] = applyShift(shift, cleaned[i]!)
    for (let j = first; j <= t; j += 7) {
      cleaned[j] = values[j]!
      held[j] = 0
    }
    scaleAt = -1
    return true
  }

  /**
   * The first time since a shift was confirmed that a weekday it was not seen on comes: if the day matches the old
   * level, that weekday kept it (a change on some weekdays only), so its history goes back to the old level; if it
   * departs from the old level as the shift did, in money or as a ratio, the weekday's history moves to the day's
   * own level (one factor cannot say a resource added to a busy weekday and to a quiet weekend). Else it is judged.
   */
  function settleWeekday(s: Settling, t: number): void {
    s.weekdays |= 1 << (t % 7)
    const old = baselineBefore(s, t, seasonBuf)
    if (Number.isNaN(old.base)) return
    const actual = values[t]!
    // Whichever level the day is nearer to: the old one, or the old one moved as the shift moved its days.
    const fromOld = Math.abs(actual - old.base)
    const byAdd = Math.abs(actual - old.base - s.like.add)
    const fromNew = Number.isFinite(s.like.factor)
      ? Math.min(byAdd, Math.abs(actual - old.base * s.like.factor))
      : byAdd
    const kept = fromOld < fromNew && fromOld <= o.scoreThreshold * old.spread
    if (!kept && !sameChange(actual, old.base, s.like, s.direction)) return
    const byFactor = !kept && old.base >= o.minImpact
    for (let i = t - 7; i >= 0; i -= 7) {
      if (i >= s.start) continue
      const before = s.history[i]!
      cleaned[i] = kept ? before : byFactor ? (before * actual) / old.base : before + actual - old.base
    }
    scaleAt = -1
  }

  /**
   * The first day of a lasting change that began quietly: the days before `t` that departed the same way by about
   * as much, each clearly (half the score threshold) though under the thresholds. A run of at least
   * `shiftConfirmDays` with `t` is the change's episode, from its first day; a shorter one is none.
   */
  function quietStart(t: number, direction: number, today: Departure): number {
    let start = t
    for (let i = t - 1; i >= Math.max(quietFrom, t - QUIET_RUN_DAYS); i--) {
      if (held[i] !== 0 || Number.isNaN(expected[i]!) || !departs(i)) break
      if (!sameChange(values[i]!, expected[i]!, today, direction)) break
      start = i
    }
    // A change began on the run's first day only if the day before it was usual: else the run is part of a
    // drift that began earlier (a quiet change not yet adopted), and today is judged on its own.
    const before = start - 1
    const drift =
      t - start >= QUIET_RUN_DAYS ||
      (before >= quietFrom && before >= 0 && held[before] === 0 && !Number.isNaN(expected[before]!) && departs(before))
    return t - start + 1 >= o.shiftConfirmDays && !drift ? start : t
  }

  /**
   * Days under the thresholds that all depart the same way by about as much, a week in a row: a lasting change too
   * small to raise (a resource removed from a large subscription). The history moves to it, raising nothing, so that
   * what comes next is judged on the level the scope now has.
   */
  function quietRun(t: number, deviation: number): void {
    const direction = Math.sign(deviation)
    if (!departs(t) || direction === 0) {
      run = null
      return
    }
    if (!run || run.direction !== direction || !sameChange(values[t]!, expected[t]!, run.like, direction)) {
      run = { start: t, direction, like: departureOf(values[t]!, expected[t]!) }
      return
    }
    if (t - run.start + 1 < QUIET_SHIFT_DAYS) return
    const days = t - run.start + 1
    const quiet: Episode = {
      raised: null as unknown as DetectedAnomaly,
      direction: direction as 1 | -1,
      start: run.start,
      scales,
      days,
      weekdays: 0,
      actuals: Array.from({ length: days }, (_, k) => values[run!.start + k]!),
      expecteds: Array.from({ length: days }, (_, k) => expected[run!.start + k]!),
      shift: null,
    }
    const shift = shiftOf(quiet, o.minImpact)
    for (let i = 0; i < run.start; i++) cleaned[i] = applyShift(shift, cleaned[i]!)
    run = null
    quietFrom = t + 1
    scaleAt = -1
  }

  /**
   * A shift confirmed on its first days is taken from a few days, and a spike among them (a resource added and a
   * burst on its second day) makes it overshoot: every usual day after would then look like a drop. Once a week of
   * the new level exists, the shift is taken again from the median change of that week's days over the old level,
   * the days departing clearly from it (the spike) standing at the level, and the history moved by the difference.
   */
  function refitShift(r: Refit, t: number): void {
    // The first week: the days after it may hold changes of their own.
    const days = Math.min(t - r.start, 7)
    const olds = new Float64Array(days)
    for (let k = 0; k < days; k++) {
      olds[k] = baselineBefore(r, r.start + k, seasonBuf).base
      if (Number.isNaN(olds[k]!)) return
    }
    // How far a day departs from a level, in units of its spread: a spike on top of the change, or an outage.
    const off = (k: number, shift: Shift) => {
      const predicted = applyShift(shift, olds[k]!)
      return Math.abs(values[r.start + k]! - predicted) / spreadOf(r.scales, predicted, 8)
    }
    // The median change, then again without the days far from it (a spike of two or three days in the week); as an
    // amount added, and as a factor when the old level had costs to scale and that fits the days as well.
    const fitLevel = (byFactor: boolean): { shift: Shift; kept: number[]; error: number } => {
      const shiftBy = (level: number): Shift =>
        byFactor ? { start: r.start, factor: level } : { start: r.start, add: level }
      const changeOf = (k: number) => (byFactor ? values[r.start + k]! / olds[k]! : values[r.start + k]! - olds[k]!)
      const ks = Array.from({ length: days }, (_, k) => k)
      const first = shiftBy(medianOf(Float64Array.from(ks, changeOf), days))
      const kept = ks.filter((k) => off(k, first) < o.scoreThreshold)
      const shift = kept.length > 0 ? shiftBy(medianOf(Float64Array.from(kept, changeOf), kept.length)) : first
      let error = 0
      for (const k of kept) error += Math.abs(values[r.start + k]! - applyShift(shift, olds[k]!))
      return { shift, kept, error }
    }
    const byAdd = fitLevel(false)
    const byFactor = olds.every((b) => b >= o.minImpact) ? fitLevel(true) : null
    // The fit that explains more of the week's days; of two that explain as many, the factor unless the amount fits
    // clearly better (as for the shift itself).
    const best =
      byFactor &&
      (byFactor.kept.length > byAdd.kept.length ||
        (byFactor.kept.length === byAdd.kept.length && !(byAdd.error < 0.8 * byFactor.error)))
        ? byFactor
        : byAdd
    // Only a shift whose confirmation days held such a spike is re-fitted: else the first fit (and the weekdays
    // settled since) stand.
    const kept = new Set(best.kept)
    let spiked = 0
    for (let k = 0; k < r.days; k++) if (!kept.has(k)) spiked++
    // The change's first day must hold, so that a change on some weekdays only (all its days above the week's
    // median) is not taken for a spike; a resource that starts from nothing has no old level to measure against.
    if (kept.size < 4 || spiked < 2 || !kept.has(0) || olds.every((b) => b < o.minImpact)) return
    const shift = best.shift
    for (let i = 0; i < r.start; i++) cleaned[i] = applyShift(shift, r.history[i]!)
    for (let k = 0; k < days; k++) {
      const i = r.start + k
      // A day far from the level stands at it, as any anomalous day stands at its expected cost (and one held out
      // by a later episode stays so); a day at the level, held out against the overshoot, is history again.
      if (!kept.has(k)) {
        cleaned[i] = applyShift(shift, olds[k]!)
        continue
      }
      held[i] = 0
      cleaned[i] = values[i]!
      // A weekday at a level of its own (a resource cheaper at weekends) keeps it, as on confirmation.
      if (off(k, shift) <= o.scoreThreshold / 2) continue
      for (let j = i - 7; j >= 0; j -= 7) {
        if (j >= r.start) continue
        cleaned[j] =
          olds[k]! >= o.minImpact ? (r.history[j]! * values[i]!) / olds[k]! : r.history[j]! + values[i]! - olds[k]!
      }
    }
    scaleAt = -1
  }

  for (let t = Math.max(o.minHistoryDays, 7); t < n; t++) {
    if (settling && t > settling.confirmedAt + 7) settling = null
    // Not while an episode is open (the shift's own, or a later outage whose days are held out): once it ends,
    // within a second week, or never.
    if (refit && t >= refit.start + 7 && episode === null) {
      refitShift(refit, t)
      refit = null
    } else if (refit && t >= refit.start + REFIT_WITHIN_DAYS) refit = null
    if (settling && (settling.weekdays & (1 << (t % 7))) === 0) settleWeekday(settling, t)
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
    scores[t] = score
    const percent = percentOf(deviation, base)
    const significant = Math.abs(score) >= o.scoreThreshold && (base === 0 || Math.abs(percent) >= o.minImpactPercent)
    // An open episode goes on while the day departs the same way, even by less than the minimum impact: a new
    // level just under it (a halved 48 a day) would otherwise end the episode each day and never be confirmed.
    const continues = episode !== null && Math.sign(deviation) === episode.direction
    const anomalous = significant && (Math.abs(deviation) >= o.minImpact || continues)
    // It also goes on through a day under the thresholds that departs clearly and by about as much as the episode:
    // a new resource is a large change on a quiet weekend and a small one on a busy weekday, but one change.
    const joins =
      !anomalous &&
      episode !== null &&
      episode.shift === null &&
      departs(t) &&
      sameChange(actual, base, shiftDeparture(episode), episode.direction)

    if (!anomalous && !joins) {
      if (episode?.shift === null) recent = episode
      episode = null
      quietRun(t, deviation)
      continue // cleaned[t] keeps the actual value
    }
    const direction: 1 | -1 = deviation > 0 ? 1 : -1
    run = null

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
      refit = null
      episode = null
      scaleAt = -1
      quietFrom = t + 1
      continue
    }

    let start = t
    if (episode === null || episode.direction !== direction) {
      const today = departureOf(actual, base)
      start = quietStart(t, direction, today)
      if (start === t && knownAt(t, direction) < 0 && adoptWeekday(t, direction, today)) {
        episode = null
        continue // the weekday's new level: cleaned[t] keeps the actual value
      }
      // A change on every other weekday: the episode that ended a day or two ago goes on.
      const prior = recent as Episode | null
      if (
        start === t &&
        prior !== null &&
        prior.direction === direction &&
        t - prior.raised.end <= 2 &&
        sameChange(actual, base, shiftDeparture(prior), direction)
      ) {
        episode = prior
      }
    }
    if (episode === null || episode.direction !== direction) {
      const raised: DetectedAnomaly = {
        index: start,
        end: start,
        ongoing: false,
        adopted: false,
        expected: expected[start]!,
        actual: values[start]!,
        impact: values[start]! - expected[start]!,
        impactPercent: percentOf(values[start]! - expected[start]!, expected[start]!),
        totalExpected: 0,
        totalActual: 0,
        totalImpact: 0,
        maxImpact: 0,
        score: scores[start]!,
        severity: 'Low',
      }
      anomalies.push(raised)
      episode = { raised, direction, start, scales, days: 0, actuals: [], expecteds: [], weekdays: 0, shift: null }
      for (let i = start; i < t; i++) extend(episode, i)
    }
    extend(episode, t)
    if (episode.shift !== null) {
      // A confirmed new level (keep the actual value) that this weekday, in the week after, does not follow: the
      // one shift does not describe it (a resource added that costs less at weekends), so it takes its own level.
      if (settling && settling.confirmedAt < t) {
        for (let j = t - 7; j >= 0; j -= 7) {
          cleaned[j] = base >= o.minImpact ? (cleaned[j]! * actual) / base : cleaned[j]! + actual - base
        }
        scaleAt = -1
      }
      continue
    }
    const known = knownAt(episode.start, episode.direction)
    const adopted = known >= 0
    if (adopted || episode.days >= o.shiftConfirmDays) {
      const raised = episode.raised
      raised.adopted = true
      if (adopted) raised.knownAt = known
      const shift = shiftOf(episode, o.minImpact)
      lastShift = { start: episode.start, history: cleaned.slice(0, episode.start), scales: episode.scales }
      settling = {
        ...lastShift,
        confirmedAt: t,
        weekdays: episode.weekdays,
        like: shiftDeparture(episode),
        direction: episode.direction,
      }
      const history = lastShift.history
      for (let i = 0; i < episode.start; i++) cleaned[i] = applyShift(shift, cleaned[i]!)
      for (let i = episode.start; i <= t; i++) {
        cleaned[i] = values[i]!
        held[i] = 0
        // A weekday of the episode that the one shift does not describe (a resource that is cheaper at weekends,
        // added to nothing) moves to its own level.
        const old = expected[i]!
        const predicted = applyShift(shift, old)
        if (Math.abs(values[i]! - predicted) <= (o.scoreThreshold / 2) * spreadOf(episode.scales, predicted, 8))
          continue
        for (let j = i - 7; j >= 0; j -= 7) {
          if (j >= episode.start) continue
          cleaned[j] = old >= o.minImpact ? (history[j]! * values[i]!) / old : history[j]! + values[i]! - old
        }
      }
      episode.shift = shift
      refit = t < episode.start + 6 ? { ...lastShift, days: episode.days } : null
      scaleAt = -1
      quietFrom = t + 1
      // A change someone expected is not a long spike to undo when it ends.
      if (adopted) lastShift = null
    }
  }
  const last = anomalies.at(-1)
  if (last && episode?.raised === last && last.end === n - 1) last.ongoing = true
  return { expected, anomalies }
}

/** A deviation in percent of the expected cost (100 when nothing was expected). */
function percentOf(deviation: number, base: number): number {
  return base !== 0 ? (100 * deviation) / Math.abs(base) : deviation === 0 ? 0 : 100 * Math.sign(deviation)
}

/** An open episode's departure so far: its median change in money and as a ratio. */
function shiftDeparture(episode: Episode): Departure {
  const { actuals, expecteds } = episode
  const n = actuals.length
  const add = medianOf(
    Float64Array.from(actuals, (a, i) => a - expecteds[i]!),
    n,
  )
  const factor = expecteds.every((e) => e > 0)
    ? medianOf(
        Float64Array.from(actuals, (a, i) => a / expecteds[i]!),
        n,
      )
    : Number.NaN
  return { add, factor }
}
