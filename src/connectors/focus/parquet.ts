import { type FileHandle, open } from 'node:fs/promises'
import { type AsyncBuffer, type FileMetaData, parquetMetadataAsync, parquetRead, parquetSchema } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'

/**
 * Parquet FOCUS exports (AWS Data Exports writes them as often as CSV), read a row group at a time with hyparquet:
 * only the columns the reader uses, only one row group's column chunks in memory, each cell turned into the text a
 * CSV export holds, so the same row rules apply to both.
 */

/** Bytes read from the end of a file for its footer at first (hyparquet reads 512 KB by default). */
const FOOTER_FETCH_BYTES = 64 * 1024

/** A Parquet file opened for random access: hyparquet asks for the footer, then for each column chunk it reads. */
export interface ParquetFile {
  /** The top-level column names, in schema order: the "header". */
  names: string[]
  /** Rows of each row group, in order. */
  groups: number[]
  /** Reads the named columns of one row group: one array of values per name, each as long as the group. */
  readGroup(index: number, columns: readonly string[]): Promise<unknown[][]>
  close(): Promise<void>
}

/**
 * The bytes of an open file as hyparquet's AsyncBuffer. `onSlice` hears of each read's size (how the tests see that
 * no read spans more than a row group).
 */
function fileBuffer(handle: FileHandle, byteLength: number, onSlice?: (bytes: number) => void): AsyncBuffer {
  return {
    byteLength,
    async slice(start: number, end = byteLength): Promise<ArrayBuffer> {
      const length = Math.max(0, Math.min(end, byteLength) - start)
      onSlice?.(length)
      const bytes = new Uint8Array(length)
      let done = 0
      while (done < length) {
        const { bytesRead } = await handle.read(bytes, done, length - done, start + done)
        if (bytesRead === 0) throw new Error(`the file ends at byte ${start + done}, before byte ${end}`)
        done += bytesRead
      }
      return bytes.buffer
    },
  }
}

/** Opens a Parquet file and reads its footer; throws when it is not a readable Parquet file. */
export async function openParquetFile(path: string, onSlice?: (bytes: number) => void): Promise<ParquetFile> {
  const handle = await open(path, 'r')
  try {
    const { size } = await handle.stat()
    const file = fileBuffer(handle, size, onSlice)
    // The footer is read from a small tail (hyparquet asks for the rest of a larger footer exactly).
    const metadata: FileMetaData = await parquetMetadataAsync(file, { initialFetchSize: FOOTER_FETCH_BYTES })
    const names = parquetSchema(metadata).children.map((c) => c.element.name)
    const groups = metadata.row_groups.map((g) => Number(g.num_rows))
    const starts: number[] = []
    groups.reduce((at, rows) => {
      starts.push(at)
      return at + rows
    }, 0)
    return {
      names,
      groups,
      async readGroup(index, columns) {
        const rowStart = starts[index]!
        const rows = groups[index]!
        const byName = new Map<string, unknown[][]>(columns.map((c) => [c, []]))
        await parquetRead({
          file,
          metadata,
          columns: [...columns],
          rowStart,
          rowEnd: rowStart + rows,
          compressors,
          // Column data as hyparquet decodes it, a page (or chunk) at a time: no row objects are made.
          onChunk: ({ columnName, columnData, rowStart: from }) => {
            if (from >= rowStart && from < rowStart + rows) byName.get(columnName)?.push(columnData as unknown[])
          },
        })
        return columns.map((c) => {
          const parts = byName.get(c)!
          const values = parts.length === 1 ? parts[0]! : parts.flatMap((p) => Array.from(p))
          if (values.length !== rows)
            throw new Error(`column ${c} of row group ${index + 1} has ${values.length} of its ${rows} rows`)
          return values
        })
      },
      close: () => handle.close(),
    }
  } catch (err) {
    await handle.close()
    throw err
  }
}

/**
 * A Parquet value as a CSV export writes it: null as empty, a timestamp as ISO 8601 UTC, numbers in their shortest
 * form (an exponent where JavaScript writes one, which the money rule reads), a map or struct (AWS writes Tags as a
 * map) as JSON.
 */
export function parquetCellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  switch (typeof value) {
    case 'string':
      return value
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value)
    default:
      if (value instanceof Date) return value.toISOString()
      if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8')
      return JSON.stringify(entriesAsObject(value), (_, v) => (typeof v === 'bigint' ? String(v) : v))
  }
}

/** A map read as a list of {key, value} entries, as an object. */
function entriesAsObject(value: unknown): unknown {
  if (!Array.isArray(value)) return value
  if (!value.every((e) => e !== null && typeof e === 'object' && 'key' in e)) return value
  return Object.fromEntries(value.map((e: { key: unknown; value: unknown }) => [String(e.key), e.value]))
}
