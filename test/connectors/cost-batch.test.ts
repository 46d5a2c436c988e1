import { describe, expect, it } from 'vitest'
import { createCostBatchReader, createCostBatchWriter } from '../../src/connectors/focus/cost-batch.js'
import { type CostRowKey, type KeyedCostRows, toDailyCostRows } from '../../src/connectors/types.js'

const vm: CostRowKey = {
  subscriptionId: 'sub-a',
  resourceArmId: '/subscriptions/sub-a/resourceGroups/App/providers/Microsoft.Compute/virtualMachines/vm-1',
  resourceGroupName: 'App',
  meterId: 'meter-vm',
  meterName: 'D2s v3',
  chargeCategory: 'Usage',
  chargeClass: null,
  serviceName: 'Virtual Machines',
  currency: 'EUR',
}
const refund: CostRowKey = { ...vm, chargeCategory: 'Credit', chargeClass: 'Correction' }
const support: CostRowKey = {
  ...vm,
  resourceArmId: null,
  resourceGroupName: null,
  meterId: 'support',
  meterName: null,
  chargeCategory: 'Purchase',
  serviceName: 'Support',
}

const keyed = (rows: [CostRowKey, string, number][]): KeyedCostRows => ({
  keys: rows.map((r) => r[0]),
  dates: rows.map((r) => r[1]),
  costs: Float64Array.from(rows, (r) => r[2]),
})

describe('cost batches between a reader thread and the thread that stores them', () => {
  it('carry rows as key and day numbers, each key described once, and read back into one object per key', () => {
    const write = createCostBatchWriter()
    const read = createCostBatchReader()
    const first = keyed([
      [vm, '2026-02-01', 1.5],
      [refund, '2026-02-01', -0.25],
      [vm, '2026-02-02', 2],
    ])
    const second = keyed([
      [vm, '2026-02-03', 3],
      [support, '2026-02-03', 100],
    ])
    const expected = [...toDailyCostRows(first), ...toDailyCostRows(second)]

    const firstBatch = write(first)
    expect(firstBatch.keys).toHaveLength(2 * 10)
    expect(firstBatch.rows).toHaveLength(3 * 2)
    const secondBatch = write(second)
    // Only the key the reader had not described yet, and only the texts new to its dictionary.
    expect(secondBatch.keys).toHaveLength(10)
    expect(secondBatch.texts).toEqual(expect.arrayContaining(['2026-02-03', 'support', 'Purchase', 'Support']))
    expect(secondBatch.texts).not.toContain('sub-a')

    const firstRead = read(firstBatch)
    const secondRead = read(secondBatch)
    expect([...toDailyCostRows(firstRead), ...toDailyCostRows(secondRead)]).toEqual(expected)
    // Rows of one key share one object, in a batch and across batches: the staging looks each key up once.
    expect(firstRead.keys[2]).toBe(firstRead.keys[0])
    expect(secondRead.keys[0]).toBe(firstRead.keys[0])
    expect(firstRead.keys[1]).not.toBe(firstRead.keys[0])
  })
})
