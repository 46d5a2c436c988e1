import type { Generated } from 'kysely'

/**
 * The tables, as Kysely sees them (camelCase here, snake_case in SQL through CamelCasePlugin).
 * Instants are stored as RFC 3339 UTC text with milliseconds, so they sort as text on both dialects;
 * booleans are 0/1 integers for the same reason.
 */
export interface Database {
  organisations: OrganisationsTable
  users: UsersTable
  tenancyRoles: TenancyRolesTable
  tenants: TenantsTable
  apiKeys: ApiKeysTable
  apiKeyTenancies: ApiKeyTenanciesTable
  rowCounts: RowCountsTable
}

export interface OrganisationsTable {
  id: string
  name: string
  plan: string
  createdAt: string
}

export interface UsersTable {
  id: string
  organisationId: string
  email: string
  displayName: string | null
  isOwner: number
  isDisabled: number
  status: string
  invitedAt: string | null
  createdAt: string
  lastSeenAt: string | null
}

export interface TenancyRolesTable {
  tenancyId: string
  userId: string
  role: string
}

export interface TenantsTable {
  id: string
  organisationId: string
  name: string
  cloudTenantId: string
  credentialType: string
  clientId: string | null
  certificateThumbprint: string | null
  clientSecretSealed: string | null
  connector: string
  createdAt: string
}

export interface ApiKeysTable {
  id: string
  organisationId: string
  name: string
  prefix: string
  hash: string
  ownerScoped: number
  createdAt: string
  createdByType: string
  createdById: string | null
  createdByName: string | null
  expiresAt: string | null
  lastUsedAt: string | null
  revokedAt: string | null
}

export interface ApiKeyTenanciesTable {
  keyId: string
  tenancyId: string
  role: string
}

/** Exact list totals kept in the same transaction as the writes, so `totalCount` never scans a table. */
export interface RowCountsTable {
  counter: string
  n: Generated<number>
}
