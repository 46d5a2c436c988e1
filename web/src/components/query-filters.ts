import { useEffect, useState } from 'preact/hooks'

/**
 * A list's filters kept in the address's query string, so that going back from a detail page, reloading or sharing
 * the address shows the same list. Empty values are left out of the address.
 */
export function useQueryFilters<T extends Record<string, string>>(defaults: T): [T, (changes: Partial<T>) => void] {
  const [filters, setFilters] = useState<T>(() => {
    const query = new URLSearchParams(location.search)
    const read = { ...defaults }
    for (const key of Object.keys(defaults) as (keyof T & string)[]) {
      const value = query.get(key)
      if (value !== null) read[key] = value as T[typeof key]
    }
    return read
  })
  useEffect(() => {
    const query = new URLSearchParams()
    for (const [key, value] of Object.entries(filters)) if (value && value !== defaults[key]) query.set(key, value)
    const search = query.size ? `?${query}` : ''
    if (search !== location.search) history.replaceState(null, '', location.pathname + search)
  }, [filters])
  return [filters, (changes) => setFilters((current) => ({ ...current, ...changes }))]
}
