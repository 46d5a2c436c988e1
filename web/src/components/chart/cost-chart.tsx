import { useEffect, useRef, useState } from 'preact/hooks'
import uPlot from 'uplot'
import type { CostSeries, EventMarker } from '../../api'
import type { Anomaly } from '../../pages/anomalies/api'
import { onLinkClick } from '../../router'
import { formatInstant, formatMoney } from '../format'
import { type AnomalyDay, anomalyDays, SEVERITY_BANDS } from './anomaly-bands'
import { CATEGORY_COLOURS, markerTag } from './markers'
import { PreliminaryDays, PreliminaryNote, preliminaryBox, preliminaryFrom } from './preliminary'

const PALETTE = ['#2563eb', '#0d9488', '#d97706', '#9333ea', '#db2777', '#65a30d', '#0891b2', '#7c3aed']
/** Lines beyond these groups make the chart unreadable; the rest stay in the totals. */
const MAX_LINES = 6
const HEIGHT = 320

const dayToSeconds = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000
const instantToSeconds = (iso: string) => Date.parse(iso) / 1000
/** A day's point sits at its start: its band reaches half a day either side, to the neighbouring points' midpoints. */
const HALF_DAY = 43_200

function chartData(series: CostSeries): { labels: string[]; data: uPlot.AlignedData } {
  const xs = series.points.map((p) => dayToSeconds(p.date))
  const total = series.points.map((p) => p.cost)
  const groups = (series.groups ?? []).slice(0, MAX_LINES)
  const labels = ['Total', ...groups.map((g) => g.label || '(none)')]
  const columns = groups.map((g) => {
    const byDay = new Map(g.points.map((p) => [p.date, p.cost]))
    return series.points.map((p) => byDay.get(p.date) ?? 0)
  })
  return { labels, data: [xs, total, ...columns] }
}

interface Placed {
  marker: EventMarker
  left: number
}
interface PlacedDay {
  day: AnomalyDay
  left: number
  width: number
}

/**
 * Daily costs drawn by uPlot, the event markers as vertical lines in their category's colour on the canvas, and
 * above each line a focusable handle that shows the marker's title, description and tag on hover and on focus.
 * Days with anomalies are shaded in their severity's colour, with a link at the foot of the day that names them on
 * hover and focus and leads to the anomaly. `active` is a marker's id or an anomaly day's key.
 */
