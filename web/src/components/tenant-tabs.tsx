import { onLinkClick, usePath } from '../router'

// Here rather than in routes.tsx, which imports the pages that show these tabs.
/** The pages of one tenant, as tabs under its name. */
export const TENANT_TABS: { suffix: string; label: string }[] = [
  { suffix: '', label: 'Costs' },
  { suffix: '/markers', label: 'Markers' },
  { suffix: '/inventory', label: 'Inventory' },
  { suffix: '/runs', label: 'Runs' },
]

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
