import { useState } from 'preact/hooks'
import { api, type Session } from '../../api'
import { ProblemMessage } from '../../components/problem'

/** Sign-in with e-mail and password, and "forgot password", which e-mails a link to set a new one. */
export function SignInPage({ onSignedIn }: { onSignedIn(session: Session): void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [resetSent, setResetSent] = useState(false)

  const signIn = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      onSignedIn(await api.signIn(email, password))
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  const forgotPassword = async () => {
    setError(null)
    setResetSent(false)
    if (!email) {
      setError(new Error('Enter your e-mail address first, then choose "Forgot password".'))
      return
    }
    setBusy(true)
    try {
      await api.requestPasswordReset(email)
      setResetSent(true)
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section class="card narrow" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in</h1>
      <form onSubmit={signIn}>
        <label for="email">E-mail address</label>
        <input
          id="email"
          type="email"
          autocomplete="username"
          required
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <label for="password">Password</label>
        <input
          id="password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <ProblemMessage error={error} />
        {resetSent && (
          <p class="notice" role="status">
            A link to set your password is on its way to {email}, if it belongs to an account.
          </p>
        )}
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
          <button type="button" class="link" onClick={forgotPassword} disabled={busy}>
            Forgot password?
          </button>
        </div>
      </form>
    </section>
  )
}
