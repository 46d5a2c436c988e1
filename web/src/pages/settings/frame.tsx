import type { ComponentChildren } from 'preact'
import { onLinkClick, usePath } from '../../router'

const SECTIONS = [
  { href: '/settings/keys', label: 'API keys' },
  { href: '/settings/users', label: 'Users' },
  { href: '/settings/audit', label: 'Audit log' },
]

/** The frame of every settings page: its title and the links between them. */
export function SettingsFrame(props: { title: string; children: ComponentChildren }) {
  // `/settings` shows the keys page, so its tab is the current one there too.
  const path = usePath().replace(/^\/settings\/?$/, '/settings/keys')
  return (
    <section aria-labelledby="settings-title">
      <p class="breadcrumb muted">Settings</p>
      <h1 id="settings-title">{props.title}</h1>
      <nav class="tabs" aria-label="Settings pages">
        {SECTIONS.map((section) => (
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
