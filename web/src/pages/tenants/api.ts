import { answer, client, everyOf, type Page, type Schemas, type Tenant } from '../../api'

export type CreateTenantInput = Schemas['CreateTenancyRequest']
export type CostSource = Tenant['costSource']
export type CredentialType = NonNullable<Tenant['credentialType']>
export type SnapshotRun = Schemas['SnapshotRun']
export type RunStatus = SnapshotRun['status']

/** The choices of the connect form, in the order it offers them. */
export const COST_SOURCES = everyOf<CostSource>()(['AzureConnector', 'FocusUpload', 'FocusExport'])
export const CREDENTIAL_TYPES = everyOf<CredentialType>()([
  'ServicePrincipalSecret',
  'ServicePrincipalCertificate',
  'ManagedIdentity',
])

const SOURCE_WORDS: Record<CostSource, string> = {
  AzureConnector: 'Azure connector',
  FocusUpload: 'FOCUS upload',
  FocusExport: 'FOCUS export',
}
export type LocationType = NonNullable<Tenant['location']>['type']
export const LOCATION_TYPES = everyOf<LocationType>()(['S3', 'AzureBlob', 'BigQuery'])
export const STORE_WORDS: Record<LocationType, string> = {
  S3: 'S3',
  AzureBlob: 'Azure Blob Storage',
  BigQuery: 'BigQuery',
}
const PROVIDER_WORDS: Record<NonNullable<Tenant['provider']>, string> = {
  AWS: 'AWS',
  Azure: 'Azure',
  GoogleCloud: 'Google Cloud',
  Other: 'another cloud',
}

/** Where a tenant's costs come from, in words: "Azure", "FOCUS upload · AWS", "FOCUS export in S3". */
export function sourceInWords(tenant: Pick<Tenant, 'costSource' | 'provider' | 'location'>): string {
  if (tenant.costSource === 'AzureConnector') return 'Azure'
  const store = tenant.location ? STORE_WORDS[tenant.location.type] : null
  const source = store ? `${SOURCE_WORDS[tenant.costSource]} in ${store}` : null
  const words = source ?? SOURCE_WORDS[tenant.costSource]
  return tenant.provider ? `${words} · ${PROVIDER_WORDS[tenant.provider]}` : words
}

/** The media type the upload is sent with, by the file's name; null for a name the server does not read. */
export function costFileType(name: string): string | null {
  const lower = name.toLowerCase()
  if (lower.endsWith('.csv')) return 'text/csv'
  if (lower.endsWith('.gz')) return 'application/gzip'
  if (lower.endsWith('.parquet')) return 'application/vnd.apache.parquet'
  return null
}

const tenant = (tenantId: string) => ({ params: { path: { tenantId } } })

export const tenantsApi = {
  create: (input: CreateTenantInput) => answer(client.POST('/tenants', { body: input })),
  runs: (tenantId: string, page: number, pageSize: number): Promise<Page<SnapshotRun>> =>
    answer(client.GET('/tenants/{tenantId}/snapshots', { params: { path: { tenantId }, query: { page, pageSize } } })),
  run: (tenantId: string, snapshotId: string) =>
    answer(client.GET('/tenants/{tenantId}/snapshots/{snapshotId}', { params: { path: { tenantId, snapshotId } } })),
  /** Queues a collection (or, for a FocusExport tenant, a pull). */
  trigger: (tenantId: string): Promise<SnapshotRun> =>
    answer(client.POST('/tenants/{tenantId}/snapshots', tenant(tenantId))) as Promise<SnapshotRun>,
  /** Sends the file itself as the body, typed by its name; the answer is the import run it started. */
  upload: (tenantId: string, file: File, type: string): Promise<SnapshotRun> =>
    answer(
      client.POST('/tenants/{tenantId}/cost-files', {
        params: { path: { tenantId }, query: { fileName: file.name } },
        body: file as never,
        bodySerializer: (body: unknown) => body as BodyInit,
        headers: { 'Content-Type': type },
      }),
    ) as Promise<SnapshotRun>,
}
