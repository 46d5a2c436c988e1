import { type Static, Type } from 'typebox'
import { CONNECTORS } from '../../config.js'
import { CredentialTypes } from '../../connectors/types.js'
import { CostSummary, Instant, Nullable, StringEnum, Uuid } from '../../platform/http/schemas.js'

export const SnapshotStatuses = ['Queued', 'Running', 'Succeeded', 'Failed'] as const

/** Where a tenant's costs come from: the Azure connector, or FOCUS files pushed to it. */
export const CostSources = ['AzureConnector', 'FocusUpload'] as const
export type CostSource = (typeof CostSources)[number]
/** The cloud a file source's data names (FOCUS ServiceProviderName/ProviderName). */
export const Providers = ['AWS', 'Azure', 'GoogleCloud', 'Other'] as const

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
        'Where the costs come from: the Azure connector (the default), or FOCUS files pushed to `POST /tenants/{id}/cost-files`. An addition to the contract.',
    }),
    provider: Nullable(
      StringEnum(Providers, {
        description: "The cloud a file source's data names; null until its first import. An addition to the contract.",
      }),
    ),
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
          'Where the costs come from (an addition to the contract): AzureConnector (the default) or FocusUpload (FOCUS files pushed to `POST /tenants/{id}/cost-files`, which needs no cloud credentials).',
      }),
    ),
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