export function CostChart(props: {
  series: CostSeries
  anomalies?: Anomaly[]
  active: string | null
  onActivate(id: string | null): void
}) {
  const host = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot | null>(null)
  const activeRef = useRef(props.active)
  const [placed, setPlaced] = useState<Placed[]>([])
  const [placedDays, setPlacedDays] = useState<PlacedDay[]>([])
  // The chart is rebuilt when the anomalies shown change, not when the same ones arrive in a new array.
  const anomalyKey = (props.anomalies ?? []).map((a) => `${a.id}@${a.dateRaised}`).join()
  const [plotBox, setPlotBox] = useState({ top: 0, height: 0, width: 0 })
  const preliminary = preliminaryFrom(props.series)
  const [preliminaryAt, setPreliminaryAt] = useState<{ left: number; width: number } | null>(null)

  useEffect(() => {
    const element = host.current
    if (!element) return
    const { series } = props
    const { labels, data } = chartData(series)
    const days = anomalyDays(props.anomalies ?? [])
    const money = (v: number | null) => (v == null ? '–' : formatMoney(v, series.currency))

    const place = (u: uPlot) => {
      setPlotBox({ top: u.over.offsetTop, height: u.over.clientHeight, width: element.clientWidth })
      setPreliminaryAt(preliminaryBox(u, preliminaryFrom(series)))
      setPlaced(
        series.markers
          .map((marker) => ({ marker, x: u.valToPos(instantToSeconds(marker.occurredAt), 'x') }))
          .filter(({ x }) => x >= 0 && x <= u.over.clientWidth)
          .map(({ marker, x }) => ({ marker, left: u.over.offsetLeft + x })),
      )
      setPlacedDays(
        days
          .map((day) => {
            const start = Math.max(0, u.valToPos(dayToSeconds(day.date) - HALF_DAY, 'x'))
            const end = Math.min(u.over.clientWidth, u.valToPos(dayToSeconds(day.date) + HALF_DAY, 'x'))
            return { day, left: u.over.offsetLeft + start, width: end - start }
          })
          .filter(({ width }) => width > 0),
      )
    }
    // Under the grid and the lines: a band over each anomalous day, stronger while its link is active.
    const drawBands = (u: uPlot) => {
      const { ctx } = u
      ctx.save()
      for (const day of days) {
        const start = Math.max(u.bbox.left, u.valToPos(dayToSeconds(day.date) - HALF_DAY, 'x', true))
        const end = Math.min(u.bbox.left + u.bbox.width, u.valToPos(dayToSeconds(day.date) + HALF_DAY, 'x', true))
        const band = SEVERITY_BANDS[day.severity]
        ctx.fillStyle = activeRef.current === day.key ? band.active : band.fill
        ctx.fillRect(start, u.bbox.top, end - start, u.bbox.height)
      }
      ctx.restore()
    }
    const drawMarkers = (u: uPlot) => {
      const { ctx } = u
      ctx.save()
      for (const marker of series.markers) {
        const x = Math.round(u.valToPos(instantToSeconds(marker.occurredAt), 'x', true))
        ctx.strokeStyle = CATEGORY_COLOURS[marker.category]
        ctx.lineWidth = (activeRef.current === marker.id ? 3 : 1.5) * devicePixelRatio
        ctx.setLineDash(activeRef.current === marker.id ? [] : [6 * devicePixelRatio, 4 * devicePixelRatio])
        ctx.beginPath()
        ctx.moveTo(x, u.bbox.top)
        ctx.lineTo(x, u.bbox.top + u.bbox.height)
        ctx.stroke()
      }
      ctx.restore()
    }

    const options: uPlot.Options = {
      width: element.clientWidth,
      height: HEIGHT,
      // Each point is a whole UTC day: the last one runs to its end, where today's markers fall.
      scales: { x: { time: true, range: (_u, min, max) => [min, max + 86_400] } },
      series: [
        { label: 'Day', value: (_u, v) => (v == null ? '–' : new Date(v * 1000).toISOString().slice(0, 10)) },
        ...labels.map((label, i) => ({
          label,
          stroke: i === 0 ? '#1f2937' : (PALETTE[(i - 1) % PALETTE.length] ?? '#64748b'),
          width: i === 0 ? 2.5 : 1.5,
          value: (_u: uPlot, v: number | null) => money(v),
        })),
      ],
      axes: [
        { stroke: '#475569', grid: { stroke: '#e2e8f0' } },
        {
          stroke: '#475569',
          grid: { stroke: '#e2e8f0' },
          size: 64,
          values: (_u, splits) => axisLabels(splits),
        },
      ],
      hooks: { drawClear: [drawBands], draw: [drawMarkers], ready: [place], setSize: [place] },
    }
    const u = new uPlot(options, data, element)
    plot.current = u
    const resize = new ResizeObserver(() => {
      if (element.clientWidth !== u.width) u.setSize({ width: element.clientWidth, height: HEIGHT })
    })
    resize.observe(element)
    return () => {
      resize.disconnect()
      u.destroy()
      plot.current = null
    }
  }, [props.series, anomalyKey])

  useEffect(() => {
    activeRef.current = props.active
    plot.current?.redraw(false)
  }, [props.active])

  const active = placed.find((p) => p.marker.id === props.active)
  const activeDay = placedDays.find((p) => p.day.key === props.active)
  const listed = placedDays.length ? 'the markers and anomalies are' : 'the markers are'
  return (
    <div class="chart">
      <div ref={host} class="chart-canvas" role="img" aria-label={`Daily cost chart; ${listed} listed below it`} />
      <div class="marker-handles" style={{ top: `${plotBox.top}px`, height: `${plotBox.height}px` }}>
        <PreliminaryDays box={preliminaryAt} first={preliminary} />
        {placed.map(({ marker, left }) => (
          <button
            key={marker.id}
            type="button"
            class="marker-handle"
            style={{ left: `${left}px`, color: CATEGORY_COLOURS[marker.category] }}
            aria-label={`${marker.category} marker: ${marker.title}`}
            aria-describedby={props.active === marker.id ? 'marker-tooltip' : undefined}
            onMouseEnter={() => props.onActivate(marker.id)}
            onMouseLeave={() => props.onActivate(null)}
            onFocus={() => props.onActivate(marker.id)}
            onBlur={() => props.onActivate(null)}
            onKeyDown={(e) => e.key === 'Escape' && props.onActivate(null)}
          />
        ))}
        {placedDays.map(({ day, left, width }) => (
          <a
            key={day.key}
            href={`/anomalies/${day.anomalies[0]!.id}`}
            onClick={onLinkClick}
            class={`anomaly-handle severity-${day.severity.toLowerCase()}`}
            style={{ left: `${left}px`, width: `${width}px` }}
            aria-describedby={props.active === day.key ? 'anomaly-tooltip' : undefined}
            onMouseEnter={() => props.onActivate(day.key)}
            onMouseLeave={() => props.onActivate(null)}
            onFocus={() => props.onActivate(day.key)}
            onBlur={() => props.onActivate(null)}
            onKeyDown={(e) => e.key === 'Escape' && props.onActivate(null)}
          >
            <span class="anomaly-handle-text">{day.label}</span>
          </a>
        ))}
        {activeDay && (
          <div
            id="anomaly-tooltip"
            role="tooltip"
            class="marker-tooltip"
            style={
              activeDay.left > plotBox.width / 2
                ? { right: `${Math.max(0, plotBox.width - activeDay.left + 8)}px` }
                : { left: `${activeDay.left + activeDay.width + 8}px` }
            }
          >
            <strong>
              {activeDay.day.anomalies.length === 1 ? 'Anomaly' : `${activeDay.day.anomalies.length} anomalies`} on{' '}
              {activeDay.day.date}
            </strong>
            {activeDay.day.anomalies.slice(0, 3).map((a) => (
              <span key={a.id}>
                {a.severity}: {a.description}
              </span>
            ))}
            {activeDay.day.anomalies.length > 3 && (
              <span class="muted">and {activeDay.day.anomalies.length - 3} more; the link opens the first</span>
            )}
          </div>
        )}
        {active && (
          <div
            id="marker-tooltip"
            role="tooltip"
            class="marker-tooltip"
            style={
              active.left > plotBox.width / 2
                ? { right: `${Math.max(0, plotBox.width - active.left + 8)}px` }
                : { left: `${active.left + 8}px` }
            }
          >
            <strong>{active.marker.title}</strong>
            <span class="muted">
              {active.marker.category} · {formatInstant(active.marker.occurredAt)}
            </span>
            {active.marker.description && <span>{active.marker.description}</span>}
            {markerTag(active.marker) && <span class="muted">Tag {markerTag(active.marker)}</span>}
          </div>
        )}
      </div>
      <PreliminaryNote first={preliminary} />
    </div>
  )
}

/** Compact labels (1.5K) with as many decimals as it takes for neighbouring ticks never to read the same. */
function axisLabels(splits: number[]): string[] {
  for (let digits = 1; digits <= 3; digits++) {
    const format = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: digits })
    const labels = splits.map((v) => format.format(v))
    if (new Set(labels).size === labels.length) return labels
  }
  return splits.map((v) => new Intl.NumberFormat().format(v))
}
