import type { Config } from './config.js'
import { createApiKeyService } from './features/apikeys/service.js'
import { createApiKeyStore } from './features/apikeys/store.js'
import { createOrganisationService } from './features/organisation/service.js'
import { createOrganisationStore } from './features/organisation/store.js'
import { createTenantService } from './features/tenants/service.js'
import { createTenantStore } from './features/tenants/store.js'
import { createUserStore } from './features/users/store.js'
import type { Clock, Ids } from './platform/clock.js'
import { createSecretBox } from './platform/crypto.js'
import type { Db } from './platform/db/index.js'

/** Every feature wired once, for the HTTP app and the command line alike. */
export function createServices(deps: {
  db: Db
  config: Config
  clock: Clock
  ids: Ids
  warn?: (err: unknown, message: string) => void
}) {
  const { db, config, clock, ids } = deps
  const secrets = createSecretBox(config.secretKey)
  const organisationStore = createOrganisationStore(db.kysely)
  const tenantStore = createTenantStore(db.kysely)
  const users = createUserStore(db.kysely)
  const apiKeys = createApiKeyService({
    store: createApiKeyStore(db.kysely),
    clock,
    ids,
    tenancyBelongsTo: async (tenancyId, organisationId) =>
      (await tenantStore.organisationOf(tenancyId)) === organisationId,
    onTouchError: (err) => deps.warn?.(err, 'could not record when an API key was last used'),
  })
  return {
    secrets,
    organisationStore,
    tenantStore,
    users,
    apiKeys,
    organisations: createOrganisationService({ organisations: organisationStore, users, apiKeys, clock, ids }),
    tenants: createTenantService({ store: tenantStore, clock, ids, secrets, connector: config.connector }),
  }
}
export type Services = ReturnType<typeof createServices>
