import { describe, expect, it } from 'vitest'
import { MAX_TAG_KEYS, MAX_VALUES_OF_ONE_KEY, MAX_VALUES_PER_KEY, summariseTags } from './tags.js'

const set = (tags: Record<string, string>, resources = 1) => ({ tags: JSON.stringify(tags), resources })

describe('summariseTags', () => {
  it('merges spellings of a key, shows the usual one, and counts a resource once per key', () => {
    const summary = summariseTags([
      set({ env: 'prod', Env: 'prod' }, 2),
      set({ env: 'dev' }, 5),
      set({ ENV: 'test' }, 1),
      { tags: null, resources: 9 },
      { tags: 'not json', resources: 3 },
    ])
    expect(summary).toEqual({
      keys: [{ key: 'env', resourceCount: 8, valueCount: 3, values: ['dev', 'prod', 'test'], valuesTruncated: false }],
      keysTruncated: false,
    })
  })

  it('keeps the most used keys and values when it cuts, and says so', () => {
    const sets = Array.from({ length: MAX_TAG_KEYS + 5 }, (_, i) =>
      set({ [`k${String(i).padStart(3, '0')}`]: 'v' }, i + 1),
    )
    const manyValues = Array.from({ length: MAX_VALUES_PER_KEY + 10 }, (_, i) =>
      set({ team: `t${i}` }, i === 7 ? 100 : 1),
    )
    const summary = summariseTags([...sets, ...manyValues])
    expect(summary.keys).toHaveLength(MAX_TAG_KEYS)
    expect(summary.keysTruncated).toBe(true)
    expect(summary.keys[0]!.key).toBe('k204') // the most used key first
    const team = summary.keys.find((k) => k.key === 'team')!
    expect(team).toMatchObject({ valueCount: MAX_VALUES_PER_KEY + 10, valuesTruncated: true })
    expect(team.values).toHaveLength(MAX_VALUES_PER_KEY)
    expect(team.values[0]).toBe('t7')
    expect(summary.keys.some((k) => k.key === 'k000')).toBe(false) // the least used fell off
  })

  it('gives one key, in any letter case, with up to 1,000 values', () => {
    const sets = Array.from({ length: MAX_VALUES_OF_ONE_KEY + 1 }, (_, i) => set({ Owner: `o${i}`, other: 'x' }))
    const summary = summariseTags(sets, { onlyKey: 'OWNER' })
    expect(summary.keys.map((k) => k.key)).toEqual(['Owner'])
    expect(summary.keys[0]).toMatchObject({ valueCount: MAX_VALUES_OF_ONE_KEY + 1, valuesTruncated: true })
    expect(summary.keys[0]!.values).toHaveLength(MAX_VALUES_OF_ONE_KEY)
  })
})
