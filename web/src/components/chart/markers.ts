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
