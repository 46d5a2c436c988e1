import { useEffect, useMemo, useState } from 'preact/hooks'
import { navigate } from '../router'

/**
 * The page URL's query string, kept current as links and history change it (`usePath` sees only the path), so a
 * page can keep its filters and scope in the address: a link or a reload shows the same thing.
 */
export function useSearchParams(): URLSearchParams {
  const [search, setSearch] = useState(location.search)
  useEffect(() => {
    const update = () => setSearch(location.search)
    addEventListener('popstate', update)
    return () => removeEventListener('popstate', update)
  }, [])
  return useMemo(() => new URLSearchParams(search), [search])
}

export type SearchValue = string | number | null | undefined | readonly string[]

/** The current path with `params` as its query string; empty values are left out, a list repeats its name. */
export function withSearch(path: string, params: Record<string, SearchValue>): string {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== null && one !== undefined && one !== '') query.append(name, String(one))
    }
  }
  const text = query.toString()
  return text ? `${path}?${text}` : path
}

/** Changes the query string in place (a filter, not a new page: the back button skips it). */
export function replaceSearch(params: Record<string, SearchValue>) {
  navigate(withSearch(location.pathname, params), { replace: true })
}
