import type { ComponentChildren } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { ProblemMessage } from './problem'
import './confirm-dialog.css'

/**
 * A modal question before an action that cannot be undone (revoking a key, deleting a marker or a report). The browser's own
 * modal dialog keeps the focus inside and closes on Escape; the focus starts on "Cancel", the safe answer, and goes
 * back to where it was when the dialog closes.
 */
export function ConfirmDialog(props: {
  title: string
  children: ComponentChildren
  confirmLabel: string
  /** The safe answer's words; "Cancel" unless the question reads better with others ("Keep it"). */
  cancelLabel?: string
  /** Runs the action; the dialog stays open with the problem in words when it fails. */
  onConfirm(): Promise<void>
  onClose(): void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const cancel = useRef<HTMLButtonElement>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null
    dialog.current?.showModal()
    cancel.current?.focus()
    return () => opener?.focus()
  }, [])

  const confirm = async () => {
    setBusy(true)
    setError(null)
    try {
      await props.onConfirm()
      props.onClose()
    } catch (err) {
      setError(err)
      setBusy(false)
    }
  }

  return (
    <dialog
      ref={dialog}
      class="confirm-dialog"
      aria-labelledby="confirm-title"
      onCancel={(event) => {
        event.preventDefault()
        if (!busy) props.onClose()
      }}
    >
      <h2 id="confirm-title">{props.title}</h2>
      <div>{props.children}</div>
      <ProblemMessage error={error} />
      <div class="dialog-actions">
        <button ref={cancel} type="button" class="plain" onClick={props.onClose} disabled={busy}>
          {props.cancelLabel ?? 'Cancel'}
        </button>
        <button type="button" class="danger" onClick={confirm} disabled={busy}>
          {busy ? 'Working…' : props.confirmLabel}
        </button>
      </div>
    </dialog>
  )
}
