import type { ComponentChildren } from 'preact'
import { onLinkClick, usePath } from '../../router'

const SECTIONS = [
  { href: '/settings/keys', label: 'API keys', ownersOnly: true },
  { href: '/settings/users', label: 'Users', ownersOnly: true },
  { href: '/settings/notifications', label: 'Notifications', ownersOnly: false },
  { href: '/settings/audit', label: 'Audit log', ownersOnly: true },
]

/** The frame of every settings page: its title and the links between them (to a non-owner, Notifications alone). */
export function SettingsFrame(props: { title: string; children: ComponentChildren; isOwner?: boolean }) {
  // `/settings` shows the keys page, so its tab is the current one there too.
  const path = usePath().replace(/^\/settings\/?$/, '/settings/keys')
  return (
    <section aria-labelledby="settings-title">
      <p class="breadcrumb muted">Settings</p>
      <h1 id="settings-title">{props.title}</h1>
      <nav class="tabs" aria-label="Settings pages">
        {SECTIONS.filter((section) => props.isOwner !== false || !section.ownersOnly).map((section) => (
          <a
            key={section.href}
            href={section.href}
            onClick={onLinkClick}
            aria-current={path === section.href ? 'page' : undefined}
          >
            {section.label}
          </a>
        ))}
      </nav>
      {props.children}
    </section>
  )
}
