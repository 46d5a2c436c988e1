import type { ConnectorName } from '../../config.js'
import { CLI_ORIGIN, recordAudit } from '../../platform/audit.js'
import { type Principal, type Visibility, visibleTenancies } from '../../platform/auth/principal.js'
import { createPageCache } from '../../platform/cache.js'
import type { Clock, Ids } from '../../platform/clock.js'
import type { SecretBox } from '../../platform/crypto.js'
import { ApiError, type FieldErrors } from '../../platform/http/errors.js'
import { type PageOf, type Paging, pageOf, type SerialisedPage } from '../../platform/http/paging.js'
import { type AllowList, judgeForm, parseAllowList } from '../../platform/outbound/guard.js'
import { toDay } from '../../platform/time.js'
import { type HostCredentialPolicy, hostCredentialsRefusal, usesHostCredentials } from './host-credentials.js'
import type { CreateTenancyRequest, LocationRecord, TenantRecord } from './schemas.js'
import {
  fileSourceCloudTenantId,
  TENANT_CLIENT_SECRET,
  TENANT_LOCATION_SECRET,
  type TenantRow,
  type TenantStore,
} from './store.js'

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

/** The fields of the Azure connector's credential, which a file-sourced tenant refuses. */
const AZURE_FIELDS = ['cloudTenantId', 'credentialType', 'clientId', 'clientSecret', 'certificateThumbprint'] as const

/** S3's bucket naming rules (general purpose buckets): 3-63 of lower-case letters, digits, dots and hyphens. */
const S3_BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
const S3_REGION = /^[a-z]{2}(?:-[a-z0-9]+)+-[0-9]+$|^us-gov-[a-z]+-[0-9]+$/
const S3_HOST_CREDENTIALS_REFUSAL =
  "is required: without a key pair the server's own AWS credentials would be used, which the operator has not allowed for this organisation (COSTWATCH_HOST_CREDENTIAL_ORGS)"

/** What a FocusExport tenant keeps of its location: what the record shows, and the secret sealed apart. */
interface CheckedLocation {
  shown: Omit<LocationRecord, 'hasSecret'>
  secret:
    | { accessKeyId: string; secretAccessKey: string }
    | { sasToken: string }
    | { clientSecret: string }
    | { serviceAccountKey: Record<string, unknown> }
    | null
}

/** The fields each location type takes; any other given is refused by name. */
const LOCATION_FIELDS = {
  S3: ['prefix', 'bucket', 'region', 'accessKeyId', 'secretAccessKey', 'endpoint'],
  // A SAS, or a service principal: its directory, its client id and a client secret.
  AzureBlob: ['prefix', 'containerUrl', 'sasToken', 'tenantId', 'clientId', 'clientSecret'],
  BigQuery: ['projectId', 'dataset', 'table', 'serviceAccountKey'],
} as const
const ALL_LOCATION_FIELDS = [...new Set(Object.values(LOCATION_FIELDS).flat())]
/** BigQuery's names: a project id (6-30 of lower-case letters, digits, hyphens), datasets and tables (A-Z, 0-9, _). */
const GCP_PROJECT = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/
const BQ_NAME = /^[A-Za-z0-9_]{1,1024}$/

/** A service account's JSON key, or why it is not one (never quoting it). */
function serviceAccountKeyOf(text: string): { key: Record<string, unknown> } | { problem: string } {
  let key: unknown
  try {
    key = JSON.parse(text)
  } catch {
    return { problem: "must be a service account's JSON key (the file Google Cloud gives)" }
  }
  const k = key as Record<string, unknown>
  if (k?.type !== 'service_account' || typeof k.client_email !== 'string' || typeof k.private_key !== 'string')
    return { problem: 'must be a key of type service_account, with client_email and private_key' }
  if (!/-----BEGIN PRIVATE KEY-----/.test(k.private_key))
    return { problem: 'its private_key must be a PEM private key' }
  return { key: { client_email: k.client_email, private_key: k.private_key, private_key_id: k.private_key_id } }
}

