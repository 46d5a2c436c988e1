/**
 * A reader thread of `readFocusFiles`: reads the files it is given, one at a time, each with an aggregator of its
 * own, and posts the summed cost rows in batches and, once a file is read, what else the file holds (its part).
 * It stays at most READ_AHEAD_BATCHES ahead of the thread that stores the batches, so memory does not grow when
 * storing is the slower side.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { KeyedCostRows } from '../types.js'
import { createCostBatchWriter } from './cost-batch.js'
import { createCostKeys, createFocusAggregator } from './parse.js'
import type { FromReader, ReaderSettings, ToReader } from './read.js'

const port = parentPort
if (!port) throw new Error('read-worker runs as a worker thread of readFocusFiles')
const settings = workerData as ReaderSettings

let unstored = 0
let reading = Promise.resolve()
let stored: (() => void) | null = null

port.on('message', (message: ToReader) => {
  if (message.type === 'stored') {
    unstored--
    stored?.()
    return
  }
  // Files given ahead are read one after the other.
  reading = reading
    .then(() => read(message.file, message.index))
    .catch((err: unknown) => {
      // An error of the reader itself (the aggregator reports a file's own problems as issues).
      setImmediate(() => {
        throw err
      })
    })
})

const writeBatch = createCostBatchWriter()
// One set of keys for every file this reader reads: each key is one object, numbered once in its batches.
const costKeys = createCostKeys()

function post(message: FromReader) {
  const { batch } = message.type === 'costs' ? message : { batch: null }
  port!.postMessage(message, batch ? [batch.keys.buffer, batch.rows.buffer, batch.costs.buffer] : [])
}

async function read(file: string, index: number): Promise<void> {
  let reported = 0
  const aggregator = createFocusAggregator({
    maxIssues: settings.maxIssues,
    checkCurrencies: false,
    costKeys,
    afterChunk: async ({ rowsRead, pendingCosts }) => {
      if (pendingCosts >= settings.batchRows) {
        reported = rowsRead
        postCosts(aggregator.takeCosts(), rowsRead, aggregator.errorCount())
        while (unstored >= settings.readAheadBatches) await new Promise<void>((resume) => (stored = resume))
        stored = null
      } else if (rowsRead - reported >= settings.progressRows) {
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
