import { useEffect, useRef } from 'preact/hooks'
import { SIGNED_OUT_EVENT } from '../api'

/** How often an open, visible page asks whether what it shows changed. */
export const POLL_MS = 3000

/**
 * Asks `url` (under the app's API) every few seconds while the page is visible, with a conditional GET
 * (If-None-Match with the last ETag) that the server answers with a bodiless 304 until something changed, and
 * hands each full answer's body to `onAnswer`: the first one too, since what the page loaded may be older than it.
 * A hidden page stops asking and asks at once when shown again; a null `url` asks nothing. A new `url` starts
 * again without an ETag.
 */
export function useConditionalPoll<T>(url: string | null, onAnswer: (body: T) => void): void {
  // The latest callback, so that a page's re-render does not restart the polling.
  const latest = useRef(onAnswer)
  latest.current = onAnswer

  useEffect(() => {
    if (url === null) return
    const controller = new AbortController()
    let etag: string | null = null
    let timer: ReturnType<typeof setTimeout> | undefined
    let asking = false

    async function poll() {
      timer = undefined
      asking = true
      try {
        const res = await fetch(`/api/app${url}`, {
          headers: { Accept: 'application/json', ...(etag ? { 'If-None-Match': etag } : {}) },
          credentials: 'same-origin',
          signal: controller.signal,
        })
        if (res.status === 401) dispatchEvent(new Event(SIGNED_OUT_EVENT))
        if (res.status === 200) {
          const body = (await res.json()) as T
          etag = res.headers.get('ETag')
          if (!controller.signal.aborted) latest.current(body)
        }
      } catch {
        // Offline, or the page went away (aborted): the next turn asks again, if there is one.
      }
      asking = false
      schedule()
    }
    function schedule() {
      if (controller.signal.aborted || timer !== undefined) return
      if (document.visibilityState === 'visible') timer = setTimeout(poll, POLL_MS)
    }
    function onVisibility() {
      if (document.visibilityState !== 'visible') {
        clearTimeout(timer)
        timer = undefined
      } else if (timer === undefined && !asking) {
        void poll()
      }
    }

    schedule()
    document.addEventListener('visibilitychange', onVisibility)
    return () => {
      controller.abort()
      clearTimeout(timer)
      document.removeEventListener('visibilitychange', onVisibility)
    }
  }, [url])
}