/** The location of a FocusExport tenant, checked field by field into `errors`; null when it has errors. */
function locationOf(
  input: CreateTenancyRequest['location'],
  errors: FieldErrors,
  allow: AllowList,
): CheckedLocation | null {
  if (input === undefined) {
    errors.location = ['is required for the FocusExport cost source']
    return null
  }
  const before = Object.keys(errors).length
  const own: readonly string[] = LOCATION_FIELDS[input.type]
  for (const field of ALL_LOCATION_FIELDS)
    if (!own.includes(field) && input[field] !== undefined && input[field] !== null)
      errors[`location.${field}`] = [`is not used with ${input.type}`]
  const prefix = (input.prefix ?? '').trim().replace(/^\/+|\/+$/g, '')
  if (input.type === 'BigQuery') {
    const projectId = input.projectId?.trim() ?? ''
    if (!GCP_PROJECT.test(projectId))
      errors['location.projectId'] = ['must be a Google Cloud project id such as acme-billing']
    const dataset = input.dataset?.trim() ?? ''
    if (!BQ_NAME.test(dataset)) errors['location.dataset'] = ['must be a dataset name: letters, digits and _']
    const table = input.table?.trim() ?? ''
    if (!BQ_NAME.test(table)) errors['location.table'] = ['must be a table name: letters, digits and _']
    const parsed = input.serviceAccountKey ? serviceAccountKeyOf(input.serviceAccountKey) : null
    if (parsed === null) errors['location.serviceAccountKey'] = ['is required for BigQuery']
    else if ('problem' in parsed) errors['location.serviceAccountKey'] = [parsed.problem]
    if (Object.keys(errors).length > before || !parsed || 'problem' in parsed) return null
    return {
      shown: { type: 'BigQuery', prefix: '', projectId, dataset, table, clientEmail: String(parsed.key.client_email) },
      secret: { serviceAccountKey: parsed.key },
    }
  }
  /** A store's address: the outbound rules' form, and nothing but the address. */
  const address = (field: 'endpoint' | 'containerUrl', value: string, path: 'none' | 'container') => {
    const judged = judgeForm(value, allow)
    if ('refusal' in judged) errors[`location.${field}`] = [judged.refusal]
    else if (judged.target.url.search || judged.target.url.hash)
      errors[`location.${field}`] = ['must be the address alone, without a query: give the SAS as sasToken']
    else if (path === 'none' && judged.target.url.pathname !== '/')
      errors[`location.${field}`] = ["must be the store's address alone, without a path"]
    else if (path === 'container' && judged.target.url.pathname.split('/').filter(Boolean).length === 0)
      errors[`location.${field}`] = ['must name the container: https://<account>.blob.core.windows.net/<container>']
  }
  if (input.type === 'AzureBlob') {
    const containerUrl = input.containerUrl?.trim().replace(/\/+$/, '') ?? ''
    if (containerUrl === '') errors['location.containerUrl'] = ['is required for AzureBlob']
    else address('containerUrl', containerUrl, 'container')
    const sasToken = input.sasToken?.trim().replace(/^\?/, '') ?? ''
    const principal = {
      tenantId: input.tenantId?.trim() ?? '',
      clientId: input.clientId?.trim().toLowerCase() ?? '',
      clientSecret: input.clientSecret ?? '',
    }
    const principalFields = (['tenantId', 'clientId', 'clientSecret'] as const).filter((f) => principal[f] !== '')
    if (sasToken !== '' && principalFields.length > 0) {
      errors['location.sasToken'] = [
        `is not used with a service principal (${principalFields.join(', ')} given): sign in with one of them`,
      ]
    } else if (principalFields.length > 0) {
      for (const field of ['tenantId', 'clientId', 'clientSecret'] as const)
        if (principal[field] === '')
          errors[`location.${field}`] = ['is required with a service principal (tenantId, clientId and clientSecret)']
      const tenantId = principal.tenantId === '' ? '' : normaliseCloudTenantId(principal.tenantId)
      if (tenantId === null)
        errors['location.tenantId'] = ['must be a GUID or a domain name such as contoso.onmicrosoft.com']
      if (principal.clientId !== '' && !GUID.test(principal.clientId)) errors['location.clientId'] = ['must be a GUID']
      if (Object.keys(errors).length > before || !tenantId) return null
      return {
        shown: {
          type: 'AzureBlob',
          prefix,
          containerUrl,
          auth: 'ServicePrincipal',
          tenantId,
          clientId: principal.clientId,
        },
        secret: { clientSecret: principal.clientSecret },
      }
    } else if (sasToken === '')
      errors['location.sasToken'] = ['is required for AzureBlob, or tenantId, clientId and clientSecret']
    else if (!/(^|&)sig=/.test(sasToken)) errors['location.sasToken'] = ['must be a SAS token (it holds sig=…)']
    if (Object.keys(errors).length > before) return null
    return { shown: { type: 'AzureBlob', prefix, containerUrl, auth: 'Sas' }, secret: { sasToken } }
  }
  const bucket = input.bucket?.trim() ?? ''
  if (!S3_BUCKET.test(bucket) || bucket.includes('..'))
    errors['location.bucket'] = ['must be an S3 bucket name: 3-63 lower-case letters, digits, dots and hyphens']
  const region = input.region?.trim() ?? ''
  if (!S3_REGION.test(region)) errors['location.region'] = ['must be an AWS region such as eu-west-1']
  const accessKeyId = input.accessKeyId?.trim() || null
  const secretAccessKey = input.secretAccessKey || null
  if (accessKeyId && !secretAccessKey) errors['location.secretAccessKey'] = ['is required with accessKeyId']
  if (secretAccessKey && !accessKeyId) errors['location.accessKeyId'] = ['is required with secretAccessKey']
  const endpoint = input.endpoint?.trim().replace(/\/+$/, '') || null
  if (endpoint) address('endpoint', endpoint, 'none')
  if (Object.keys(errors).length > before) return null
  return {
    shown: { type: 'S3', bucket, prefix, region, endpoint, accessKeyId },
    secret: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null,
  }
}

