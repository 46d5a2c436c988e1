import { render } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import 'uplot/dist/uPlot.min.css'
import './styles.css'
import { api, type Session, SIGNED_OUT_EVENT } from './api'
import { Layout } from './components/layout'
import { usePageTitle } from './components/page-title'
import { ProblemMessage } from './components/problem'
import { SignInPage } from './pages/sign-in'
import { navigate, onLinkClick, usePath } from './router'
import { matchRoute } from './routes'

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
    // Signed in, people land on the overview.
    if (session && (path === '/sign-in' || path === '/')) navigate('/overview', { replace: true })
  }, [session, path])

  // The title names the page: in the tab, the history and what a screen reader announces on arrival.
  const match = session ? matchRoute(path) : null
  let pageName = 'Sign in'
  if (session) pageName = match ? match.route.title : 'No such page'
  if (match?.route.ownersOnly && !session?.user.isOwner) pageName = 'For owners only'
  usePageTitle(session === undefined ? null : pageName)

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
  let content = match?.route.page({ params: match.params, user: session.user })
  if (!match || (match.route.ownersOnly && !session.user.isOwner)) content = <NotFound title={pageName} />
  return (
    <Layout user={session.user} onSignOut={signOut}>
      {content}
    </Layout>
  )
}

function NotFound({ title }: { title: string }) {
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">{title}</h1>
      <p>
        <a href="/tenants" onClick={onLinkClick}>
          Back to the tenants
        </a>
      </p>
    </section>
  )
}

render(<App />, document.getElementById('app')!)
