import { useEffect, useState } from 'preact/hooks'
import { api, type Tenant } from '../../api'
import { ProblemMessage } from '../../components/problem'
import { onLinkClick } from '../../router'

/** The tenants the signed-in user may see, as the API lists them. */
export function TenantsPage() {
  const [tenants, setTenants] = useState<Tenant[] | null>(null)
  const [error, setError] = useState<unknown>(null)

  useEffect(() => {
    api.tenants().then((page) => setTenants(page.items), setError)
  }, [])

  return (
    <section aria-labelledby="tenants-title">
      <h1 id="tenants-title">Tenants</h1>
      <ProblemMessage error={error} />
      {!tenants && !error && <p class="status">Loading tenants…</p>}
      {tenants?.length === 0 && <p class="status">No tenants yet, or none you have a role on.</p>}
      {tenants && tenants.length > 0 && (
        <ul class="tenant-list">
          {tenants.map((tenant) => (
            <li key={tenant.id}>
              <a href={`/tenants/${encodeURIComponent(tenant.id)}`} onClick={onLinkClick}>
                <span class="tenant-name">{tenant.name}</span>
                <span class="muted">{tenant.cloudTenantId}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
