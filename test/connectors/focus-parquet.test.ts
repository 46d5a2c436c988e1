import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { parse as parseCsv } from 'csv-parse/sync'
import { parquetMetadata } from 'hyparquet'
import { afterAll, describe, expect, it } from 'vitest'
import { parseFocusFile, parseFocusFiles } from '../../src/connectors/focus/parse.js'
import { readFocusFiles } from '../../src/connectors/focus/read.js'
import type { FocusParseResult } from '../../src/connectors/focus/types.js'
import { type DailyCostRow, toDailyCostRows } from '../../src/connectors/types.js'
import { type Cells, type ParquetCodec, parquetBytes, sampleExport } from '../support/focus-providers.js'

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/focus/${name}`, import.meta.url))
const temp = mkdtempSync(join(tmpdir(), 'costwatch-focus-parquet-'))
afterAll(() => rmSync(temp, { recursive: true, force: true }))
function tempFile(name: string, content: string | Uint8Array): string {
  const path = join(temp, name)
  writeFileSync(path, content)
  return path
}

/** A CSV fixture's header and rows as cells (empty as null). */
function csvRows(path: string): { columns: string[]; rows: Cells[] } {
  const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '')
  const records: string[][] = parseCsv(text, { relax_column_count: true })
  const [columns, ...data] = records as [string[], ...string[][]]
  return {
    columns,
    rows: data.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i] === '' ? null : (r[i] ?? null)]))),
  }
}

/** Costs summed by key (money through a double in Parquet: compared to the 10th decimal). */
function summed(costs: readonly DailyCostRow[]): Map<string, number> {
  const sums = new Map<string, number>()
  for (const { cost, ...key } of costs) sums.set(JSON.stringify(key), (sums.get(JSON.stringify(key)) ?? 0) + cost)
  return sums
}
function expectSameCosts(actual: readonly DailyCostRow[], expected: readonly DailyCostRow[]) {
  const a = summed(actual)
  const e = summed(expected)
  expect([...a.keys()].sort()).toEqual([...e.keys()].sort())
  for (const [key, cost] of e) expect(a.get(key), key).toBeCloseTo(cost, 10)
}
const withoutCosts = ({ costs: _, ...rest }: FocusParseResult) => rest

describe('FOCUS Parquet files', () => {
  // The small Azure fixture as Parquet, in row groups of 10 rows: money as DOUBLE, dates as TIMESTAMP.
  const small = csvRows(fixture('azure-focus-small.csv'))
  const csvPath = fixture('azure-focus-small.csv')

  it('read as the same rows as CSV: same costs and totals, inventory, conformance, in every codec', async () => {
    const fromCsv = await parseFocusFile(csvPath)
    expect(fromCsv.errors).toEqual([])
    for (const codec of ['SNAPPY', 'GZIP', 'BROTLI', 'UNCOMPRESSED'] satisfies ParquetCodec[]) {
      const path = tempFile(
        `small-${codec}.parquet`,
        parquetBytes(small.columns, small.rows, { rowGroupSize: 10, codec }),
      )
      const fromParquet = await parseFocusFile(path, { fileName: csvPath })
      expect(withoutCosts(fromParquet), codec).toEqual(withoutCosts(fromCsv))
      expectSameCosts(fromParquet.costs, fromCsv.costs)
      const total = (r: FocusParseResult) => r.costs.reduce((s, c) => s + c.cost, 0)
      expect(total(fromParquet)).toBeCloseTo(total(fromCsv), 10)
    }
  })

  it('reports bad rows at the lines CSV would, and keeps the rest', async () => {
    const rows = small.rows.map((row, i) =>
      i === 3 ? { ...row, ChargeCategory: 'Refund' } : i === 7 ? { ...row, BillingCurrency: null } : row,
    )
    const field = (v: string | null) => (v === null ? '' : `"${v.replaceAll('"', '""')}"`)
    const csv = tempFile(
      'bad.csv',
      `${small.columns.join(',')}\n${rows.map((r) => small.columns.map((c) => field(r[c] ?? null)).join(',')).join('\n')}\n`,
    )
    const parquet = tempFile('bad.parquet', parquetBytes(small.columns, rows, { rowGroupSize: 4 }))
    const a = await parseFocusFile(csv, { fileName: 'f' })
    const b = await parseFocusFile(parquet, { fileName: 'f' })
    expect(a.errors.map((e) => e.line)).toEqual([5, 9])
    expect(b.errors).toEqual(a.errors)
    expect(b.conformance).toEqual(a.conformance)
    expect(b.rowsRejected).toBe(2)
  })

  it('are read in the reader threads beside CSV files, and from a stream spooled to a removed temporary file', async () => {
    const parquet = tempFile('threads.parquet', parquetBytes(small.columns, small.rows, { rowGroupSize: 7 }))
    const serial = await parseFocusFiles([csvPath, csvPath])
    const costs: DailyCostRow[] = []
    const threads = await readFocusFiles([parquet, csvPath], {
      batchRows: 5,
      progressRows: 1000,
      onCosts: async (batch) => {
        costs.push(...toDailyCostRows(batch))
      },
    })
    expect(threads.rowsRead).toBe(serial.rowsRead)
    expect(threads.conformance).toEqual(serial.conformance)
    expectSameCosts(costs, serial.costs)

    const spools = () => readdirSync(tmpdir()).filter((n) => n.startsWith('costwatch-focus-upload-'))
    const before = spools()
    const fromStream = await parseFocusFile(Readable.from([readFileSync(parquet)]), { fileName: 'upload' })
    expect(fromStream.errors).toEqual([])
    expect(fromStream.rowsRead).toBe(small.rows.length)
    expectSameCosts(fromStream.costs, (await parseFocusFile(csvPath)).costs)
    expect(spools()).toEqual(before)
  })

  it('gives a clear file-level error for a corrupt or truncated file', async () => {
    const good = parquetBytes(small.columns, small.rows, { rowGroupSize: 10 })
    const garbage = tempFile(
      'garbage.parquet',
      Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(100, 7), Buffer.from('PAR1')]),
    )
    const truncated = tempFile('truncated.parquet', good.subarray(0, Math.floor(good.length * 0.6)))
    for (const path of [garbage, truncated]) {
      const r = await parseFocusFile(path, { fileName: 'x.parquet' })
      expect(r.errors).toMatchObject([
        { file: 'x.parquet', line: 0, message: expect.stringMatching(/^not a readable Parquet file: /) },
      ])
      expect(r.rowsRead).toBe(0)
    }
    // Column data overwritten in the middle of the file: the footer reads, a row group does not.
    const damaged = Buffer.from(good)
    const meta = parquetMetadata(damaged.buffer.slice(damaged.byteOffset, damaged.byteOffset + damaged.length))
    const chunk = meta.row_groups[1]!.columns.find((c) => c.meta_data!.path_in_schema[0] === 'EffectiveCost')!
      .meta_data!
    const at = Number(chunk.dictionary_page_offset ?? chunk.data_page_offset)
    damaged.fill(0xff, at, at + Number(chunk.total_compressed_size))
    const r = await parseFocusFile(tempFile('damaged.parquet', damaged), { fileName: 'd.parquet' })
    expect(r.errors.at(-1)).toMatchObject({
      file: 'd.parquet',
      message: expect.stringMatching(/^the file ends early or is corrupt: row group 2: /),
    })
    // The first row group's rows were read (lines 2 to 11), nothing after the damage.
    expect(r.rowsRead).toBe(10)
  })

  it('never reads more than a row group at once', async () => {
    // 120 days x 100 resources of an AWS export (about 12,000 rows) in row groups of 1,000 rows.
    const sample = sampleExport('aws-1.2', { seed: 5, days: 120, resources: 100, firstDay: '2026-01-01' })
    const bytes = parquetBytes(sample.columns, sample.rows, { rowGroupSize: 1000 })
    const meta = parquetMetadata(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    )
    expect(meta.row_groups.length).toBeGreaterThan(5)
    const largestGroup = Math.max(
      ...meta.row_groups.map((g) => g.columns.reduce((s, c) => s + Number(c.meta_data!.total_compressed_size), 0)),
    )
    const slices: number[] = []
    const r = await parseFocusFile(tempFile('groups.parquet', bytes), { onParquetSlice: (n) => slices.push(n) })
    expect(r.errors).toEqual([])
    expect(r.rowsRead).toBe(sample.rows.length)
    // The footer (its tail, then the rest of it when longer), then one read per row group at most.
    expect(Math.max(...slices)).toBeLessThanOrEqual(Math.max(64 * 1024, largestGroup))
    expect(Math.max(...slices)).toBeLessThan(bytes.length / 4)
    expect(slices.length).toBeGreaterThanOrEqual(meta.row_groups.length)
  })
})
