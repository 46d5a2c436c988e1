import { onLinkClick, usePath } from '../router'
import { TENANT_TABS } from '../routes'

/** The tabs of one tenant's pages (costs, markers, inventory…), the current one marked for screen readers too. */
export function TenantTabs({ tenantId }: { tenantId: string }) {
  const path = usePath()
  const base = `/tenants/${encodeURIComponent(tenantId)}`
  return (
    <nav class="tabs" aria-label="Tenant pages">
      {TENANT_TABS.map((tab) => {
        const href = base + tab.suffix
        const current = tab.suffix ? path.startsWith(href) : path === href
        return (
          <a key={tab.suffix} href={href} onClick={onLinkClick} aria-current={current ? 'page' : undefined}>
            {tab.label}
          </a>
        )
      })}
    </nav>
  )
}
