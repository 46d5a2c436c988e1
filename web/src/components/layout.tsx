import type { ComponentChildren } from 'preact'
import type { SessionUser } from '../api'
import { onLinkClick, usePath } from '../router'
import { NAV } from '../routes'

export function Layout(props: { user: SessionUser | null; onSignOut?: () => void; children: ComponentChildren }) {
  const path = usePath()
  const user = props.user
  return (
    <>
      <header class="topbar">
        <a class="brand" href="/overview" onClick={onLinkClick}>
          Costwatch
        </a>
        {user && (
          <nav class="sections" aria-label="Sections">
            {NAV.filter((item) => !item.ownersOnly || user.isOwner || item.othersHref).map((item) => (
              <a
                key={item.href}
                href={!item.ownersOnly || user.isOwner ? item.href : item.othersHref}
                onClick={onLinkClick}
                aria-current={path.startsWith(item.prefix) ? 'page' : undefined}
              >
                {item.label}
              </a>
            ))}
          </nav>
        )}
        {user && (
          <div class="account">
            <span class="account-name">{user.displayName ?? user.email}</span>
            <button type="button" class="secondary" onClick={props.onSignOut}>
              Sign out
            </button>
          </div>
        )}
      </header>
      <main>{props.children}</main>
    </>
  )
}
