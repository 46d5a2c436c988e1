import { type Static, Type } from 'typebox'
import { CONNECTORS } from '../../config.js'
import { CredentialTypes } from '../../connectors/types.js'
import { CostSummary, Instant, Nullable, StringEnum, Uuid } from '../../platform/http/schemas.js'

export const SnapshotStatuses = ['Queued', 'Running', 'Succeeded', 'Failed'] as const

/** Where a tenant's costs come from: the Azure connector, FOCUS files pulled from a location, or pushed to it. */
export const CostSources = ['AzureConnector', 'FocusExport', 'FocusUpload'] as const
export type CostSource = (typeof CostSources)[number]
/** The cloud a file source's data names (FOCUS ServiceProviderName/ProviderName). */
export const Providers = ['AWS', 'Azure', 'GoogleCloud', 'Other'] as const

/**
 * Where a FocusExport tenant's costs are: an S3 bucket (AWS Data Exports), a Blob Storage container (Cost
 * Management exports) or a BigQuery table (Google Cloud's FOCUS export).
 */
export const LocationTypes = ['S3', 'AzureBlob', 'BigQuery'] as const
/** How a pull signs in to Blob Storage: a SAS, or an Entra service principal with a client secret. */
export const BlobSignIns = ['Sas', 'ServicePrincipal'] as const
export type BlobSignIn = (typeof BlobSignIns)[number]
const optionalText = (maxLength: number, description?: string) =>
  Type.Optional(Nullable(Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) })))

/** One object for both types, its fields checked by type in the service (400 naming `location.<field>`). */
export const LocationRequest = Type.Object(
  {
    type: StringEnum(LocationTypes),
    prefix: Type.Optional(
      Type.String({
        maxLength: 1024,
        description:
          "The export's own folder. S3: `<S3 path prefix>/<export name>`, under which AWS writes `data/BILLING_PERIOD=YYYY-MM/…` and `metadata/BILLING_PERIOD=YYYY-MM/<export name>-Manifest.json`. AzureBlob: the export's root folder path and name, under which each run writes `<YYYYMMDD-YYYYMMDD>/<run id>/` with a `manifest.json`. Not used with BigQuery.",
      }),
    ),
    bucket: optionalText(63, 'S3: the bucket.'),
    region: optionalText(50, 'S3: e.g. `eu-west-1`.'),
    accessKeyId: optionalText(
      128,
      "S3: with secretAccessKey; without a key pair, the server's own credential chain, where the operator allows it.",
    ),
    secretAccessKey: optionalText(256, 'S3: sealed at rest; never returned, logged or exported.'),
    endpoint: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 500,
          description: 'S3: an S3-compatible store (MinIO, R2), addressed path-style; null for AWS.',
        }),
      ),
    ),
    containerUrl: optionalText(500, 'AzureBlob: `https://<account>.blob.core.windows.net/<container>`.'),
    sasToken: optionalText(
      2000,
      'AzureBlob: a SAS with read and list on the container (without its `?`); sealed at rest, never returned. Or sign in with a service principal instead: tenantId, clientId and clientSecret.',
    ),
    tenantId: optionalText(
      253,
      'AzureBlob, signing in with a service principal: the directory (tenant) id of the app, a GUID or a domain name such as contoso.onmicrosoft.com.',
    ),
    clientId: optionalText(100, "AzureBlob, signing in with a service principal: the app's client id, a GUID."),
    clientSecret: optionalText(
      1024,
      'AzureBlob, signing in with a service principal: a client secret of the app, which needs Storage Blob Data Reader on the container; sealed at rest, never returned.',
    ),
    projectId: optionalText(30, 'BigQuery: the project holding the dataset (and running the queries).'),
    dataset: optionalText(1024, 'BigQuery: the dataset of the billing export.'),
    table: optionalText(1024, 'BigQuery: the FOCUS export table, `gcp_billing_export_focus_<BILLING_ACCOUNT_ID>`.'),
    serviceAccountKey: optionalText(
      10000,
      "BigQuery: a service account's JSON key, with BigQuery Data Viewer on the table and Job User on the project; sealed at rest, never returned.",
    ),
  },
  { additionalProperties: false },
)
export type LocationRequest = Static<typeof LocationRequest>

