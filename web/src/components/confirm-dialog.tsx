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

  const opener = useRef<HTMLElement | null>(null)
  const gone = useRef(false)

  useEffect(() => {
    opener.current = document.activeElement as HTMLElement | null
    const element = dialog.current
    element?.showModal()
    cancel.current?.focus()
    return () => {
      // Closed before it leaves the page: while a modal dialog is open the rest of the page is inert, and a
      // focus() there would be ignored, leaving the focus on the page's body once the dialog is gone. The close
      // event that follows belongs to a dialog already gone, and must not close the next one.
      gone.current = true
      element?.close()
      opener.current?.focus()
    }
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
      // The browser may close it on Escape even so (a cancel it does not let the page refuse): the focus goes
      // back at once, not when the page next renders.
      onClose={() => {
        if (gone.current) return
        opener.current?.focus()
        props.onClose()
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
