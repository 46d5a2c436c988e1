import { addDays } from '../../platform/time.js'
import { ConnectorError, type CpuSample, type DayWindow } from '../types.js'
import type { ArmClient } from './http.js'
import { list, num, obj, page, str } from './json.js'

export const MONITOR_API = '2023-10-01'
const CPU_METRIC = 'Percentage CPU'
// Monitor allows 12,000 reads per hour per subscription; a few at a time keeps a large estate quick and polite.
const PARALLEL_READS = 4

/** Daily average, maximum and p95 CPU of each VM; a VM deleted since the inventory simply has no samples. */
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

/** Nearest-rank 95th percentile (the value at rank ceil(0.95 n) of the sorted values). */
export function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(1, Math.ceil(0.95 * sorted.length)) - 1]!
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6

/**
 * The day's sample from its hours: the average of the hourly averages (every hour holds the same number of
 * one-minute values), the largest hourly maximum, and the 95th percentile of the hourly averages. Monitor's
 * metrics API has no percentile aggregation (Average, Minimum, Maximum, Total, Count only), so the p95 is
 * computed here, from the hourly grain, the finest it serves for a month in one request.
 */
function daySample(vmArmId: string, date: string, hours: { average: number; maximum: number }[]): CpuSample {
  const averages = hours.map((h) => h.average)
  return {
    resourceArmId: vmArmId,
    date,
    averagePercent: round6(averages.reduce((sum, v) => sum + v, 0) / averages.length),
    maxPercent: round6(Math.max(...hours.map((h) => h.maximum))),
    p95Percent: round6(p95(averages)),
  }
}

async function vmCpu(arm: ArmClient, vmArmId: string, window: DayWindow, signal?: AbortSignal): Promise<CpuSample[]> {
  const what = `reading ${CPU_METRIC} of ${vmArmId}`
  const query = [
    `api-version=${MONITOR_API}`,
    `metricnames=${encodeURIComponent(CPU_METRIC)}`,
    'interval=PT1H',
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
  const hoursByDay = new Map<string, { average: number; maximum: number }[]>()
  for (const series of list(metric.timeseries).map(obj)) {
    for (const point of list(series.data).map(obj)) {
      const date = str(point.timeStamp)?.slice(0, 10)
      const average = num(point.average)
      // A deallocated VM reports hours without values: no sample rather than a made-up zero.
      if (!date || date < window.from || date > window.to || average === null) continue
      const hours = hoursByDay.get(date) ?? []
      hours.push({ average, maximum: num(point.maximum) ?? average })
      hoursByDay.set(date, hours)
    }
  }
  return [...hoursByDay].map(([date, hours]) => daySample(vmArmId, date, hours))
}
