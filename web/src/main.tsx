import { render } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import 'uplot/dist/uPlot.min.css'
import './styles.css'
import { api, type Session, SIGNED_OUT_EVENT } from './api'
import { Layout } from './components/layout'
import { ProblemMessage } from './components/problem'
import { ExplorerPage } from './pages/explorer'
import { SignInPage } from './pages/sign-in'
import { TenantsPage } from './pages/tenants'
import { navigate, usePath } from './router'

function App() {
  const path = usePath()
  // undefined while the session is being looked up; null when signed out.
  const [session, setSession] = useState<Session | null | undefined>(undefined)
  const [error, setError] = useState<unknown>(null)

  useEffect(() => {
    const signedOut = () => setSession(null)
    addEventListener(SIGNED_OUT_EVENT, signedOut)
    return () => removeEventListener(SIGNED_OUT_EVENT, signedOut)
  }, [])

  useEffect(() => {
    api.currentSession().then(setSession, (err) => {
      setError(err)
      setSession(null)
    })
  }, [])

  useEffect(() => {
    if (session === null && path !== '/sign-in') navigate('/sign-in', { replace: true })
    if (session && (path === '/sign-in' || path === '/')) navigate('/tenants', { replace: true })
  }, [session, path])

  const signOut = async () => {
    try {
      await api.signOut()
    } finally {
      setSession(null)
    }
  }

  if (session === undefined) return <p class="status">Loading…</p>
  if (!session) {
    return (
      <Layout user={null}>
        <ProblemMessage error={error} />
        <SignInPage onSignedIn={setSession} />
      </Layout>
    )
  }
  const tenantId = /^\/tenants\/([^/]+)/.exec(path)?.[1]
  return (
    <Layout user={session.user} onSignOut={signOut}>
      {tenantId ? <ExplorerPage tenantId={decodeURIComponent(tenantId)} /> : <TenantsPage />}
    </Layout>
  )
}

render(<App />, document.getElementById('app')!)
