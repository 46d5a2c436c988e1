import type { TenancyRole, Tenant } from '../../api'

const ROLES: TenancyRole[] = ['Viewer', 'Editor', 'Admin']

/** One role select per tenancy ("No role" leaves it out). */
export function RoleChoices(props: {
  tenants: Tenant[]
  roles: Record<string, TenancyRole | ''>
  onChange(roles: Record<string, TenancyRole | ''>): void
  legend: string
  idPrefix: string
}) {
  if (props.tenants.length === 0) return <p class="status">No tenancies yet.</p>
  return (
    <fieldset class="role-choices">
      <legend>{props.legend}</legend>
      {props.tenants.map((tenant) => {
        const id = `${props.idPrefix}-${tenant.id}`
        return (
          <div class="role-choice" key={tenant.id}>
            <label for={id}>{tenant.name}</label>
            <select
              id={id}
              value={props.roles[tenant.id] ?? ''}
              onChange={(e) => props.onChange({ ...props.roles, [tenant.id]: e.currentTarget.value as TenancyRole })}
            >
              <option value="">No role</option>
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          </div>
        )
      })}
    </fieldset>
  )
}
