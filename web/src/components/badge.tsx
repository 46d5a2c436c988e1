import './findings.css'

/** A severity or status as a small coloured label; the word itself carries the meaning, the colour only helps. */
export function Badge({ value, kind }: { value: string; kind: 'severity' | 'status' }) {
  return <span class={`badge ${kind}-${value.toLowerCase()}`}>{value}</span>
}
