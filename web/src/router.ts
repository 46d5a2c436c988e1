import { useEffect, useState } from 'preact/hooks'

/** The app's own history-based routing: a handful of paths need no library. */
export function navigate(path: string, options: { replace?: boolean } = {}) {
  if (options.replace) history.replaceState(null, '', path)
  else history.pushState(null, '', path)
  dispatchEvent(new PopStateEvent('popstate'))
}

export function usePath(): string {
  const [path, setPath] = useState(location.pathname)
  useEffect(() => {
    const update = () => setPath(location.pathname)
    addEventListener('popstate', update)
    return () => removeEventListener('popstate', update)
  }, [])
  return path
}

/** A link the router follows without reloading the page (a modified click still opens a new tab). */
export function onLinkClick(event: MouseEvent) {
  const link = event.currentTarget as HTMLAnchorElement
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  event.preventDefault()
  navigate(link.pathname + link.search)
}
