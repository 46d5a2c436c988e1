import { once } from 'node:events'
import ExcelJS from 'exceljs'
import type { Row } from '../kinds/types.js'
import type { RendererInput, StreamingRenderer, Totals } from './document.js'
import { outputFile } from './output.js'

/** Excel's last row; a run with more rows than this is cut there, and the sheet says so. */
export const XLSX_MAX_ROWS = 1_048_576 - 3

const HEADER_FILL = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F3A5F' } } as const

function columnLetter(index: number): string {
  let n = index + 1
  let out = ''
  while (n > 0) {
    const r = (n - 1) % 26
    out = String.fromCharCode(65 + r) + out
    n = Math.floor((n - 1) / 26)
  }
  return out
}

/** `#,##0.00 "USD"`: money keeps its number and shows its currency. */
function moneyFormat(currency: string): string {
  return `#,##0.00 "${currency.replaceAll('"', '')}"`
}

/** A writable stream (readable-stream's, as archiver uses), with the state that says whether to wait for 'drain'. */
type Inlet = NodeJS.EventEmitter & { _writableState?: { needDrain?: boolean } }

/**
 * The stream the zip reads the sheet's XML from. exceljs writes each committed row's XML into it without heeding
 * its answer (exceljs has no backpressure: a `commit()` never says "wait"), so when rows come faster than the zip
 * deflates them, the XML piles up there: ~300 bytes a row, 300 MB for a million rows, outside the V8 heap.
 * Found by measuring this stream's buffered bytes while rendering; it is the archiver's inlet for the sheet
 * (`WorksheetWriter.stream`, exceljs' StreamBuf, pipes into it). Null if a later exceljs lays this out otherwise:
 * the sheet is then written as before, only without the wait.
 */
function zipInlet(sheet: ExcelJS.Worksheet): Inlet | null {
  const inlet = (sheet as unknown as { stream?: { pipes?: unknown[] } }).stream?.pipes?.[0] as Inlet | undefined
  return inlet?._writableState && typeof inlet.once === 'function' ? inlet : null
}

/**
 * XLSX through exceljs' streaming writer, straight to the file (no shared strings, so nothing grows with the
 * rows): each row is committed as it comes, and after each batch the renderer waits until the zip has taken the
 * batch's XML (see zipInlet), so memory stays flat however many rows. Typed cells (money as numbers in a
 * currency format, dates as dates), a frozen header with an autofilter, column widths, a totals row as a formula
 * (SUMIF per currency when there are several), and an "About" sheet with the period as dates.
 */
export function xlsxRenderer(path: string, input: RendererInput): StreamingRenderer {
  const { columns, amountColumn, currencyColumn, heading } = input
  // The file is opened here rather than by exceljs, so that its failure fails the run (see outputFile).
  const file = outputFile(path)
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: file.stream, useStyles: true, useSharedStrings: false })
  book.creator = 'Costwatch'
  book.created = heading.generatedAt
  const sheet = book.addWorksheet('Report', { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.columns = columns.map((c) => ({ header: c.title, width: c.width + 2 }))
  const header = sheet.getRow(1)
  header.font = { bold: true, color: { argb: 'FFFFFFFF' } }
  header.eachCell((cell) => {
    cell.fill = HEADER_FILL
  })
  columns.forEach((c, i) => {
    if (c.type === 'money' || c.type === 'integer') header.getCell(i + 1).alignment = { horizontal: 'right' }
  })
  header.commit()
  let written = 0
  let cut = 0

  return {
    async write(rows: readonly Row[]) {
      for (const values of rows) {
        if (written >= XLSX_MAX_ROWS) {
          cut++
          continue
        }
        const row = sheet.addRow(
          values.map((v, i) => (columns[i]!.type === 'date' && typeof v === 'string' ? new Date(`${v}T00:00:00Z`) : v)),
        )
        const money = moneyFormat(String(values[currencyColumn] ?? ''))
        columns.forEach((c, i) => {
          if (c.type === 'money') row.getCell(i + 1).numFmt = money
          else if (c.type === 'date') row.getCell(i + 1).numFmt = 'yyyy-mm-dd'
        })
        row.commit()
        written++
      }
      // The batch's XML is in the zip's inlet now: wait for the zip to take it before reading more rows.
      const inlet = zipInlet(sheet)
      if (inlet?._writableState?.needDrain) await file.unlessFailed(once(inlet, 'drain'))
    },
    abandon() {
      file.stream.destroy()
    },
    async end(totals: Totals) {
      const first = 2
      const last = written + 1
      const amount = columnLetter(amountColumn)
      const currency = columnLetter(currencyColumn)
      const label = amountColumn > 0 ? 0 : 1
      const lines = [...totals.entries()].sort(([a], [b]) => a.localeCompare(b))
      for (const [code, total] of lines.length ? lines : [['', 0] as [string, number]]) {
        const cells: ExcelJS.CellValue[] = columns.map(() => null)
        cells[label] = lines.length > 1 ? `Total ${code}` : 'Total'
        cells[amountColumn] = {
          formula:
            lines.length > 1
              ? `SUMIF(${currency}${first}:${currency}${last},"${code}",${amount}${first}:${amount}${last})`
              : `SUM(${amount}${first}:${amount}${last})`,
          result: Math.round(total * 100) / 100,
        } as ExcelJS.CellFormulaValue
        cells[currencyColumn] = code || null
        const row = sheet.addRow(cells)
        row.font = { bold: true }
        row.getCell(amountColumn + 1).numFmt = moneyFormat(code)
        row.border = { top: { style: 'thin' } }
        row.commit()
      }
      sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(1, last), column: columns.length } }
      sheet.commit()

      const about = book.addWorksheet('About')
      about.columns = [{ width: 18 }, { width: 60 }]
      const facts: [string, ExcelJS.CellValue, string?][] = [
        ['Report', heading.title],
        ['Shows', heading.subtitle],
        ['Period from', new Date(`${heading.period.from}T00:00:00Z`), 'yyyy-mm-dd'],
        ['Period to', new Date(`${heading.period.to}T00:00:00Z`), 'yyyy-mm-dd'],
        ['Scope', heading.scope],
        ['Generated at (UTC)', heading.generatedAt, 'yyyy-mm-dd hh:mm'],
        ['Rows', written],
        ...(cut
          ? ([['Not shown', `${cut} rows past Excel's row limit; the CSV file holds every row.`]] as [string, string][])
          : []),
      ]
      for (const [name, value, format] of facts) {
        const row = about.addRow([name, value])
        row.getCell(1).font = { bold: true }
        if (format) row.getCell(2).numFmt = format
        row.getCell(2).alignment = { horizontal: 'left' }
        row.commit()
      }
      about.commit()
      await file.unlessFailed(book.commit())
    },
  }
}
