import { useEffect, useState } from 'preact/hooks'
import { type Anomaly, anomaliesBetween } from '../anomalies/api'

/** The tenant's anomalies raised in the chart's range; an error leaves the chart as it is and is shown below it. */
export function useChartAnomalies(tenantId: string, from: string, to: string) {
  const [anomalies, setAnomalies] = useState<Anomaly[]>([])
  const [error, setError] = useState<unknown>(null)
  useEffect(() => {
    let current = true
    setError(null)
    anomaliesBetween(tenantId, from, to).then(
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
  }, [tenantId, from, to])
  return { anomalies, error }
}
