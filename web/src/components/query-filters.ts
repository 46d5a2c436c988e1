import { useMemo } from 'preact/hooks'
import { replaceSearch, useSearchParams } from './search-params'

/**
 * A list's filters kept in the address's query string, so that going back from a detail page, reloading or sharing
 * the address shows the same list. Read from the address itself (no copy to fall out of step); a value equal to
 * its default is left out of the address.
 */
export function useQueryFilters<T extends Record<string, string>>(defaults: T): [T, (changes: Partial<T>) => void] {
  const search = useSearchParams()
  lastSearch.set(window.location.pathname, search.toString())
  const filters = useMemo(() => {
    const read = { ...defaults }
    for (const key of Object.keys(defaults) as (keyof T & string)[]) {
      const value = search.get(key)
      if (value !== null) read[key] = value as T[typeof key]
    }
    return read
  }, [search])
  const setFilters = (changes: Partial<T>) => {
    const next: Record<string, string | null> = { ...filters, ...changes }
    for (const [key, value] of Object.entries(next)) if (value === defaults[key]) next[key] = null
    replaceSearch(next)
  }
  return [filters, setFilters]
}

/** Each list's query as last shown, so a detail page's "All …" link returns to the list its reader came from. */
const lastSearch = new Map<string, string>()

/** The address of the list at `path` with the filters it last had in this page's life. */
export function listHref(path: string): string {
  const search = lastSearch.get(path)
  return search ? `${path}?${search}` : path
}
