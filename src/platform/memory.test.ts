import { getHeapStatistics } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { collectGarbage } from './memory.js'

const usedMb = () => getHeapStatistics().used_heap_size / 2 ** 20

describe('collectGarbage', () => {
  it('frees the old space that objects dropped after a long step hold, without --expose-gc', () => {
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined()
    // Objects kept through many young-generation collections, as a step's keys are, then dropped.
    let step: { id: number; name: string }[] | null = []
    for (let i = 0; i < 1_000_000; i++) step.push({ id: i, name: `resource-${i}` })
    const held = usedMb()
    step = null
    collectGarbage()
    expect(usedMb()).toBeLessThan(held - 40)
    // The process's own global is left as it was.
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined()
  })
})
