import { useEffect, useRef, useState } from 'preact/hooks'
import uPlot from 'uplot'
import type { CostSeries, EventMarker } from '../../api'
import { type Anomaly, scopeLabel } from '../../pages/anomalies/api'
import { episodeText, signedMoney } from '../../pages/anomalies/incidents'
import { onLinkClick } from '../../router'
import { formatInstant, formatMoney } from '../format'
import { type AnomalyMark, activatedBy, anomalyMarks, incidentSize, markLabel, SEVERITY_BANDS } from './anomaly-bands'
import { PACE_STROKE, type PacedBudget, paceColumn } from './budget-pace'
import { drawForecastBand, FORECAST_STROKE, type ForecastLine, forecastColumn } from './forecast'
import { CATEGORY_COLOURS, markerTag } from './markers'
import { PreliminaryDays, PreliminaryNote, preliminaryBox, preliminaryFrom } from './preliminary'

const PALETTE = ['#2563eb', '#0d9488', '#d97706', '#9333ea', '#db2777', '#65a30d', '#0891b2', '#7c3aed']
/** Lines beyond these groups make the chart unreadable; the rest stay in the totals. */
const MAX_LINES = 6
const HEIGHT = 320
/** The height of a row of incident links at the chart's foot (anomalies.css's handle, and a gap). */
const LANE_HEIGHT = 24

const dayToSeconds = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000
const instantToSeconds = (iso: string) => Date.parse(iso) / 1000
/** A day's point sits at its start: its band reaches half a day either side, to the neighbouring points' midpoints. */
const HALF_DAY = 43_200

/** The name of a budget's pace line in the chart's legend. */
export const paceLabel = (budget: PacedBudget) => `Budget pace: ${budget.name}`

/**
 * The chart's columns: the days of the series, then the forecast's days after them (where the costs' lines have no
 * value), the total, each group shown, the forecast's expected cost, then each budget's daily pace. `kinds` says
 * what each line after the days is.
 */
function chartData(
  series: CostSeries,
  forecast: ForecastLine | null,
  budgets: readonly PacedBudget[],
): { labels: string[]; kinds: ('cost' | 'forecast' | 'pace')[]; data: uPlot.AlignedData } {
  const days = series.points.map((p) => p.date)
  const ahead = forecast ? forecast.points.map((p) => p.date).filter((d) => d > series.to) : []
  const all = [...days, ...ahead]
  const xs = all.map(dayToSeconds)
  const pad = ahead.map(() => null)
  const total = [...series.points.map((p) => p.cost), ...pad]
  const groups = (series.groups ?? []).slice(0, MAX_LINES)
  const labels = ['Total', ...groups.map((g) => g.label || '(none)')]
  const kinds: ('cost' | 'forecast' | 'pace')[] = labels.map(() => 'cost')
  const columns = groups.map((g) => {
    const byDay = new Map(g.points.map((p) => [p.date, p.cost]))
    return [...series.points.map((p) => byDay.get(p.date) ?? 0), ...pad]
  })
  const extra: (number | null)[][] = []
  if (forecast) {
    labels.push('Forecast')
    kinds.push('forecast')
    extra.push(forecastColumn(forecast, all))
  }
  for (const budget of budgets) {
    labels.push(paceLabel(budget))
    kinds.push('pace')
    extra.push(paceColumn(budget, all))
  }
  return { labels, kinds, data: [xs, total, ...columns, ...extra] }
}

interface Placed {
  marker: EventMarker
  left: number
}
interface PlacedMark {
  mark: AnomalyMark
  left: number
  width: number
}

/**
 * Daily costs drawn by uPlot, the event markers as vertical lines in their category's colour on the canvas, and
 * above each line a focusable handle that shows the marker's title, description and tag on hover and on focus.
 * Each incident (the anomalies one change explains) shades its episode's days in its severity's colour, with one
 * link at the foot of the band that says the episode and the incident's size on hover and focus and leads to the
 * incident's head. `active` is a marker's id or an incident mark's key.
 */
