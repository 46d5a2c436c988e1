import { once } from 'node:events'
import type { Cell, Row } from '../kinds/types.js'
import type { RendererInput, StreamingRenderer } from './document.js'
import { type OutputFile, outputFile } from './output.js'

/**
 * A text cell a spreadsheet would take for a formula (`=`, `+`, `-`, `@`, tab, carriage return first) gets a
 * leading apostrophe, so opening the CSV never runs anything (OWASP's CSV injection advice). Numbers stay numbers.
 */
export function csvCell(value: Cell): string {
  if (value === null) return ''
  if (typeof value === 'number') return String(value)
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) || text !== value ? `"${text.replaceAll('"', '""')}"` : text
}

export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`
}

/** Writes to the file, waiting for it to drain when its buffer is full, so memory stays flat however many rows. */
async function put(file: OutputFile, text: string): Promise<void> {
  if (!file.stream.write(text)) await file.unlessFailed(once(file.stream, 'drain'))
}

/** RFC 4180 CSV (CRLF, UTF-8 with a byte-order mark so spreadsheets read the encoding): a header line, then rows. */
export function csvRenderer(path: string, input: RendererInput): StreamingRenderer & { ready: Promise<void> } {
  const file = outputFile(path)
  const ready = put(file, `\uFEFF${csvLine(input.columns.map((c) => c.title))}`)
  return {
    ready,
    async write(rows: readonly Row[]) {
      // Joined per batch: one write of a few hundred KB rather than thousands of small ones.
      let chunk = ''
      for (const row of rows) chunk += csvLine(row)
      await put(file, chunk)
    },
    async end() {
      file.stream.end()
      await file.unlessFailed(once(file.stream, 'finish'))
    },
    abandon() {
      file.stream.destroy()
    },
  }
}
