import type { ComponentChildren } from 'preact'
import type { SessionUser } from '../api'
import { onLinkClick } from '../router'

export function Layout(props: { user: SessionUser | null; onSignOut?: () => void; children: ComponentChildren }) {
  return (
    <>
      <header class="topbar">
        <a class="brand" href="/tenants" onClick={onLinkClick}>
          Costwatch
        </a>
        {props.user && (
          <div class="account">
            <span class="account-name">{props.user.displayName ?? props.user.email}</span>
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
