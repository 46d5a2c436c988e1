import { api } from '../../api'
import { Pager } from '../../components/pager'
import { ProblemMessage } from '../../components/problem'
import { useQueryFilters } from '../../components/query-filters'
import { useLoad } from '../../components/use-load'
import { onLinkClick } from '../../router'

/** Tenants on one page of the list. */
const PAGE_SIZE = 50

/** The tenants the signed-in user may see, as the API lists them, a page at a time (the page in the address). */
export function TenantsPage() {
  const [filters, setFilters] = useQueryFilters({ page: '1' })
  const { data: list, error } = useLoad(() => api.tenants(Number(filters.page) || 1, PAGE_SIZE), [filters.page])
  const tenants = list?.items ?? null

  return (
    <section aria-labelledby="tenants-title">
      <h1 id="tenants-title">Tenants</h1>
      <ProblemMessage error={error} />
      {!tenants && !error && <p class="status">Loading tenants…</p>}
      {list?.totalCount === 0 && <p class="status">No tenants yet, or none you have a role on.</p>}
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
      {list && <Pager page={list} noun="tenants" onPage={(page) => setFilters({ page: String(page) })} />}
    </section>
  )
}
