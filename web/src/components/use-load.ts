import { useEffect, useState } from 'preact/hooks'

/**
 * What `load` answers for the current `deps`: loading while it runs, the error if it fails. An answer that comes
 * back after the deps changed is dropped, so a slow answer for old filters never replaces the one for new filters.
 */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): { data: T | null; loading: boolean; error: unknown } {
  const [state, setState] = useState<{ data: T | null; loading: boolean; error: unknown }>({
    data: null,
    loading: true,
    error: null,
  })
  useEffect(() => {
    let current = true
    setState((before) => ({ data: before.data, loading: true, error: null }))
    load().then(
      (data) => current && setState({ data, loading: false, error: null }),
      (error) => current && setState({ data: null, loading: false, error }),
    )
    return () => {
      current = false
    }
  }, deps)
  return state
}