/**
 * Whole list pages, kept as the bytes sent (platform/cache.ts). A list request used to read the page's rows,
 * then each tenant's latest run and cost totals (`decorate`: ~30% of a SQLite list request, ~1 ms of a
 * PostgreSQL one), then serialise ~22 KB of JSON; a kept page costs the key check alone, which reads the
 * organisation's cache version in the same statement.
 *
 * Exact, across processes: a page is kept with the organisation's version (bumped with every write to its
 * tenants, their runs and costs) and the UTC day its cost totals were computed for, and used only while both
 * are the same. Bounded: least recently used pages go beyond PAGE_BYTES_BUDGET.
 */
const PAGE_BYTES_BUDGET = 16 * 1024 * 1024
/** Roughly what an entry holds besides its bytes: the entry objects, the map's slot. */
const ENTRY_OVERHEAD_BYTES = 200

function toBuffer(json: string | ArrayBuffer | Uint8Array): Buffer {
  if (typeof json === 'string') return Buffer.from(json)
  if (json instanceof ArrayBuffer) return Buffer.from(json)
  return Buffer.from(json.buffer, json.byteOffset, json.byteLength)
}

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
  /** Which organisations may use the server's own credentials (see host-credentials.ts). */
  hostCredentials: HostCredentialPolicy
  /** The operator's networks a location's endpoint may be in although not public (config.outboundAllow). */
  outboundAllow?: string[]
  /** Fills in `lastSnapshot` and `costs` (totals as of `today`, a UTC day) from collection, for a page at once. */
  decorate?(records: TenantRecord[], today: string): Promise<TenantRecord[]>
}) {
  const { store, clock, ids, secrets } = deps
  const outboundAllow = parseAllowList(deps.outboundAllow ?? [])
  const decorate = deps.decorate ?? (async (records: TenantRecord[]) => records)
  const utcDay = () => toDay(clock.now())

  async function readPage(who: Principal, visible: Visibility, paging: Paging, today: string) {
    const { items, totalCount } = await store.list(who.organisationId, visible, paging)
    return pageOf(await decorate(items, today), totalCount, paging)
  }

  const kept = createPageCache<SerialisedPage>({
    budgetBytes: PAGE_BYTES_BUDGET,
    bytesOf: (page) => page.body.length + ENTRY_OVERHEAD_BYTES,
  })

  /** An AzureConnector tenant's row, its credential checked (the specification's tenant). */
  async function connectorTenant(
    who: Principal,
    input: CreateTenancyRequest,
    errors: FieldErrors,
    base: { id: string; name: string; createdAt: string },
  ): Promise<TenantRow> {
    if (input.location !== undefined) errors.location = ['is used only with the FocusExport cost source']
    if (input.credentialType === undefined) errors.credentialType = ['is required for the AzureConnector cost source']
    const cloudTenantId = input.cloudTenantId === undefined ? null : normaliseCloudTenantId(input.cloudTenantId)
    if (input.cloudTenantId === undefined) errors.cloudTenantId = ['is required for the AzureConnector cost source']
    else if (!cloudTenantId) errors.cloudTenantId = ['must be a GUID or a domain name such as contoso.onmicrosoft.com']
    const credentialType = input.credentialType ?? 'ServicePrincipalSecret'
    const rules = CREDENTIAL_FIELDS[credentialType]
    const given = {
      clientId: input.clientId?.trim() || null,
      clientSecret: input.clientSecret || null,
      certificateThumbprint: input.certificateThumbprint?.replace(/[\s:]/g, '').toUpperCase() || null,
    }
    if (input.credentialType !== undefined) {
      for (const field of rules.needs) {
        if (!given[field]) errors[field] = [`is required for ${credentialType}`]
      }
      for (const field of rules.refuses) {
        if (given[field]) errors[field] = [`is not used with ${credentialType}`]
      }
    }
    if (given.clientId && !GUID.test(given.clientId.toLowerCase())) errors.clientId = ['must be a GUID']
    if (given.certificateThumbprint && !THUMBPRINT.test(given.certificateThumbprint)) {
      errors.certificateThumbprint = ['must be 40 or 64 hexadecimal characters']
    }
    // The managed identity's token is checked against the directory id (its `tid`), which a domain name is not.
    if (
      deps.connector === 'azure' &&
      credentialType === 'ManagedIdentity' &&
      cloudTenantId &&
      !GUID.test(cloudTenantId)
    )
      errors.cloudTenantId = ['must be the directory id (a GUID) for ManagedIdentity']
    if (Object.keys(errors).length) throw ApiError.invalid(errors)
    if (
      usesHostCredentials(deps.connector, credentialType) &&
      !(await deps.hostCredentials.allows(who.organisationId))
    ) {
      throw ApiError.invalid(
        { credentialType: [hostCredentialsRefusal(credentialType)] },
        "This organisation may not use the server's own credentials.",
      )
    }
    if (await store.existsWithCloudTenantId(who.organisationId, cloudTenantId!)) {
      throw ApiError.conflict(`Cloud tenant ${cloudTenantId} is already connected to this organisation.`)
    }
    return {
      id: base.id,
      organisationId: who.organisationId,
      name: base.name,
      cloudTenantId: cloudTenantId!,
      credentialType,
      clientId: given.clientId?.toLowerCase() ?? null,
      certificateThumbprint: given.certificateThumbprint,
      clientSecretSealed: given.clientSecret
        ? secrets.seal(given.clientSecret, TENANT_CLIENT_SECRET.purpose(base.id))
        : null,
      connector: deps.connector,
      createdAt: base.createdAt,
      costSource: 'AzureConnector',
      provider: 'Azure',
      locationJson: null,
      locationSecretSealed: null,
    }
  }

  return {
    /** `origin`: the client address of the request, for the audit log. */
    async create(who: Principal, input: CreateTenancyRequest, origin = CLI_ORIGIN): Promise<TenantRecord> {
      const errors: FieldErrors = {}
      const name = input.name.trim()
      if (name === '') errors.name = ['must not be empty']
      const costSource = input.costSource ?? 'AzureConnector'
      const id = ids.uuid()
      const createdAt = clock.now().toISOString()
      let row: TenantRow
      if (costSource === 'AzureConnector') {
        row = await connectorTenant(who, input, errors, { id, name, createdAt })
      } else {
        for (const field of AZURE_FIELDS)
          if (input[field] !== undefined && input[field] !== null) errors[field] = [`is not used with ${costSource}`]
        const location = costSource === 'FocusExport' ? locationOf(input.location, errors, outboundAllow) : null
        if (costSource === 'FocusUpload' && input.location !== undefined)
          errors.location = ['is not used with FocusUpload: files are pushed to POST /tenants/{id}/cost-files']
        if (Object.keys(errors).length) throw ApiError.invalid(errors)
        if (location && location.secret === null && !(await deps.hostCredentials.allows(who.organisationId)))
          throw ApiError.invalid(
            { 'location.accessKeyId': [S3_HOST_CREDENTIALS_REFUSAL] },
            "This organisation may not use the server's own credentials.",
          )
        row = {
          id,
          organisationId: who.organisationId,
          name,
          cloudTenantId: fileSourceCloudTenantId(id),
          credentialType: '',
          clientId: null,
          certificateThumbprint: null,
          clientSecretSealed: null,
          connector: deps.connector,
          createdAt,
          costSource,
          provider: null,
          locationJson: location ? JSON.stringify(location.shown) : null,
          locationSecretSealed: location?.secret
            ? secrets.seal(JSON.stringify(location.secret), TENANT_LOCATION_SECRET.purpose(id))
            : null,
        }
      }
      return store.insert(row, (tx) =>
        recordAudit(tx, ids, {
          organisationId: who.organisationId,
          at: row.createdAt,
          by: { actor: who.actor, origin },
          action: 'tenant.created',
          target: { type: 'Tenant', id },
          // What names the credential or the location, and whether a secret was stored: never the secret.
          detail:
            costSource === 'AzureConnector'
              ? {
                  name,
                  cloudTenantId: row.cloudTenantId,
                  credentialType: row.credentialType,
                  clientId: row.clientId,
                  certificateThumbprint: row.certificateThumbprint,
                  clientSecretStored: row.clientSecretSealed !== null,
                }
              : {
                  name,
                  costSource,
                  location: row.locationJson,
                  locationSecretStored: row.locationSecretSealed !== null,
                },
        }),
      )
    },

    async list(who: Principal, paging: Paging) {
      return readPage(who, visibleTenancies(who), paging, utcDay())
    },

    /**
     * A page as the bytes to send: kept ones while they hold (see PAGE_BYTES_BUDGET), else read, serialised
     * with `serialise` (the route's response serialiser) and kept.
     */
    async listSerialised(
      who: Principal,
      paging: Paging,
      serialise: (page: PageOf<TenantRecord>) => string | ArrayBuffer | Uint8Array,
    ): Promise<SerialisedPage> {
      const visible = visibleTenancies(who)
      const today = utcDay()
      // Before any of the page's data: see platform/cache.ts.
      const version = who.cacheVersion ?? (await store.cacheVersion(who.organisationId))
      const seen = visible === 'all' ? '*' : [...visible].sort().join(',')
      const key = `${who.organisationId}|${seen}|${paging.page}|${paging.pageSize}`
      return kept.get(key, `${version}:${today}`, async () => {
        const { items, ...page } = await readPage(who, visible, paging, today)
        return { body: toBuffer(serialise({ items, ...page })), page }
      })
    },

    async get(who: Principal, id: string): Promise<TenantRecord> {
      const tenant = await store.get(who.organisationId, id)
      if (!tenant) throw ApiError.notFound(`Tenant ${id}`)
      return (await decorate([tenant], utcDay()))[0]!
    },
  }
}
export type TenantService = ReturnType<typeof createTenantService>
