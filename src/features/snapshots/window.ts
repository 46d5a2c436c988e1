import { addDays } from '../../platform/time.js'

export const DEEP_HISTORY_DAYS = 30
const RESTATED_DAYS = 3 // providers restate the last few days, so every run collects them again

/**
 * The days a run collects, ending today (UTC). Deep history: the 30 days before today, or from `historyFrom` when
 * the run was queued with its own first day (the demo's longer history; a retried deep run keeps its first day).
 * Otherwise from the last successful run's period end, at most 30 days back and at least the last 3 days; a first
 * run takes 30 days.
 */
export function collectionWindow(
  today: string,
  deepHistory: boolean,
  lastPeriodEnd: string | null,
  historyFrom: string | null = null,
): { from: string; to: string } {
  const earliest = addDays(today, -DEEP_HISTORY_DAYS)
  if (deepHistory && historyFrom !== null && historyFrom <= today) return { from: historyFrom, to: today }
  if (deepHistory || lastPeriodEnd === null) return { from: earliest, to: today }
  const restated = addDays(today, -(RESTATED_DAYS - 1))
  const from = lastPeriodEnd < earliest ? earliest : lastPeriodEnd > restated ? restated : lastPeriodEnd
  return { from, to: today }
}
