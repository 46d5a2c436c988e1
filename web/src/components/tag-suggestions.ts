import { useEffect, useState } from 'preact/hooks'
import { answer, client } from '../api'

/**
 * The tenant's tags as a tag filter writes them (`key` and `key:value`), most used keys first, from `GET .../tags`:
 * suggestions for a filter field. Empty until they arrive, and when they cannot (a suggestion is never worth an
 * error on the page).
 */
export function useTagSuggestions(tenantId: string): string[] {
  const [suggestions, setSuggestions] = useState<string[]>([])
  useEffect(() => {
    let current = true
    answer(client.GET('/tenants/{tenantId}/tags', { params: { path: { tenantId } } })).then(
      (tags) => current && setSuggestions(tags.keys.flatMap((k) => [k.key, ...k.values.map((v) => `${k.key}:${v}`)])),
      () => current && setSuggestions([]),
    )
    return () => {
      current = false
    }
  }, [tenantId])
  return suggestions
}
