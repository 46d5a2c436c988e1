import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'

/**
 * A secret the server shows this once (a new API key, a webhook's signing secret), in a read-only box with a copy
 * button and the warning; `what` names it in the fallback ("select the key and copy it yourself").
 */
export function ShownOnce(props: {
  id: string
  title: ComponentChildren
  children: ComponentChildren
  label: string
  value: string
  what: string
  onDone(): void
}) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null)
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard')
      await navigator.clipboard.writeText(props.value)
      setCopied('yes')
    } catch {
      setCopied('failed')
    }
  }
  return (
    <section class="card secret" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      {props.children}
      <label for={props.id}>{props.label}</label>
      <div class="secret-row">
        <input
          id={props.id}
          readOnly
          value={props.value}
          spellcheck={false}
          autocomplete="off"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p role="status" class="muted">
        {copied === 'yes' && 'Copied to the clipboard.'}
        {copied === 'failed' &&
          `This browser did not let the page copy it: select the ${props.what} and copy it yourself.`}
      </p>
      <div class="actions">
        <button type="button" class="plain" onClick={props.onDone}>
          Done, I have saved it
        </button>
      </div>
    </section>
  )
}
