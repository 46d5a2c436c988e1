import './forecast.css'
import type uPlot from 'uplot'

/** What the chart draws of a forecast: each day's expected cost and its 80% interval. */
export interface ForecastLine {
  points: { date: string; expected: number; lower: number; upper: number }[]
}

export const FORECAST_STROKE = '#7c3aed'
const BAND_FILL = 'rgba(124, 58, 237, 0.14)'

/** The forecast's expected cost on each of the chart's days (`days`), null before it begins. */
export function forecastColumn(forecast: ForecastLine, days: readonly string[]): (number | null)[] {
  const byDay = new Map(forecast.points.map((p) => [p.date, p.expected]))
  return days.map((d) => byDay.get(d) ?? null)
}

/** The 80% band under the lines: a polygon along the upper bounds and back along the lower ones. */
export function drawForecastBand(u: uPlot, forecast: ForecastLine, dayToSeconds: (day: string) => number) {
  if (forecast.points.length === 0) return
  const { ctx } = u
  const x = (p: ForecastLine['points'][number]) => u.valToPos(dayToSeconds(p.date), 'x', true)
  ctx.save()
  ctx.beginPath()
  ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height)
  ctx.clip()
  ctx.beginPath()
  forecast.points.forEach((p, i) => {
    const y = u.valToPos(p.upper, 'y', true)
    if (i === 0) ctx.moveTo(x(p), y)
    else ctx.lineTo(x(p), y)
  })
  for (const p of [...forecast.points].reverse()) ctx.lineTo(x(p), u.valToPos(p.lower, 'y', true))
  ctx.closePath()
  ctx.fillStyle = BAND_FILL
  ctx.fill()
  ctx.restore()
}
