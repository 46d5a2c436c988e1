import { api } from '../api'
import { SelectFilter } from './select-filter'
import { useLoad } from './use-load'

/** The tenancies the user may see, for a list's tenant filter and the tenant names of its rows. */
export function useTenants() {
  const { data, loading, error } = useLoad(() => api.allTenants(), [])
  const tenants = data ?? []
  const nameOf = (id: string) => tenants.find((t) => t.id === id)?.name ?? 'Tenant'
  return { tenants, loading, error, nameOf }
}

/** A list's filter by tenant: all of them, or one of those the user may see. */
export function TenantFilter(props: {
  id: string
  tenants: readonly { id: string; name: string }[]
  value: string
  onChange(tenancyId: string): void
}) {
  return (
    <SelectFilter
      id={props.id}
      label="Tenant"
      value={props.value}
      anyLabel="All tenants"
      options={props.tenants.map((t) => ({ value: t.id, label: t.name }))}
      onChange={props.onChange}
    />
  )
}
