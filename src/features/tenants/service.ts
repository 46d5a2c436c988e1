import type { ConnectorName } from '../../config.js'
import { type Principal, visibleTenancies } from '../../platform/auth/principal.js'
import type { Clock, Ids } from '../../platform/clock.js'
import type { SecretBox } from '../../platform/crypto.js'
import { ApiError, type FieldErrors } from '../../platform/http/errors.js'
import { type Paging, pageOf } from '../../platform/http/schemas.js'
import type { CreateTenancyRequest, TenantRecord } from './schemas.js'
import type { TenantStore } from './store.js'

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
// A DNS name with at least two labels and an alphabetic top-level label: nothing that could add a path,
// a port, credentials or another host to the authority URL it is placed in.
const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/
const THUMBPRINT = /^(?:[0-9A-F]{40}|[0-9A-F]{64})$/

/** Which credential fields each credential type needs, allows, and refuses. */
const CREDENTIAL_FIELDS = {
  ServicePrincipalSecret: { needs: ['clientId', 'clientSecret'], refuses: ['certificateThumbprint'] },
  ServicePrincipalCertificate: { needs: ['clientId', 'certificateThumbprint'], refuses: ['clientSecret'] },
  // A user-assigned managed identity may name its client id; a system-assigned one needs nothing.
  ManagedIdentity: { needs: [], refuses: ['clientSecret', 'certificateThumbprint'] },
} as const

export function normaliseCloudTenantId(value: string): string | null {
  const v = value.trim().toLowerCase()
  return GUID.test(v) || DOMAIN.test(v) ? v : null
}

export function createTenantService(deps: {
  store: TenantStore
  clock: Clock
  ids: Ids
  secrets: SecretBox
  connector: ConnectorName
  /** Fills in `lastSnapshot` and `costs` from collection, for a page of tenants at once. */
  decorate?(records: TenantRecord[]): Promise<TenantRecord[]>
}) {
  const { store, clock, ids, secrets } = deps
  const decorate = deps.decorate ?? (async (records: TenantRecord[]) => records)
  return {
    async create(who: Principal, input: CreateTenancyRequest): Promise<TenantRecord> {
      const errors: FieldErrors = {}
      const name = input.name.trim()
      if (name === '') errors.name = ['must not be empty']
      const cloudTenantId = normaliseCloudTenantId(input.cloudTenantId)
      if (!cloudTenantId) errors.cloudTenantId = ['must be a GUID or a domain name such as contoso.onmicrosoft.com']
      const rules = CREDENTIAL_FIELDS[input.credentialType]
      const given = {
        clientId: input.clientId?.trim() || null,
        clientSecret: input.clientSecret || null,
        certificateThumbprint: input.certificateThumbprint?.replace(/[\s:]/g, '').toUpperCase() || null,
      }
      for (const field of rules.needs) {
        if (!given[field]) errors[field] = [`is required for ${input.credentialType}`]
      }
      for (const field of rules.refuses) {
        if (given[field]) errors[field] = [`is not used with ${input.credentialType}`]
      }
      if (given.clientId && !GUID.test(given.clientId.toLowerCase())) errors.clientId = ['must be a GUID']
      if (given.certificateThumbprint && !THUMBPRINT.test(given.certificateThumbprint)) {
        errors.certificateThumbprint = ['must be 40 or 64 hexadecimal characters']
      }
      if (Object.keys(errors).length) throw ApiError.invalid(errors)
      if (await store.existsWithCloudTenantId(who.organisationId, cloudTenantId!)) {
        throw ApiError.conflict(`Cloud tenant ${cloudTenantId} is already connected to this organisation.`)
      }
      return store.insert({
        id: ids.uuid(),
        organisationId: who.organisationId,
        name,
        cloudTenantId: cloudTenantId!,
        credentialType: input.credentialType,
        clientId: given.clientId?.toLowerCase() ?? null,
        certificateThumbprint: given.certificateThumbprint,
        clientSecretSealed: given.clientSecret ? secrets.seal(given.clientSecret) : null,
        connector: deps.connector,
        createdAt: clock.now().toISOString(),
      })
    },

    async list(who: Principal, paging: Paging) {
      const { items, totalCount } = await store.list(who.organisationId, visibleTenancies(who), paging)
      return pageOf(await decorate(items), totalCount, paging)
    },

    async get(who: Principal, id: string): Promise<TenantRecord> {
      const tenant = await store.get(who.organisationId, id)
      if (!tenant) throw ApiError.notFound(`Tenant ${id}`)
      return (await decorate([tenant]))[0]!
    },
  }
}
export type TenantService = ReturnType<typeof createTenantService>
