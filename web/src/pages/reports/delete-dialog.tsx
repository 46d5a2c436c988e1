import { useEffect, useRef, useState } from 'preact/hooks'
import { ProblemMessage } from '../../components/problem'
import { type Report, reportsApi } from './api'

/**
 * Asks before deleting a report with its runs and files. A modal <dialog>: focus moves into it (on "Keep it", the
 * harmless choice), stays there, Escape closes it, and focus returns to the Delete button afterwards.
 */
export function DeleteReportDialog(props: { report: Report; onDeleted: () => void; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null)
  const keep = useRef<HTMLButtonElement>(null)
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null
    dialog.current?.showModal()
    keep.current?.focus()
    return () => opener?.focus()
  }, [])

  const remove = async () => {
    setBusy(true)
    setError(null)
    try {
      await reportsApi.remove(props.report.id)
      dialog.current?.close()
      props.onDeleted()
    } catch (err) {
      setError(err)
      setBusy(false)
    }
  }

  return (
    <dialog
      ref={dialog}
      class="confirm"
      aria-labelledby="delete-report-title"
      aria-describedby="delete-report-what"
      onClose={props.onClose}
    >
      <h2 id="delete-report-title">Delete “{props.report.name}”?</h2>
      <p id="delete-report-what">Its definition, every run and their files go for good. This cannot be undone.</p>
      <ProblemMessage error={error} />
      <div class="actions">
        <button type="button" class="plain" ref={keep} onClick={() => dialog.current?.close()}>
          Keep it
        </button>
        <button type="button" class="danger" onClick={remove} disabled={busy}>
          {busy ? 'Deleting…' : 'Delete report'}
        </button>
      </div>
    </dialog>
  )
}
