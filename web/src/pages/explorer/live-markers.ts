import { useState } from 'preact/hooks'
import { type CostSeries, client } from '../../api'
import { useConditionalPoll } from '../../components/use-conditional-poll'

/**
 * The series with its markers kept current: while the page is visible, every few seconds a conditional GET of the
 * chart's markers (useConditionalPoll) that the server answers with a bodiless 304 until a marker of the tenant is
 * created, changed or deleted, by any server process. Returns the given series itself until its markers differ, so
 * the chart is redrawn only then.
 */
export function useLiveMarkers(
  tenantId: string,
  scope: { text: string; subscriptionId: string | null },
  series: CostSeries | null,
): CostSeries | null {
  const [live, setLive] = useState<{ base: CostSeries; shown: CostSeries } | null>(null)
  const shown = live && live.base === series ? live.shown : series

  // The markers of the chart's own scope: a tag-scoped marker belongs on a matching resource's chart only.
  const query = series && {
    scope: scope.text,
    from: `${series.from}T00:00:00.000Z`,
    to: `${series.to}T23:59:59.999Z`,
    ...(scope.subscriptionId ? { subscriptionId: scope.subscriptionId } : {}),
  }
  useConditionalPoll(
    query && JSON.stringify([tenantId, query]),
    (ifNoneMatch, signal) =>
      client.GET('/tenants/{tenantId}/events/visible', {
        params: { path: { tenantId }, query: query ?? { scope: scope.text } },
        headers: ifNoneMatch ? { 'If-None-Match': ifNoneMatch } : {},
        signal,
      }),
    ({ items }) => {
      if (!series || !shown) return
      if (JSON.stringify(items) !== JSON.stringify(shown.markers)) {
        setLive({ base: series, shown: { ...series, markers: items } })
      }
    },
  )

  return shown
}
