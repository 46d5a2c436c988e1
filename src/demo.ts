import type { Principal } from './platform/auth/principal.js'
import type { Services } from './services.js'

/** Days of cost history the demo collects: enough for anomaly detection's baseline before its planted changes. */
export const DEMO_HISTORY_DAYS = 120
/** How long the printed link that sets the demo owner's first password works (once). */
export const DEMO_PASSWORD_LINK_MS = 7 * 24 * 3_600_000

export interface DemoSeed {
  banner(baseUrl: string): string
}

/**
 * On an empty database: a demo organisation with one simulated tenant, and its owner key and a single-use link
 * that sets the owner's first password printed once, on the terminal (not in the log).
 * On a database that has data already, nothing is created and the banner says how to get a key.
 */
export async function seedDemo(s: Services): Promise<DemoSeed> {
  if (await s.organisationStore.any()) {
    return {
      banner: () =>
        'The database already holds an organisation, so no demo was created. API keys are shown only once;\n' +
        'make another with: npx costwatch keys create --org ORG_ID --name demo\n',
    }
  }
  const created = await s.organisations.create({
    name: 'Demo Organisation',
    ownerEmail: 'owner@demo.costwatch.local',
    plan: 'team',
  })
  const owner: Principal = {
    organisationId: created.organisation.id,
    actor: { type: 'User', id: created.owner.id, name: created.owner.email },
    isOwner: true,
    tenancyRoles: new Map(),
  }
  const tenant = await s.tenants.create(owner, {
    name: 'Contoso (simulated)',
    cloudTenantId: 'contoso.onmicrosoft.com',
    credentialType: 'ManagedIdentity',
  })
  // Weeks of history before the days detection judges (it wants 8 weeks of baseline), so that the changes the
  // simulated estate plants in recent costs are found by the first analysis run, as a real tenant's would be.
  const snapshot = await s.snapshots.collectHistory(owner, tenant.id, DEMO_HISTORY_DAYS)
  const passwordPath = await s.sessions.passwordLink(created.owner.id, DEMO_PASSWORD_LINK_MS)
  return {
    banner: (base) =>
      [
        '',
        `Demo organisation ${created.organisation.id} with tenant ${tenant.id} (${tenant.name}).`,
        'Owner API key (shown once; keep it):',
        `  ${created.apiKey}`,
        `A first snapshot (the last ${DEMO_HISTORY_DAYS} days) is collecting: ${base}/api/public/v1/tenants/${tenant.id}/snapshots/${snapshot.id}`,
        '',
        'Try:',
        `  curl -s -H 'X-Api-Key: ${created.apiKey}' ${base}/api/public/v1/organisation`,
        `  curl -s -H 'X-Api-Key: ${created.apiKey}' ${base}/api/public/v1/tenants`,
        `  curl -s -H 'X-Api-Key: ${created.apiKey}' ${base}/api/public/v1/tenants/${tenant.id}`,
        '  # cost-reduction insights of every category, once the snapshot and its analysis have run:',
        `  curl -s -H 'X-Api-Key: ${created.apiKey}' ${base}/api/public/v1/insights`,
        '  # anomalies detected in that history (a spike, an outage, a level shift after a deploy):',
        `  curl -s -H 'X-Api-Key: ${created.apiKey}' '${base}/api/public/v1/anomalies?severity=High'`,
        '',
        `API reference: ${base}/docs`,
        `Web interface: ${base}/ (sign in as ${created.owner.email}). First set the owner's password here`,
        '(the link works once, within 7 days, and is shown only now):',
        `  ${base}${passwordPath}`,
        '',
      ].join('\n'),
  }
}
