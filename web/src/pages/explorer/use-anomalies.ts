import { useEffect, useState } from 'preact/hooks'
import type { ChartScope } from '../../components/chart-scope'
import { type Anomaly, chartAnomalies } from '../anomalies/api'

/**
 * The anomalies of what the chart shows (its scope and the scopes inside it) raised in its range; an error leaves
 * the chart as it is and is shown below it.
 */
export function useChartAnomalies(tenantId: string, scope: ChartScope, from: string, to: string) {
  const [anomalies, setAnomalies] = useState<Anomaly[]>([])
  const [error, setError] = useState<unknown>(null)
  const { text, subscriptionId } = scope
  useEffect(() => {
    let current = true
    setError(null)
    chartAnomalies(tenantId, { scope: text, subscriptionId }, from, to).then(
      (found) => current && setAnomalies(found),
      (err) => {
        if (!current) return
        setAnomalies([])
        setError(err)
      },
    )
    return () => {
      current = false
    }
  }, [tenantId, text, subscriptionId, from, to])
  return { anomalies, error }
}
