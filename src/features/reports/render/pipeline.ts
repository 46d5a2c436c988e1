import { join } from 'node:path'
import { daysBetween } from '../../../platform/time.js'
import { largest } from '../kinds/resources.js'
import type { ReportData, Row } from '../kinds/types.js'
import type { RunPreview } from '../store.js'
import { csvRenderer } from './csv.js'
import {
  FORMATS,
  type Format,
  PDF_MAX_ROWS,
  type RendererInput,
  type ReportHeading,
  type StreamingRenderer,
  type Totals,
} from './document.js'

/** Rows a run keeps for the API (GET of a run); past them, `truncated`. */
export const PREVIEW_ROWS = 10_000

/** A renderer failed: what the run records, naming the format. Rendering the same rows again would fail again. */
export class RenderError extends Error {
  constructor(
    readonly format: Format,
    override readonly cause: unknown,
  ) {
    super(
      `The ${format.toUpperCase()} file could not be rendered: ${cause instanceof Error ? cause.message : String(cause)}`,
    )
  }
}

/** Opens the file of a streamed format and returns its renderer once it has written the header. */
export type OpenRenderer = (path: string, input: RendererInput) => Promise<StreamingRenderer>

/** The formats written as the rows come, and how each is opened. */
export const STREAMING_RENDERERS: Record<'csv' | 'xlsx', OpenRenderer> = {
  async csv(path, input) {
    const renderer = csvRenderer(path, input)
    await renderer.ready
    return renderer
  },
  // exceljs is loaded by the worker that renders, not by every process that lists reports.
  xlsx: async (path, input) => (await import('./xlsx.js')).xlsxRenderer(path, input),
}

export interface RenderedRun {
  rowCount: number
  totals: Totals
  preview: RunPreview
  /** The file of each format, in `dir`. */
  files: Record<Format, string>
}

async function as<T>(format: Format, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    throw new RenderError(format, err)
  }
}

/**
 * Renders a run's three files in one pass over its rows: CSV and XLSX are written as the batches come, the PDF
 * from what is kept on the way (its first rows and the largest ones, both bounded), so memory does not grow with
 * the number of rows. `series` is the chart's daily totals.
 */
export async function renderRun(input: {
  data: ReportData
  heading: ReportHeading
  series: { date: string; currency: string; cost: number }[]
  dir: string
  /** Called every 10,000 rows (the run's progress). */
  onRows?(count: number): void
  /** The formats to render: all by default (a benchmark measures them one at a time). */
  formats?: readonly Format[]
  /** Replaces the renderer of a streamed format (the run kind passes what it was given: a failing one in tests). */
  renderers?: Partial<typeof STREAMING_RENDERERS>
}): Promise<RenderedRun> {
  const wanted = new Set(input.formats ?? (Object.keys(FORMATS) as Format[]))
  const { data, heading, dir } = input
  const files = Object.fromEntries(
    (Object.keys(FORMATS) as Format[]).map((f) => [f, join(dir, `report.${FORMATS[f].extension}`)]),
  ) as Record<Format, string>
  const rendererInput = {
    heading,
    columns: data.columns,
    amountColumn: data.amountColumn,
    currencyColumn: data.currencyColumn,
  }
  const open = { ...STREAMING_RENDERERS, ...input.renderers }
  const opened: StreamingRenderer[] = []
  try {
    const csv = wanted.has('csv') ? await as('csv', () => open.csv(files.csv, rendererInput)) : null
    if (csv) opened.push(csv)
    const xlsx = wanted.has('xlsx') ? await as('xlsx', () => open.xlsx(files.xlsx, rendererInput)) : null
    if (xlsx) opened.push(xlsx)
    return await renderRows(input, { files, rendererInput, wanted, csv, xlsx })
  } catch (err) {
    // Whatever failed, no file stays open behind the run (the caller throws the folder away).
    for (const renderer of opened) renderer.abandon?.()
    throw err
  }
}

/** The one pass over the rows, into the opened renderers, then the PDF from what was kept on the way. */
async function renderRows(
  input: Parameters<typeof renderRun>[0],
  opened: {
    files: Record<Format, string>
    rendererInput: RendererInput
    wanted: ReadonlySet<Format>
    csv: StreamingRenderer | null
    xlsx: StreamingRenderer | null
  },
): Promise<RenderedRun> {
  const { data, heading } = input
  const { files, rendererInput, wanted, csv, xlsx } = opened

  const amountOf = (row: Row) => Number(row[data.amountColumn] ?? 0)
  const first: Row[] = []
  const preview: Row[] = []
  const biggest = largest<{ cost: number; row: Row; at: number }>(PDF_MAX_ROWS, (a, b) => a.at - b.at)
  const totals: Totals = new Map()
  let rowCount = 0
  let reported = 0
  for await (const batch of data.rows) {
    if (csv) await as('csv', () => csv.write(batch))
    if (xlsx) await as('xlsx', () => xlsx.write(batch))
    const ranked: { cost: number; row: Row; at: number }[] = []
    for (const row of batch) {
      const currency = String(row[data.currencyColumn] ?? '')
      totals.set(currency, (totals.get(currency) ?? 0) + amountOf(row))
      if (preview.length < PREVIEW_ROWS) preview.push(row)
      if (first.length <= PDF_MAX_ROWS) first.push(row)
      ranked.push({ cost: amountOf(row), row, at: rowCount })
      rowCount++
    }
    biggest.add(ranked)
    // A turn of the event loop per batch: the SQLite driver is synchronous, and without it the file writes
    // (finishing on the event loop) fall behind, their buffers growing with the rows.
    await new Promise((resolve) => setImmediate(resolve))
    if (rowCount - reported >= 10_000) {
      reported = rowCount
      input.onRows?.(rowCount)
    }
  }
  for (const [currency, total] of totals) totals.set(currency, Math.round(total * 100) / 100)
  if (csv) await as('csv', () => csv.end(totals, rowCount))
  if (xlsx) await as('xlsx', () => xlsx.end(totals, rowCount))

  const main = [...totals.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null
  const summarised = rowCount > PDF_MAX_ROWS
  // pdfkit is loaded by the worker that renders, not by every process that lists reports.
  if (wanted.has('pdf'))
    await as('pdf', async () =>
      (await import('./pdf.js')).renderPdf(files.pdf, rendererInput, {
        rows: summarised ? biggest.result().map((r) => r.row) : first,
        summarisedFrom: summarised ? rowCount : null,
        totals,
        series: data.pdf?.chart === false ? [] : fullSeries(input.series, main, heading.period.from, heading.period.to),
        seriesCurrency: main,
        share: data.pdf?.share !== false,
        noRows: data.pdf?.noRows ?? 'No costs were recorded in this period for this scope.',
      }),
    )
  return {
    rowCount,
    totals,
    files,
    preview: { columns: data.columns.map((c) => c.title), rows: preview, truncated: rowCount > PREVIEW_ROWS },
  }
}

/** Every day of the period with the currency's cost, 0 where nothing was billed. */
function fullSeries(
  points: { date: string; currency: string; cost: number }[],
  currency: string | null,
  from: string,
  to: string,
) {
  if (!currency) return []
  const byDay = new Map<string, number>()
  for (const p of points) if (p.currency === currency) byDay.set(p.date, (byDay.get(p.date) ?? 0) + p.cost)
  return daysBetween(from, to).map((date) => ({ date, cost: byDay.get(date) ?? 0 }))
}
