import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import type { Column, Row } from '../kinds/types.js'
import { readableDay } from '../period.js'
import { PDF_MAX_ROWS, type RendererInput, type Totals } from './document.js'

export interface PdfContent {
  /** The rows to list, in the order to list them. */
  rows: Row[]
  /** Set when `rows` are only the largest of the run's rows: how many there were in all. */
  summarisedFrom: number | null
  totals: Totals
  /** Daily totals of the main currency, oldest first (the chart). */
  series: { date: string; cost: number }[]
  seriesCurrency: string | null
  /** Whether each row shows its share of its currency's total. */
  share: boolean
  /** What the page says when there is nothing to total. */
  noRows: string
}

const INK = '#1d2733'
const MUTED = '#66707c'
const RULE = '#d5dbe3'
const BRAND = '#1f3a5f'
const ACCENT = '#2f6fb3'
const ZEBRA = '#f4f6f9'
const MARGIN = 42
const ROW_HEIGHT = 17
const HEADER_HEIGHT = 22
const FOOTER_SPACE = 30

const number2 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

export function formatMoney(amount: number, currency: string): string {
  return `${currency} ${number2.format(amount)}`
}

/** An axis label: 12.3k, 4.5M. */
function compact(value: number): string {
  if (Math.abs(value) >= 1e6) return `${(value / 1e6).toFixed(value >= 1e7 ? 0 : 1)}M`
  if (Math.abs(value) >= 1e3) return `${(value / 1e3).toFixed(value >= 1e4 ? 0 : 1)}k`
  return value === 0 || value >= 10 ? value.toFixed(0) : value.toFixed(2)
}

/** A step of 1, 2 or 5 times a power of ten giving about `ticks` grid lines up to `max`. */
function niceStep(max: number, ticks: number): number {
  const raw = max / ticks
  const power = 10 ** Math.floor(Math.log10(raw))
  const unit = raw / power
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power
}

/**
 * The run as a document a finance team can forward: title, period, scope, generation time, totals, a chart of
 * the daily cost drawn with vector paths, then the table (numbers right-aligned with their currency, the header
 * repeated on every page), and "Page n of m" on every page. Pages are kept until the end to number them, which
 * the row limit keeps small.
 */
