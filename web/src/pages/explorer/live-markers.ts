import { useEffect, useState } from 'preact/hooks'
import { type CostSeries, type EventMarker, SIGNED_OUT_EVENT } from '../../api'

/** How often an open, visible chart asks whether its markers changed. */
export const LIVE_MARKERS_POLL_MS = 3000

/**
 * The series with its markers kept current: while the page is visible, every few seconds a conditional GET of the
 * chart's markers (If-None-Match with the last ETag) that the server answers with a bodiless 304 until a marker of
 * the tenant is created, changed or deleted, by any server process. A hidden page stops asking and asks at once
 * when shown again. Returns the given series itself until its markers differ, so the chart is redrawn only then.
 */
export function useLiveMarkers(
  tenantId: string,
  scope: { text: string; subscriptionId: string | null },
  series: CostSeries | null,
): CostSeries | null {
  const [live, setLive] = useState<{ base: CostSeries; shown: CostSeries } | null>(null)

  useEffect(() => {
    if (!series) return
    const controller = new AbortController()
    // The markers of the chart's own scope: a tag-scoped marker belongs on a matching resource's chart only.
    const params = new URLSearchParams({
      scope: scope.text,
      from: `${series.from}T00:00:00.000Z`,
      to: `${series.to}T23:59:59.999Z`,
    })
    if (scope.subscriptionId) params.set('subscriptionId', scope.subscriptionId)
    const url = `/api/app/tenants/${encodeURIComponent(tenantId)}/events/visible?${params}`
    let etag: string | null = null
    let shownMarkers = JSON.stringify(series.markers)
    let timer: ReturnType<typeof setTimeout> | undefined
    let asking = false

    async function poll() {
      timer = undefined
      asking = true
      try {
        const res = await fetch(url, {
          headers: { Accept: 'application/json', ...(etag ? { 'If-None-Match': etag } : {}) },
          credentials: 'same-origin',
          signal: controller.signal,
        })
        if (res.status === 401) dispatchEvent(new Event(SIGNED_OUT_EVENT))
        if (res.status === 200) {
          etag = res.headers.get('ETag')
          const markers = ((await res.json()) as { items: EventMarker[] }).items
          const text = JSON.stringify(markers)
          if (text !== shownMarkers) {
            shownMarkers = text
            setLive({ base: series!, shown: { ...series!, markers } })
          }
        }
      } catch {
        // Offline, or the chart went away (aborted): the next turn asks again, if there is one.
      }
      asking = false
      schedule()
    }
    function schedule() {
      if (controller.signal.aborted || timer !== undefined) return
      if (document.visibilityState === 'visible') timer = setTimeout(poll, LIVE_MARKERS_POLL_MS)
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
  }, [tenantId, scope.text, scope.subscriptionId, series])

  return live && live.base === series ? live.shown : series
}
