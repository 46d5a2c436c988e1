import type uPlot from 'uplot'
import type { CostSeries } from '../../api'
import './preliminary.css'

const DAY_SECONDS = 86_400

/** The chart's days after the last settled one: still being restated, or not yet covered by every cost source. */
export function preliminaryFrom(series: CostSeries): string | null {
  const settled = series.settledThrough
  if (!settled || settled >= series.to) return null
  return settled < series.from ? series.from : nextDay(settled)
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + DAY_SECONDS * 1000).toISOString().slice(0, 10)
}

/**
 * Where the preliminary days lie over the plot, in CSS pixels of the chart's handles layer: from the middle between
 * the last settled day's point and the first preliminary one's, to the end of the chart's last day (`last`), or the
 * plot's end when it comes first (the days a forecast adds after it are not hatched).
 */
export function preliminaryBox(u: uPlot, first: string | null, last: string): { left: number; width: number } | null {
  if (!first) return null
  const x = Math.max(0, u.valToPos(Date.parse(`${first}T00:00:00Z`) / 1000 - DAY_SECONDS / 2, 'x'))
  const end = Math.min(u.over.clientWidth, u.valToPos(Date.parse(`${last}T00:00:00Z`) / 1000 + DAY_SECONDS, 'x'))
  const width = end - x
  return width > 0 ? { left: u.over.offsetLeft + x, width } : null
}

/** The hatched band over the preliminary days. */
export function PreliminaryDays(props: { box: { left: number; width: number } | null; first: string | null }) {
  if (!props.box || !props.first) return null
  return (
    <div
      class="preliminary-days"
      data-from={props.first}
      style={{ left: `${props.box.left}px`, width: `${props.box.width}px` }}
    />
  )
}

/** The legend's note on the preliminary days, when the chart shows some. */
export function PreliminaryNote(props: { first: string | null }) {
  if (!props.first) return null
  return (
    <p class="preliminary-note">
      <span class="preliminary-swatch" aria-hidden="true" />
      From {props.first}: preliminary, still being restated (not judged for anomalies yet).
    </p>
  )
}
