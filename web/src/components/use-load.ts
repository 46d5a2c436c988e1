import { useEffect, useState } from 'preact/hooks'

/**
 * What `load` answers for the current `deps`: loading while it runs, the error if it fails. An answer that comes
 * back after the deps changed is dropped, so a slow answer for old filters never replaces the one for new filters.
 * `reload()` loads again (after a change the page made), showing what it has until the new answer comes.
 */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): { data: T | null; loading: boolean; error: unknown; reload: () => void } {
  const [state, setState] = useState<{ data: T | null; loading: boolean; error: unknown }>({
    data: null,
    loading: true,
    error: null,
  })
  const [version, setVersion] = useState(0)
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
  }, [...deps, version])
  return { ...state, reload: () => setVersion((v) => v + 1) }
}
