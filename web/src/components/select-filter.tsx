/** One labelled choice of a list's filters, its first option ("Any …") meaning no filter. */
export function SelectFilter(props: {
  id: string
  label: string
  value: string
  anyLabel: string
  options: readonly (string | { value: string; label: string })[]
  onChange(value: string): void
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">{props.anyLabel}</option>
        {props.options.map((option) => {
          const { value, label } = typeof option === 'string' ? { value: option, label: option } : option
          return (
            <option key={value} value={value}>
              {label}
            </option>
          )
        })}
      </select>
    </div>
  )
}
