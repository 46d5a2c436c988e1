import { availableParallelism } from 'node:os'
import type { Worker } from 'node:worker_threads'
import { startThread } from '../../platform/threads.js'
import type { KeyedCostRows } from '../types.js'
import { type CostBatch, createCostBatchReader } from './cost-batch.js'
import { createFocusAggregator } from './parse.js'
import type { FocusFilePart, FocusParseResult } from './types.js'

/**
 * Reader threads at most. Reading is most of an import's work besides its final transaction (gunzip, 96 columns
 * of CSV, the cell rules: about 25 µs a row), and it parallelises by file; two readers beside the thread that
 * stores their rows keep a 2-core machine busy. More would add memory (each thread has its own heap) faster
 * than speed, since the rows are still stored one batch at a time.
 */
const MAX_READERS = 2
/** Batches a reader may have posted that are not yet stored. */
const READ_AHEAD_BATCHES = 2
/**
 * The same while the reading waits for its gate (`after`): two files of an AWS export's (2,000-row batches of 16
 * bytes a row, 8 MB), so that the reader reads a pull's next files while the thread that stores them is merging
 * the last ones. And one reader only: beside a merge, a second took the merge's core, and the benchmark's pull of
 * 2 million rows took 54.8 s with two, 41-46 s with one (46.4 s without reading ahead).
 */
const GATED_READ_AHEAD_BATCHES = 256

export interface FocusReadProgress {
  /** Rows read so far, over every file. */
  rowsRead: number
  /** Bad rows and file problems found so far. */
  errorCount: number
  /**
   * The first file not yet read to its end, and its 1-based position among the files; at the end of a file
   * (`fileRead`), that file. Later files may be read already, or in part.
   */
  file: string
  fileNumber: number
  /** Whether this is the end of a file, every file before it read too. */
  fileRead: boolean
}

export interface FocusReadOptions {
  /** Cost rows per batch (at least: rows are taken a chunk of the file at a time). */
  batchRows: number
  /** Rows between two progress calls at most, while no batch is full. */
  progressRows: number
  maxIssues?: number
  /**
   * Stores a batch of summed cost rows. Called one batch at a time, in the order they arrive (files are read
   * side by side, so batches of two files interleave); readers wait while it runs behind. Rows of one key may
   * come in several batches: whoever stores them sums them.
   */
  onCosts: (rows: KeyedCostRows, progress: FocusReadProgress) => Promise<void>
  /** Called after each batch, every `progressRows` rows and at the end of each file, in turn with onCosts. */
  onProgress?: (progress: FocusReadProgress) => Promise<void> | void
  /**
   * The readers start at once, but neither onCosts nor onProgress is called before `after` settles; if it
   * rejects, the reading stops with its error. A pull reads its next files while the last ones are merged.
   */
  after?: Promise<unknown>
}

/** What a reader thread is told: read a file, or that one of its batches is stored. */
export type ToReader = { type: 'read'; file: string; index: number } | { type: 'stored' }
/** What a reader thread posts, each about the file at `index` among the import's files. */
export type FromReader =
  | { type: 'costs'; index: number; batch: CostBatch; rowsRead: number; errorCount: number }
  | { type: 'progress'; index: number; rowsRead: number; errorCount: number }
  /** The file is read: what it holds besides its costs, all of which were posted before. */
  | { type: 'read'; index: number; part: FocusFilePart }
export interface ReaderSettings {
  batchRows: number
  progressRows: number
  maxIssues: number | undefined
  readAheadBatches: number
}

/**
 * Reads the files of one import in reader threads, files side by side, and hands their summed cost rows to
 * `onCosts` as they come. Returns what parseFocusFiles would (its costs aside, all of them given to onCosts):
 * each file's inventory, issues and counts are merged in file order, so the result, issues' files and lines
 * included, does not depend on which thread was faster.
 */
