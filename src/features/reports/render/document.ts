import type { Column, Period, Row } from '../kinds/types.js'

/** What every file of a run says about it, beside its rows. */
export interface ReportHeading {
  title: string
  subtitle: string
  description: string | null
  period: Period
  /** "Whole organisation" or the tenancy names. */
  scope: string
  generatedAt: Date
}

/** Totals of the amount column, per currency (amounts are never added across currencies). */
export type Totals = Map<string, number>

/** The formats of a run's files, with how they are served. */
export const FORMATS = {
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' },
  pdf: { contentType: 'application/pdf', extension: 'pdf' },
} as const
export type Format = keyof typeof FORMATS

/** A renderer that takes rows as they come and writes its file as it goes. */
export interface StreamingRenderer {
  write(rows: readonly Row[]): Promise<void>
  /** Finishes the file once every row is written. */
  end(totals: Totals, rowCount: number): Promise<void>
  /** Closes the file unfinished: the run failed (its files are thrown away). */
  abandon?(): void
}

export interface RendererInput {
  heading: ReportHeading
  columns: Column[]
  amountColumn: number
  currencyColumn: number
}

/** A PDF lists at most this many rows (about 35 pages); past it, the largest of them and one line for the rest. */
export const PDF_MAX_ROWS = 1000
