import type { EventCategory, EventMarker } from '../../api'

/** One colour per category, on the chart and in the list alike. */
export const CATEGORY_COLOURS: Record<EventCategory, string> = {
  Deployment: '#2563eb',
  Launch: '#15803d',
  Campaign: '#9333ea',
  Configuration: '#b45309',
  Incident: '#dc2626',
  Other: '#475569',
}

export function markerTag(marker: EventMarker): string | null {
  return marker.tagKey ? `${marker.tagKey}=${marker.tagValue ?? ''}` : null
}

export function formatInstant(iso: string): string {
  return `${new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC`
}

/** The day `days` before today (UTC), as YYYY-MM-DD. */
export function utcDay(daysAgo = 0): string {
  return new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10)
}

export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount)
  } catch {
    return `${amount.toFixed(2)} ${currency}`
  }
}
