import { useEffect, useRef, useState } from 'preact/hooks'
import { api, type SessionUser } from '../../api'
import { Pager } from '../../components/pager'
import { ProblemMessage } from '../../components/problem'
import { useQueryFilters } from '../../components/query-filters'
import { useLoad } from '../../components/use-load'
import { navigate, onLinkClick } from '../../router'
import { sourceInWords } from './api'
import { ConnectTenantForm } from './connect'
import './tenants.css'

/** Tenants on one page of the list. */
const PAGE_SIZE = 50

/**
 * The tenants the signed-in user may see, as the API lists them, a page at a time (the page in the address), each
 * with where its costs come from. Owners connect new ones here.
 */
export function TenantsPage({ user }: { user: SessionUser }) {
  const [filters, setFilters] = useQueryFilters({ page: '1' })
  const { data: list, error } = useLoad(() => api.tenants(Number(filters.page) || 1, PAGE_SIZE), [filters.page])
  const tenants = list?.items ?? null
  const [connecting, setConnecting] = useState(false)
  const formRef = useRef<HTMLDivElement>(null)
  // The form appears where the button was: keyboard focus goes to its first field.
  useEffect(() => {
    if (connecting) formRef.current?.querySelector('input')?.focus()
  }, [connecting])

  return (
    <section aria-labelledby="tenants-title" class="tenants-page">
      <h1 id="tenants-title">Tenants</h1>
      {user.isOwner && !connecting && (
        <p>
          <button type="button" onClick={() => setConnecting(true)}>
            Connect a tenant
          </button>
        </p>
      )}
      {connecting && (
        <div ref={formRef}>
          <ConnectTenantForm
            onCancel={() => setConnecting(false)}
            onConnected={(tenant) => navigate(`/tenants/${encodeURIComponent(tenant.id)}/runs`)}
          />
        </div>
      )}
      <ProblemMessage error={error} />
      {!tenants && !error && <p class="status">Loading tenants…</p>}
      {list?.totalCount === 0 && <p class="status">No tenants yet, or none you have a role on.</p>}
      {tenants && tenants.length > 0 && (
        <ul class="tenant-list">
          {tenants.map((tenant) => (
            <li key={tenant.id}>
              <a href={`/tenants/${encodeURIComponent(tenant.id)}`} onClick={onLinkClick}>
                <span class="tenant-name">{tenant.name}</span>
                <span class="muted">
                  {sourceInWords(tenant)}
                  {tenant.cloudTenantId ? ` · ${tenant.cloudTenantId}` : ''}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {list && <Pager page={list} noun="tenants" onPage={(page) => setFilters({ page: String(page) })} />}
    </section>
  )
}