export async function renderPdf(path: string, input: RendererInput, content: PdfContent): Promise<void> {
  const { heading, columns, amountColumn, currencyColumn } = input
  const { default: PDFDocument } = await import('pdfkit')
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { Title: heading.title, Subject: heading.subtitle, Creator: 'Costwatch', CreationDate: heading.generatedAt },
  })
  const out = createWriteStream(path)
  doc.pipe(out)
  const width = doc.page.width - 2 * MARGIN
  const bottom = () => doc.page.height - MARGIN - FOOTER_SPACE

  // Title block.
  doc.rect(0, 0, doc.page.width, 6).fill(BRAND)
  doc
    .font('Helvetica-Bold')
    .fontSize(8)
    .fillColor(ACCENT)
    .text('COSTWATCH  ·  COST REPORT', MARGIN, MARGIN - 8, { characterSpacing: 1 })
  doc
    .font('Helvetica-Bold')
    .fontSize(20)
    .fillColor(INK)
    .text(heading.title, MARGIN, MARGIN + 6, { width })
  doc.font('Helvetica').fontSize(11).fillColor(MUTED).text(heading.subtitle, { width })
  if (heading.description) doc.fontSize(9).text(heading.description, { width })
  let y = doc.y + 12

  // Facts: period, scope, generated at, rows.
  const period = `${readableDay(heading.period.from)} – ${readableDay(heading.period.to)}`
  const rowCount = content.summarisedFrom ?? content.rows.length
  const facts: [string, string][] = [
    ['PERIOD', `${period} (${heading.period.label})`],
    ['SCOPE', heading.scope],
    ['GENERATED', `${heading.generatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`],
    ['ROWS', integer.format(rowCount)],
  ]
  const factWidths = [0.34, 0.3, 0.2, 0.16].map((f) => f * width)
  let x = MARGIN
  facts.forEach(([label, value], i) => {
    doc.font('Helvetica-Bold').fontSize(7).fillColor(MUTED).text(label, x, y, { characterSpacing: 0.6 })
    doc
      .font('Helvetica')
      .fontSize(10)
      .fillColor(INK)
      .text(value, x, y + 11, { width: factWidths[i]! - 10, height: 26, ellipsis: true })
    x += factWidths[i]!
  })
  y += 40
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + width, y)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke()
  y += 12

  // Totals, one card per currency (never added across currencies).
  const totals = [...content.totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4)
  const cardWidth = Math.min(220, (width - 12 * 3) / 4)
  totals.forEach(([currency, total], i) => {
    const cx = MARGIN + i * (cardWidth + 12)
    doc.roundedRect(cx, y, cardWidth, 46, 4).fill(ZEBRA)
    doc.rect(cx, y, 3, 46).fill(ACCENT)
    doc
      .font('Helvetica-Bold')
      .fontSize(7)
      .fillColor(MUTED)
      .text(`TOTAL ${columns[amountColumn]!.title.toUpperCase()} (${currency})`, cx + 12, y + 9, {
        characterSpacing: 0.6,
      })
    doc
      .font('Helvetica-Bold')
      .fontSize(16)
      .fillColor(INK)
      .text(formatMoney(total, currency), cx + 12, y + 21, { width: cardWidth - 18, lineBreak: false })
  })
  if (totals.length === 0)
    doc
      .font('Helvetica')
      .fontSize(10)
      .fillColor(MUTED)
      .text(content.noRows, MARGIN, y + 16)
  y += 62

  // The chart of the daily cost of the main currency.
  if (content.series.length > 0 && content.seriesCurrency) {
    y = drawChart(doc, content.series, content.seriesCurrency, MARGIN, y, width, 130) + 18
  }

  // The table.
  const shown = columns.map((c, i) => ({ c, i })).filter(({ i }) => i !== currencyColumn)
  const share = { c: { title: 'Share', type: 'integer', width: 9 } as Column, i: -1 }
  const cells = [
    ...shown.slice(0, shown.findIndex((s) => s.i === amountColumn) + 1),
    ...(content.share ? [share] : []),
    ...shown.slice(shown.findIndex((s) => s.i === amountColumn) + 1),
  ]
  const hint = cells.map(({ c }) => (c.type === 'money' ? Math.max(c.width, 16) : c.width))
  const sum = hint.reduce((a, b) => a + b, 0)
  const widths = hint.map((h) => (h / sum) * width)
  const numeric = (c: Column) => c.type === 'money' || c.type === 'integer'

  const drawHeader = () => {
    doc.rect(MARGIN, y, width, HEADER_HEIGHT).fill(BRAND)
    let cx = MARGIN
    cells.forEach(({ c }, k) => {
      doc.font('Helvetica-Bold').fontSize(8.5).fillColor('#ffffff')
      doc.text(c.title, cx + 6, y + 7, {
        width: widths[k]! - 12,
        align: numeric(c) ? 'right' : 'left',
        lineBreak: false,
      })
      cx += widths[k]!
    })
    y += HEADER_HEIGHT
  }
  const fitted = (text: string, w: number) => {
    if (doc.widthOfString(text) <= w) return text
    let cut = text
    while (cut.length > 1 && doc.widthOfString(`${cut}…`) > w) cut = cut.slice(0, -1)
    return `${cut}…`
  }
  const drawRow = (values: Row, index: number, bold = false) => {
    if (y + ROW_HEIGHT > bottom()) {
      doc.addPage()
      y = MARGIN
      drawHeader()
    }
    if (index % 2 === 1) doc.rect(MARGIN, y, width, ROW_HEIGHT).fill(ZEBRA)
    const currency = String(values[currencyColumn] ?? '')
    const amount = Number(values[amountColumn] ?? 0)
    let cx = MARGIN
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(8.5)
      .fillColor(INK)
    cells.forEach(({ c, i }, k) => {
      const w = widths[k]! - 12
      let text: string
      if (i === -1) {
        const total = content.totals.get(currency) ?? 0
        text = total > 0 ? `${(Math.round((amount / total) * 1000) / 10).toFixed(1)}%` : ''
      } else if (c.type === 'money')
        text = values[i] === null ? '' : formatMoney(Number(values[i]), currency) // a totals line's other amounts
      else if (c.type === 'integer' && typeof values[i] === 'number') text = integer.format(values[i] as number)
      else text = String(values[i] ?? '')
      doc.text(fitted(text, w), cx + 6, y + 5, { width: w, align: numeric(c) ? 'right' : 'left', lineBreak: false })
      cx += widths[k]!
    })
    y += ROW_HEIGHT
  }

  if (y + HEADER_HEIGHT + ROW_HEIGHT * 3 > bottom()) {
    doc.addPage()
    y = MARGIN
  }
  drawHeader()
  for (const [index, row] of content.rows.entries()) drawRow(row, index)
  if (content.rows.length === 0) {
    doc
      .font('Helvetica')
      .fontSize(9)
      .fillColor(MUTED)
      .text('No rows.', MARGIN + 6, y + 5)
    y += ROW_HEIGHT
  }
  if (content.summarisedFrom !== null) {
    // Past the row limit: what is not listed is summed per currency, so the table still adds up to the totals.
    const rest = content.summarisedFrom - content.rows.length
    const listed = new Map<string, number>()
    for (const row of content.rows) {
      const c = String(row[currencyColumn] ?? '')
      listed.set(c, (listed.get(c) ?? 0) + Number(row[amountColumn] ?? 0))
    }
    for (const [currency, total] of content.totals) {
      const other: Row = columns.map(() => null)
      other[amountColumn === 0 ? 1 : 0] = `All other ${integer.format(rest)} rows`
      other[amountColumn] = Math.round((total - (listed.get(currency) ?? 0)) * 100) / 100
      other[currencyColumn] = currency
      drawRow(other, content.rows.length, true)
    }
  }
  for (const [currency, total] of totals) {
    const line: Row = columns.map(() => null)
    line[amountColumn === 0 ? 1 : 0] = totals.length > 1 ? `Total ${currency}` : 'Total'
    line[amountColumn] = total
    line[currencyColumn] = currency
    if (y + ROW_HEIGHT > bottom()) {
      doc.addPage()
      y = MARGIN
      drawHeader()
    }
    doc
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + width, y)
      .lineWidth(0.8)
      .strokeColor(INK)
      .stroke()
    drawRow(line, 0, true)
  }
  if (content.summarisedFrom !== null) {
    y += 8
    if (y + 30 > bottom()) {
      doc.addPage()
      y = MARGIN
    }
    doc
      .font('Helvetica-Oblique')
      .fontSize(8.5)
      .fillColor(MUTED)
      .text(
        `This PDF lists the ${integer.format(content.rows.length)} largest of the report's ${integer.format(content.summarisedFrom)} rows ` +
          `(a PDF lists at most ${integer.format(PDF_MAX_ROWS)}); the others are summed in the "All other" line. ` +
          'The CSV and XLSX files of this run hold every row.',
        MARGIN,
        y,
        { width },
      )
  }

  // Footers, once the number of pages is known.
  const range = doc.bufferedPageRange()
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i)
    const fy = doc.page.height - MARGIN - 8
    doc.page.margins.bottom = 0 // writing in the bottom margin must not start a new page
    doc
      .moveTo(MARGIN, fy - 6)
      .lineTo(MARGIN + width, fy - 6)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke()
    doc.font('Helvetica').fontSize(7.5).fillColor(MUTED)
    doc.text(`${heading.title}  ·  ${period}  ·  Costwatch`, MARGIN, fy, { width: width / 2, lineBreak: false })
    doc.text(`Page ${i + 1} of ${range.count}`, MARGIN + width / 2, fy, {
      width: width / 2,
      align: 'right',
      lineBreak: false,
    })
  }
  doc.end()
  await once(out, 'finish')
}

