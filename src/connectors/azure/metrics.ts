import { addDays } from '../../platform/time.js'
import { ConnectorError, type CpuSample, type DayWindow } from '../types.js'
import type { ArmClient } from './http.js'
import { list, num, obj, page, str } from './json.js'

export const MONITOR_API = '2023-10-01'
const CPU_METRIC = 'Percentage CPU'
// Monitor allows 12,000 reads per hour per subscription; a few at a time keeps a large estate quick and polite.
const PARALLEL_READS = 4

/** Daily average and maximum CPU of each VM; a VM deleted since the inventory simply has no samples. */
export async function cpuSamples(
  arm: ArmClient,
  vmArmIds: string[],
  window: DayWindow,
  signal?: AbortSignal,
): Promise<CpuSample[]> {
  const samples: CpuSample[] = []
  let next = 0
  async function worker() {
    while (next < vmArmIds.length) {
      const vmArmId = vmArmIds[next++]!
      samples.push(...(await vmCpu(arm, vmArmId, window, signal)))
    }
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, vmArmIds.length) }, worker))
  return samples.sort((a, b) => a.resourceArmId.localeCompare(b.resourceArmId) || a.date.localeCompare(b.date))
}

async function vmCpu(arm: ArmClient, vmArmId: string, window: DayWindow, signal?: AbortSignal): Promise<CpuSample[]> {
  const what = `reading ${CPU_METRIC} of ${vmArmId}`
  const query = [
    `api-version=${MONITOR_API}`,
    `metricnames=${encodeURIComponent(CPU_METRIC)}`,
    'interval=P1D',
    'aggregation=Average,Maximum',
    `timespan=${window.from}T00:00:00Z/${addDays(window.to, 1)}T00:00:00Z`,
  ].join('&')
  const path = vmArmId.split('/').map(encodeURIComponent).join('/')
  const url = `${arm.origin}${path}/providers/Microsoft.Insights/metrics?${query}`
  const body = await arm.send({ method: 'GET', url, what, missingIsNull: true }, signal)
  if (body === null) return []
  const metric = list(page(body, what).value)
    .map(obj)
    .find((m) => str(obj(m.name).value)?.toLowerCase() === CPU_METRIC.toLowerCase())
  if (!metric) return []
  // A metric can fail inside a 200 (GetMetricError example): errorCode other than Success and no timeseries.
  const errorCode = str(metric.errorCode)
  if (errorCode && errorCode !== 'Success') {
    const message = str(metric.errorMessage)
    throw new ConnectorError(
      'provider_error',
      `Azure Monitor failed ${what}: ${errorCode}${message ? `: ${message}` : ''}.`,
    )
  }
  const samples: CpuSample[] = []
  for (const series of list(metric.timeseries).map(obj)) {
    for (const point of list(series.data).map(obj)) {
      const date = str(point.timeStamp)?.slice(0, 10)
      const average = num(point.average)
      // A deallocated VM reports days without values: no sample rather than a made-up zero.
      if (!date || date < window.from || date > window.to || average === null) continue
      samples.push({ resourceArmId: vmArmId, date, averagePercent: average, maxPercent: num(point.maximum) ?? average })
    }
  }
  return samples
}
