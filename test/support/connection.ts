import type { TenantConnection } from '../../src/connectors/types.js'

/** How the worker reaches a simulated tenant: its estate follows from the cloud tenant id alone. */
export function simulatedConnection(tenant: { id: string; cloudTenantId: string }): TenantConnection {
  return {
    tenantId: tenant.id,
    cloudTenantId: tenant.cloudTenantId,
    credentialType: 'ManagedIdentity',
    clientId: null,
    clientSecret: null,
    certificateThumbprint: null,
  }
}
