import { useEffect, useRef } from 'preact/hooks'

/** How often an open, visible page asks whether what it shows changed. */
export const POLL_MS = 3000

/** One conditional GET through the API client: the ETag to send (none at first) and the signal to stop it. */
export type ConditionalAsk<T> = (
  ifNoneMatch: string | null,
  signal: AbortSignal,
) => Promise<{ data?: T; response: Response }>

/**
 * Asks (`ask`, a GET of the API client, which handles a 401 as every call does) every few seconds while the page
 * is visible, with a conditional GET (If-None-Match with the last ETag) that the server answers with a bodiless
 * 304 until something changed, and hands each full answer's body to `onAnswer`: the first one too, since what the
 * page loaded may be older than it. A hidden page stops asking and asks at once when shown again; a null `key`
 * asks nothing. A new `key` (what is asked for) starts again without an ETag.
 */
export function useConditionalPoll<T>(key: string | null, ask: ConditionalAsk<T>, onAnswer: (body: T) => void): void {
  // The latest callbacks, so that a page's re-render does not restart the polling.
  const latest = useRef({ ask, onAnswer })
  latest.current = { ask, onAnswer }

  useEffect(() => {
    if (key === null) return
    const controller = new AbortController()
    let etag: string | null = null
    let timer: ReturnType<typeof setTimeout> | undefined
    let asking = false

    async function poll() {
      timer = undefined
      asking = true
      try {
        const { data, response } = await latest.current.ask(etag, controller.signal)
        if (response.status === 200 && data !== undefined) {
          etag = response.headers.get('ETag')
          if (!controller.signal.aborted) latest.current.onAnswer(data)
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
  }, [key])
}
