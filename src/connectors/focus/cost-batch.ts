import { ownCopy } from '../../platform/text.js'
import type { ChargeCategory, ChargeClass, DailyCostRow } from '../types.js'

/**
 * A batch of cost rows as a reader thread posts it: each row's ten text fields as numbers in the reader's
 * dictionary of texts (-1 for null), its cost beside them, and the texts the dictionary gained since the last
 * batch. Two typed arrays move to the other thread without a copy, where 2,000 row objects were cloned one by
 * one: on the FOCUS benchmark's 553,000 rows that clone took 0.5 s of each reader, and the receiving thread got
 * new copies of every text, which it then hashed again to find each row's key (1.2 s of its own).
 */
export interface CostBatch {
  /** Texts new to the dictionary, numbered on from its size. */
  texts: string[]
  /** FIELDS.length numbers per row. */
  fields: Int32Array<ArrayBuffer>
  costs: Float64Array<ArrayBuffer>
}

/** The text fields of a cost row, in their order in a batch. */
const FIELDS = [
  'date',
  'subscriptionId',
  'resourceArmId',
  'resourceGroupName',
  'meterId',
  'meterName',
  'chargeCategory',
  'chargeClass',
  'serviceName',
  'currency',
] as const
const WIDTH = FIELDS.length

/**
 * Writes batches of one reader. Its dictionary holds each distinct text once (days, subscriptions, resources,
 * meters, services...): it grows with the estate, not with the files.
 */
export function createCostBatchWriter() {
  const numbers = new Map<string, number>()
  let texts: string[] = []
  const numberOf = (text: string | null): number => {
    if (text === null) return -1
    let n = numbers.get(text)
    if (n === undefined) {
      // An own copy: a text read from a file may be a view of its chunk, which it would keep alive.
      const own = ownCopy(text)
      n = numbers.size
      numbers.set(own, n)
      texts.push(own)
    }
    return n
  }
  return function write(rows: readonly DailyCostRow[]): CostBatch {
    const fields = new Int32Array(rows.length * WIDTH)
    const costs = new Float64Array(rows.length)
    let p = 0
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!
      fields[p++] = numberOf(row.date)
      fields[p++] = numberOf(row.subscriptionId)
      fields[p++] = numberOf(row.resourceArmId)
      fields[p++] = numberOf(row.resourceGroupName)
      fields[p++] = numberOf(row.meterId)
      fields[p++] = numberOf(row.meterName)
      fields[p++] = numberOf(row.chargeCategory)
      fields[p++] = numberOf(row.chargeClass)
      fields[p++] = numberOf(row.serviceName)
      fields[p++] = numberOf(row.currency)
      costs[i] = row.cost
    }
    const batch = { texts, fields, costs }
    texts = []
    return batch
  }
}

/**
 * Reads the batches of one reader, in the order it wrote them, back into rows. Rows share the text objects of
 * the dictionary, so looking them up again (the staging's keys) hashes each text once, not once a row.
 */
export function createCostBatchReader() {
  const dictionary: string[] = []
  return function read(batch: CostBatch): DailyCostRow[] {
    for (const text of batch.texts) dictionary.push(text)
    const { fields, costs } = batch
    const text = (n: number): string | null => (n < 0 ? null : dictionary[n]!)
    const rows: DailyCostRow[] = new Array(costs.length)
    for (let i = 0, p = 0; i < costs.length; i++, p += WIDTH) {
      rows[i] = {
        date: dictionary[fields[p]!]!,
        subscriptionId: dictionary[fields[p + 1]!]!,
        resourceArmId: text(fields[p + 2]!),
        resourceGroupName: text(fields[p + 3]!),
        meterId: dictionary[fields[p + 4]!]!,
        meterName: text(fields[p + 5]!),
        chargeCategory: dictionary[fields[p + 6]!] as ChargeCategory,
        chargeClass: text(fields[p + 7]!) as ChargeClass | null,
        serviceName: dictionary[fields[p + 8]!]!,
        cost: costs[i]!,
        currency: dictionary[fields[p + 9]!]!,
      }
    }
    return rows
  }
}