/** A bar chart of daily cost with a labelled value axis and date ticks; returns the y below it. */
function drawChart(
  doc: PDFKit.PDFDocument,
  series: { date: string; cost: number }[],
  currency: string,
  left: number,
  top: number,
  width: number,
  height: number,
): number {
  doc.font('Helvetica-Bold').fontSize(9).fillColor(INK).text(`Daily cost (${currency})`, left, top)
  const plotTop = top + 18
  const axisWidth = 44
  const plotLeft = left + axisWidth
  const plotWidth = width - axisWidth
  const plotHeight = height - 34
  const max = Math.max(...series.map((p) => p.cost), 0)
  const step = max > 0 ? niceStep(max, 4) : 1
  const ceiling = Math.max(step, Math.ceil(max / step) * step)
  doc.font('Helvetica').fontSize(7).fillColor(MUTED)
  for (let v = 0; v <= ceiling + step / 2; v += step) {
    const gy = plotTop + plotHeight - (v / ceiling) * plotHeight
    doc
      .moveTo(plotLeft, gy)
      .lineTo(plotLeft + plotWidth, gy)
      .lineWidth(0.4)
      .strokeColor(v === 0 ? '#9aa4b0' : RULE)
      .stroke()
    doc.text(compact(v), left, gy - 3, { width: axisWidth - 6, align: 'right', lineBreak: false })
  }
  const slot = plotWidth / series.length
  const bar = Math.max(0.6, slot * 0.72)
  series.forEach((p, i) => {
    const h = ceiling > 0 ? (p.cost / ceiling) * plotHeight : 0
    if (h > 0) doc.rect(plotLeft + i * slot + (slot - bar) / 2, plotTop + plotHeight - h, bar, h).fill(ACCENT)
  })
  // About six date labels, always the first and the last day.
  const every = Math.max(1, Math.ceil(series.length / 6))
  doc.font('Helvetica').fontSize(7).fillColor(MUTED)
  series.forEach((p, i) => {
    if (i % every !== 0 && i !== series.length - 1) return
    if (i !== series.length - 1 && series.length - 1 - i < every / 2) return
    const cx = plotLeft + i * slot + slot / 2
    doc
      .moveTo(cx, plotTop + plotHeight)
      .lineTo(cx, plotTop + plotHeight + 3)
      .lineWidth(0.4)
      .strokeColor('#9aa4b0')
      .stroke()
    doc.text(readableDay(p.date).replace(/ \d{4}$/, ''), cx - 30, plotTop + plotHeight + 6, {
      width: 60,
      align: 'center',
      lineBreak: false,
    })
  })
  return plotTop + plotHeight + 16
}
