// The tenants feature's public entry: what other features may use of it (docs/architecture.md, "Rules that are checked").
// No routes or schemas here: the command line loads this module.
export { type HostCredentialPolicy, hostCredentialsRefusal, usesHostCredentials } from './host-credentials.js'
export {
  notInOrganisation,
  organisationOfTenancy,
  organisationTenancies,
  organisationTenantIds,
  TENANT_CLIENT_SECRET,
  TENANT_LOCATION_SECRET,
  type TenantRow,
  type TenantStore,
  tenancyNames,
  visibleTenancyCount,
} from './store.js'