export function CostChart(props: {
  series: CostSeries
  /** The total's forecast, drawn dashed with its 80% band after the last settled day. */
  forecast?: ForecastLine | null
  /** Budgets of the chart's scope and currency: each one's daily pace, a thin line (see budget-pace.ts). */
  budgets?: readonly PacedBudget[]
  anomalies?: Anomaly[]
  active: string | null
  onActivate(id: string | null): void
}) {
  const host = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot | null>(null)
  const activeRef = useRef(props.active)
  const [placed, setPlaced] = useState<Placed[]>([])
  const [placedMarks, setPlacedMarks] = useState<PlacedMark[]>([])
  // The chart is rebuilt when the anomalies shown change, not when the same ones arrive in a new array.
  const anomalyKey = (props.anomalies ?? []).map((a) => `${a.id}@${a.episode.lastDay}:${a.incidentId}`).join()
  // Rebuilt when the budgets drawn change (a new array of the same budgets changes nothing).
  const budgetKey = JSON.stringify(props.budgets ?? [])
  const [plotBox, setPlotBox] = useState({ top: 0, height: 0, width: 0 })
  const preliminary = preliminaryFrom(props.series)
  const [preliminaryAt, setPreliminaryAt] = useState<{ left: number; width: number } | null>(null)

  useEffect(() => {
    const element = host.current
    if (!element) return
    const { series } = props
    const forecast = props.forecast ?? null
    const budgets = props.budgets ?? []
    const { labels, kinds, data } = chartData(series, forecast, budgets)
    const marks = anomalyMarks(props.anomalies ?? [])
    // A mark's band runs from half a day before its first point to half a day after its last, within the plot.
    const span = (u: uPlot, mark: AnomalyMark, canvas: boolean) => {
      const [min, max] = canvas ? [u.bbox.left, u.bbox.left + u.bbox.width] : [0, u.over.clientWidth]
      return [
        Math.max(min, u.valToPos(dayToSeconds(mark.start) - HALF_DAY, 'x', canvas)),
        Math.min(max, u.valToPos(dayToSeconds(mark.lastDay) + HALF_DAY, 'x', canvas)),
      ] as const
    }
    const money = (v: number | null) => (v == null ? '–' : formatMoney(v, series.currency))

    const place = (u: uPlot) => {
      setPlotBox({ top: u.over.offsetTop, height: u.over.clientHeight, width: element.clientWidth })
      setPreliminaryAt(preliminaryBox(u, preliminaryFrom(series), series.to))
      setPlaced(
        series.markers
          .map((marker) => ({ marker, x: u.valToPos(instantToSeconds(marker.occurredAt), 'x') }))
          .filter(({ x }) => x >= 0 && x <= u.over.clientWidth)
          .map(({ marker, x }) => ({ marker, left: u.over.offsetLeft + x })),
      )
      setPlacedMarks(
        marks
          .map((mark) => {
            const [start, end] = span(u, mark, false)
            return { mark, left: u.over.offsetLeft + start, width: end - start }
          })
          .filter(({ width }) => width > 0),
      )
    }
    // Under the grid and the lines: a band over each incident's days, stronger while its link is active.
    const drawBands = (u: uPlot) => {
      const { ctx } = u
      ctx.save()
      for (const mark of marks) {
        const [start, end] = span(u, mark, true)
        const band = SEVERITY_BANDS[mark.severity]
        ctx.fillStyle = activeRef.current === mark.key ? band.active : band.fill
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
      scales: {
        x: { time: true, range: (_u, min, max) => [min, max + 86_400] },
        // The forecast's band counts in the height, so its upper bound is never cut off.
        ...(forecast?.points.length
          ? {
              y: {
                range: (_u: uPlot, min: number, max: number) =>
                  uPlot.rangeNum(Math.min(0, min), Math.max(max, ...forecast.points.map((p) => p.upper)), 0.1, true),
              },
            }
          : {}),
      },
      series: [
        { label: 'Day', value: (_u, v) => (v == null ? '–' : new Date(v * 1000).toISOString().slice(0, 10)) },
        ...labels.map((label, i) =>
          kinds[i] === 'forecast'
            ? {
                label,
                stroke: FORECAST_STROKE,
                width: 2,
                dash: [6, 4],
                value: (_u: uPlot, v: number | null) => money(v),
              }
            : kinds[i] === 'pace'
              ? {
                  label,
                  stroke: PACE_STROKE,
                  width: 1,
                  dash: [2, 3],
                  points: { show: false },
                  value: (_u: uPlot, v: number | null) => (v == null ? '–' : `${money(v)}/day`),
                }
              : {
                  label,
                  stroke: i === 0 ? '#1f2937' : (PALETTE[(i - 1) % PALETTE.length] ?? '#64748b'),
                  width: i === 0 ? 2.5 : 1.5,
                  value: (_u: uPlot, v: number | null) => money(v),
                },
        ),
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
      hooks: {
        drawClear: [drawBands, (u) => forecast && drawForecastBand(u, forecast, dayToSeconds)],
        draw: [drawMarkers],
        ready: [place],
        setSize: [place],
      },
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
  }, [props.series, props.forecast, anomalyKey, budgetKey])

  useEffect(() => {
    activeRef.current = props.active
    plot.current?.redraw(false)
  }, [props.active])

  const active = placed.find((p) => p.marker.id === props.active)
  const activeMark = placedMarks.find((p) => p.mark.key === props.active)
  const listed = placedMarks.length ? 'the markers and anomalies are' : 'the markers are'
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
            {...activatedBy(marker.id, props.onActivate)}
          />
        ))}
        {placedMarks.map(({ mark, left, width }) => (
          <a
            key={mark.key}
            href={`/anomalies/${mark.incident.head.id}`}
            onClick={onLinkClick}
            class={`anomaly-handle severity-${mark.severity.toLowerCase()}`}
            style={{ left: `${left}px`, width: `${width}px`, bottom: `${mark.lane * LANE_HEIGHT}px` }}
            aria-describedby={props.active === mark.key ? 'anomaly-tooltip' : undefined}
            {...activatedBy(mark.key, props.onActivate)}
          >
            <span class="anomaly-handle-text">{markLabel(mark)}</span>
          </a>
        ))}
        {activeMark && <IncidentTooltip placed={activeMark} plotWidth={plotBox.width} />}
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

/** What an incident's mark says on hover and focus: its episode, its size, its head and the others' scopes. */
function IncidentTooltip({ placed, plotWidth }: { placed: PlacedMark; plotWidth: number }) {
  const { incident } = placed.mark
  const { head, members } = incident
  const size = incidentSize(incident)
  return (
    <div
      id="anomaly-tooltip"
      role="tooltip"
      class="marker-tooltip"
      style={
        placed.left > plotWidth / 2
          ? { right: `${Math.max(0, plotWidth - placed.left + 8)}px` }
          : { left: `${placed.left + placed.width + 8}px` }
      }
    >
      <strong>
        {size ? `${size.charAt(0).toUpperCase()}${size.slice(1)}` : 'Anomaly'} {episodeText(head.episode)}
      </strong>
      <span>
        {head.severity}: {head.description}
      </span>
      <span class="muted">
        Total impact {signedMoney(head.episode.totalImpact, head.currency)} over{' '}
        {head.episode.days === 1 ? '1 day' : `${head.episode.days} days`}
      </span>
      {members.length > 0 && (
        <span class="muted">
          Also on{' '}
          {members
            .slice(0, 3)
            .map((a) => scopeLabel(a.scope))
            .join(', ')}
          {members.length > 3 ? ` and ${members.length - 3} more` : ''}
        </span>
      )}
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
