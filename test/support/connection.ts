import type { TenantConnection } from '../../src/connectors/types.js'

/** How the worker reaches a simulated tenant: its estate follows from the cloud tenant id alone. */
export function simulatedConnection(tenant: { id: string; cloudTenantId: string | null }): TenantConnection {
  if (tenant.cloudTenantId === null) throw new Error('A tenant of the Azure connector has a cloud tenant id')
  return {
    tenantId: tenant.id,
    cloudTenantId: tenant.cloudTenantId,
    credentialType: 'ManagedIdentity',
    clientId: null,
    clientSecret: null,
    certificateThumbprint: null,
  }
}
