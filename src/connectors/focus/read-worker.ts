/**
 * A reader thread of `readFocusFiles`: reads the files it is given, one at a time, each with an aggregator of its
 * own, and posts the summed cost rows in batches and, once a file is read, what else the file holds (its part).
 * It stays at most READ_AHEAD_BATCHES ahead of the thread that stores the batches, so memory does not grow when
 * storing is the slower side.
 */
import { parentPort } from 'node:worker_threads'
import type { KeyedCostRows } from '../types.js'
import { createCostBatchWriter } from './cost-batch.js'
import { createCostKeys, createFocusAggregator } from './parse.js'
import type { FromReader, ReaderSettings, ToReader } from './read.js'

const port = parentPort
if (!port) throw new Error('read-worker runs as a worker thread of readFocusFiles')
let settings: ReaderSettings | null = null

let unstored = 0
let reading = Promise.resolve()
let stored: (() => void) | null = null

port.on('message', (message: ToReader) => {
  if (message.type === 'stored') {
    unstored--
    stored?.()
    return
  }
  // Files given ahead are read one after the other; an import's start comes after the last import's files.
  reading = reading
    .then(() => (message.type === 'begin' ? begin(message.settings) : read(message.file, message.index)))
    .catch((err: unknown) => {
      // An error of the reader itself (the aggregator reports a file's own problems as issues).
      setImmediate(() => {
        throw err
      })
    })
})

// One set of keys for every file of an import this reader reads: each key is one object, numbered once in its
// batches. A new import (this thread kept for the next, see readFocusFiles) starts both again.
let writeBatch = createCostBatchWriter()
let costKeys = createCostKeys()

function begin(next: ReaderSettings) {
  settings = next
  writeBatch = createCostBatchWriter()
  costKeys = createCostKeys()
  unstored = 0
}

function post(message: FromReader) {
  const { batch } = message.type === 'costs' ? message : { batch: null }
  port!.postMessage(message, batch ? [batch.keys.buffer, batch.rows.buffer, batch.costs.buffer] : [])
}

async function read(file: string, index: number): Promise<void> {
  if (settings === null) throw new Error('read-worker was given a file before an import began')
  const { maxIssues, batchRows, readAheadBatches, progressRows } = settings
  let reported = 0
  const aggregator = createFocusAggregator({
    maxIssues,
    checkCurrencies: false,
    costKeys,
    afterChunk: async ({ rowsRead, pendingCosts }) => {
      if (pendingCosts >= batchRows) {
        reported = rowsRead
        postCosts(aggregator.takeCosts(), rowsRead, aggregator.errorCount())
        while (unstored >= readAheadBatches) await new Promise<void>((resume) => (stored = resume))
        stored = null
      } else if (rowsRead - reported >= progressRows) {
        reported = rowsRead
        post({ type: 'progress', index, rowsRead, errorCount: aggregator.errorCount() })
      }
    },
  })
  await aggregator.addFile(file)
  const rest = aggregator.takeCosts()
  if (rest.costs.length > 0) postCosts(rest, aggregator.rowsRead(), aggregator.errorCount())
  post({ type: 'read', index, part: aggregator.part() })

  function postCosts(rows: KeyedCostRows, rowsRead: number, errorCount: number) {
    post({ type: 'costs', index, batch: writeBatch(rows), rowsRead, errorCount })
    unstored++
  }
}