/** A location as a tenant record shows it: never its secret. */
export const LocationRecord = Type.Object(
  {
    type: StringEnum(LocationTypes),
    prefix: Type.String(),
    bucket: Type.Optional(Type.String()),
    region: Type.Optional(Type.String()),
    endpoint: Type.Optional(Nullable(Type.String())),
    accessKeyId: Type.Optional(Nullable(Type.String())),
    containerUrl: Type.Optional(Type.String()),
    auth: Type.Optional(
      StringEnum(BlobSignIns, {
        description:
          'AzureBlob: how the pull signs in: with the SAS, or with the service principal (tenantId, clientId).',
      }),
    ),
    tenantId: Type.Optional(Type.String({ description: "AzureBlob, ServicePrincipal: the app's directory id." })),
    clientId: Type.Optional(
      Type.String({ description: "AzureBlob, ServicePrincipal: the app's client id (no secret)." }),
    ),
    projectId: Type.Optional(Type.String()),
    dataset: Type.Optional(Type.String()),
    table: Type.Optional(Type.String()),
    clientEmail: Type.Optional(Type.String({ description: "BigQuery: the service account's e-mail (no secret)." })),
    hasSecret: Type.Boolean({
      description: 'Whether a secret (access key, SAS, client secret) is stored. It is never returned.',
    }),
  },
  { description: "Where a FocusExport tenant's files are pulled from. An addition to the contract." },
)
export type LocationRecord = Static<typeof LocationRecord>

export const TenantRecord = Type.Object(
  {
    id: Uuid,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    cloudTenantId: Nullable(
      Type.String({
        minLength: 1,
        maxLength: 253,
        description:
          'The directory (tenant) id at the cloud provider: a GUID or a verified domain name. Null for a tenant whose costs come from FOCUS files.',
      }),
    ),
    credentialType: Nullable(StringEnum(CredentialTypes)),
    clientId: Nullable(Type.String({ description: 'Application (client) id, a GUID.' })),
    certificateThumbprint: Nullable(
      Type.String({ description: 'SHA-1 (40 hex) or SHA-256 (64 hex) thumbprint of the client certificate.' }),
    ),
    hasClientSecret: Type.Boolean({
      description: 'Whether a client secret is stored. The secret itself is never returned.',
    }),
    connector: StringEnum(CONNECTORS),
    createdAt: Instant,
    lastSnapshot: Nullable(
      Type.Object({ id: Uuid, status: StringEnum(SnapshotStatuses), completedAt: Nullable(Instant) }),
    ),
    costs: CostSummary,
    costSource: StringEnum(CostSources, {
      description:
        'Where the costs come from: the Azure connector (the default), FOCUS files pulled from `location`, or FOCUS files pushed to `POST /tenants/{id}/cost-files`. An addition to the contract.',
    }),
    provider: Nullable(
      StringEnum(Providers, {
        description: "The cloud a file source's data names; null until its first import. An addition to the contract.",
      }),
    ),
    location: Nullable(LocationRecord),
  },
  { $id: 'Tenant' },
)
export type TenantRecord = Static<typeof TenantRecord>

const f = TenantRecord.properties
export const CreateTenancyRequest = Type.Object(
  {
    name: f.name,
    cloudTenantId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 253,
        description:
          'The directory (tenant) id at the cloud provider: a GUID or a verified domain name. Required for the AzureConnector source, refused for the others.',
      }),
    ),
    credentialType: Type.Optional(
      StringEnum(CredentialTypes, { description: 'Required for the AzureConnector source, refused for the others.' }),
    ),
    costSource: Type.Optional(
      StringEnum(CostSources, {
        description:
          'Where the costs come from (an addition to the contract): AzureConnector (the default), FocusExport (pulled from `location`) or FocusUpload (pushed to `POST /tenants/{id}/cost-files`). File sources need no cloud credentials.',
      }),
    ),
    location: Type.Optional(LocationRequest),
    clientId: Type.Optional(
      Nullable(Type.String({ maxLength: 100, description: 'Needed by both service-principal types.' })),
    ),
    clientSecret: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 1024,
          description: 'Needed by ServicePrincipalSecret. Encrypted at rest; never returned, logged or exported.',
        }),
      ),
    ),
    certificateThumbprint: Type.Optional(
      Nullable(Type.String({ maxLength: 100, description: 'Needed by ServicePrincipalCertificate.' })),
    ),
  },
  { $id: 'CreateTenancyRequest', additionalProperties: false },
)
export type CreateTenancyRequest = Static<typeof CreateTenancyRequest>
