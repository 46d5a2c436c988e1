import type { EventMarker } from '../../api'
import { formatInstant } from '../format'
import { CATEGORY_COLOURS, markerTag } from './markers'

/** The chart's markers as a list, for keyboards and screen readers; focusing one highlights it on the chart. */
export function MarkerList(props: {
  markers: EventMarker[]
  active: string | null
  onActivate(id: string | null): void
}) {
  if (props.markers.length === 0) return <p class="status">No event markers in this range.</p>
  return (
    <ul class="marker-list" aria-label="Event markers">
      {props.markers.map((marker) => (
        <li key={marker.id} id={`marker-${marker.id}`}>
          <button
            type="button"
            class={`marker-item${props.active === marker.id ? ' active' : ''}`}
            aria-pressed={props.active === marker.id}
            onFocus={() => props.onActivate(marker.id)}
            onMouseEnter={() => props.onActivate(marker.id)}
            onClick={() => props.onActivate(props.active === marker.id ? null : marker.id)}
          >
            <span class="swatch" style={{ background: CATEGORY_COLOURS[marker.category] }} aria-hidden="true" />
            <span class="marker-body">
              <span class="marker-title">{marker.title}</span>
              <span class="muted">
                {marker.category} · {formatInstant(marker.occurredAt)}
                {markerTag(marker) && ` · tag ${markerTag(marker)}`}
              </span>
              {marker.description && <span class="marker-description">{marker.description}</span>}
            </span>
          </button>
        </li>
      ))}
    </ul>
  )
}
