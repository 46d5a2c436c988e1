import { parseTags } from './store.js'

/** Keys in one answer without `key`: enough for a picker, small enough to send on every form. */
export const MAX_TAG_KEYS = 200
/** Values per key in the answer without `key`. */
export const MAX_VALUES_PER_KEY = 50
/** Values of the one key asked for with `key`. */
export const MAX_VALUES_OF_ONE_KEY = 1000

export interface TagValueSummary {
  key: string
  resourceCount: number
  valueCount: number
  values: string[]
  valuesTruncated: boolean
}

export interface TagSummary {
  keys: TagValueSummary[]
  keysTruncated: boolean
}

/** Most used first, then by text, so the cut of a long list keeps what most resources carry. */
function byUse<T extends { name: string; count: number }>(a: T, b: T): number {
  return b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
}

/**
 * The tag keys of a set of resources with their distinct values, from the distinct tag sets and how many
 * resources carry each. Keys are one key whatever their letter case (Azure tag names are case-insensitive, and
 * markers match them so), shown in the spelling most resources use; values are exact. With `onlyKey`, that key
 * alone, with up to 1,000 values.
 */
export function summariseTags(
  sets: readonly { tags: string | null; resources: number }[],
  options: { onlyKey?: string } = {},
): TagSummary {
  const only = options.onlyKey?.toLowerCase()
  const keys = new Map<string, { spellings: Map<string, number>; values: Map<string, number>; resources: number }>()
  for (const set of sets) {
    const counted = new Set<string>()
    for (const [key, value] of Object.entries(parseTags(set.tags))) {
      const lower = key.toLowerCase()
      if (only !== undefined && lower !== only) continue
      let entry = keys.get(lower)
      if (!entry) {
        entry = { spellings: new Map(), values: new Map(), resources: 0 }
        keys.set(lower, entry)
      }
      entry.spellings.set(key, (entry.spellings.get(key) ?? 0) + set.resources)
      // A resource with two spellings of one key (env and Env) is one resource carrying the key (and the value).
      if (!counted.has(`${lower}\0${value}`)) entry.values.set(value, (entry.values.get(value) ?? 0) + set.resources)
      if (!counted.has(lower)) entry.resources += set.resources
      counted.add(lower).add(`${lower}\0${value}`)
    }
  }
  const maxValues = only !== undefined ? MAX_VALUES_OF_ONE_KEY : MAX_VALUES_PER_KEY
  const summaries = [...keys.values()].map((entry) => {
    const spelling = [...entry.spellings].map(([name, count]) => ({ name, count })).sort(byUse)[0]!.name
    const values = [...entry.values].map(([name, count]) => ({ name, count })).sort(byUse)
    return {
      key: spelling,
      resourceCount: entry.resources,
      valueCount: values.length,
      values: values.slice(0, maxValues).map((v) => v.name),
      valuesTruncated: values.length > maxValues,
    }
  })
  summaries.sort((a, b) => byUse({ name: a.key, count: a.resourceCount }, { name: b.key, count: b.resourceCount }))
  return { keys: summaries.slice(0, MAX_TAG_KEYS), keysTruncated: summaries.length > MAX_TAG_KEYS }
}