export async function readFocusFiles(files: readonly string[], options: FocusReadOptions): Promise<FocusParseResult> {
  const aggregator = createFocusAggregator({ maxIssues: options.maxIssues })
  const settings: ReaderSettings = {
    batchRows: options.batchRows,
    progressRows: options.progressRows,
    maxIssues: options.maxIssues,
    readAheadBatches: options.after ? GATED_READ_AHEAD_BATCHES : READ_AHEAD_BATCHES,
  }
  const readers = Array.from(
    { length: Math.max(1, Math.min(options.after ? 1 : MAX_READERS, availableParallelism(), files.length)) },
    () => startReader(settings),
  )
  // Per file being read: rows and errors so far. Parts of files read out of order wait for the ones before.
  const reading = new Map<number, { rowsRead: number; errorCount: number }>()
  const parts = new Map<number, FocusFilePart>()
  let nextFile = 0
  let nextToAbsorb = 0

  const progress = (fileRead: boolean): FocusReadProgress => {
    let rowsRead = aggregator.rowsRead()
    let errorCount = aggregator.errorCount()
    for (const file of reading.values()) {
      rowsRead += file.rowsRead
      errorCount += file.errorCount
    }
    for (const part of parts.values()) {
      rowsRead += part.rowsRead
      errorCount += part.errorCount
    }
    const fileNumber = fileRead ? nextToAbsorb : Math.min(nextToAbsorb + 1, files.length)
    return { rowsRead, errorCount, file: files[fileNumber - 1]!, fileNumber, fileRead }
  }
  const giveFile = (reader: Worker): boolean => {
    if (nextFile >= files.length) return false
    reading.set(nextFile, { rowsRead: 0, errorCount: 0 })
    reader.postMessage({ type: 'read', file: files[nextFile]!, index: nextFile } satisfies ToReader)
    nextFile++
    return true
  }

  try {
    await new Promise<void>((done, fail) => {
      // Every message is handled in turn, after the previous one's callbacks: one batch stored at a time.
      let turn: Promise<unknown> = options.after ?? Promise.resolve()
      let failed = false
      const stop = (err: unknown) => {
        if (failed) return
        failed = true
        fail(err)
      }
      // A gate that fails stops the reading at once, not at the readers' next message.
      options.after?.catch(stop)
      const handle = async (reader: Worker, readBatch: (batch: CostBatch) => KeyedCostRows, message: FromReader) => {
        if (message.type === 'read') {
          reading.delete(message.index)
          parts.set(message.index, message.part)
          for (let part = parts.get(nextToAbsorb); part !== undefined; part = parts.get(nextToAbsorb)) {
            parts.delete(nextToAbsorb++)
            aggregator.absorb(part)
            await options.onProgress?.(progress(true))
          }
          if (nextToAbsorb === files.length) done()
          return
        }
        reading.set(message.index, { rowsRead: message.rowsRead, errorCount: message.errorCount })
        if (message.type === 'costs') {
          await options.onCosts(readBatch(message.batch), progress(false))
          reader.postMessage({ type: 'stored' } satisfies ToReader)
        }
        await options.onProgress?.(progress(false))
      }
      for (const reader of readers) {
        const readBatch = createCostBatchReader()
        reader.on('message', (message: FromReader) => {
          if (message.type === 'read' && !failed) giveFile(reader)
          turn = turn.then(() => (failed ? undefined : handle(reader, readBatch, message))).catch(stop)
        })
        reader.on('error', (err: Error & { code?: string }) =>
          stop(
            err.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new Error(`a FOCUS reader thread ran out of memory (${READER_LIMITS.maxOldGenerationSizeMb} MB)`)
              : err,
          ),
        )
        reader.on('exit', (code) => {
          if (nextToAbsorb < files.length) stop(new Error(`a FOCUS reader thread stopped (exit code ${code})`))
        })
        giveFile(reader)
      }
      // A single reader gets every file at once: while `after` holds, this thread may be too busy (a merge) to
      // give it the next file when it is done with one.
      if (readers.length === 1) while (giveFile(readers[0]!));
    })
  } finally {
    await Promise.all(readers.map((reader) => reader.terminate()))
  }
  return aggregator.result()
}

/**
 * Heap limits of a reader thread, which holds a chunk of a file, a batch, the file's inventory and its texts.
 * A limit makes V8 collect sooner, not only allow less: with the default (as large as the machine allows), each
 * reader's heap grew to 60 MB between collections, and the benchmark's import of 1.6 million rows peaked at
 * 288-301 MB RSS; with 512 MB allowed, readers keep to under 40 MB and it peaks at 242 MB. A reader that needs
 * more than that fails the import (see readFocusFiles) rather than the machine.
 */
const READER_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 512 }

/** A reader thread (read-worker.ts). */
function startReader(settings: ReaderSettings): Worker {
  return startThread(import.meta.url, 'read-worker', { workerData: settings, resourceLimits: READER_LIMITS })
}
