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
  subscriptions: SubscriptionsTable
  resourceGroups: ResourceGroupsTable
  resources: ResourcesTable
  events: EventsTable
  idempotencyKeys: IdempotencyKeysTable
  snapshotRuns: SnapshotRunsTable
  dailyCosts: DailyCostsTable
  costStaging: CostStagingTable
  resourceCostSeries: ResourceCostSeriesTable
  groupCostSeries: GroupCostSeriesTable
  costSeries: CostSeriesTable
  resourceRunningCosts: ResourceRunningCostsTable
  cpuMetrics: CpuMetricsTable
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

/** Inventory, as snapshot runs record it. `tags` and `properties` are JSON text (an object of strings for tags). */
export interface SubscriptionsTable {
  tenantId: string
  subscriptionId: string
  displayName: string
  state: string
  currency: string
  firstSeenAt: string
  lastSeenAt: string
}

export interface ResourceGroupsTable {
  id: string
  tenantId: string
  subscriptionId: string
  name: string
  nameLower: string
  armId: string
  location: string | null
  tags: Generated<string>
  firstSeenAt: string
  lastSeenAt: string
}

export interface ResourcesTable {
  id: string
  tenantId: string
  subscriptionId: string
  resourceGroupId: string
  resourceGroupName: string
  armId: string
  armIdLower: string
  name: string
  resourceType: string
  location: string | null
  tags: Generated<string>
  sku: string | null
  state: string | null
  properties: Generated<string>
  firstSeenAt: string
  lastSeenAt: string
}

export interface EventsTable {
  id: string
  tenantId: string
  occurredAt: string
  title: string
  category: string
  description: string | null
  tagKey: string | null
  tagValue: string | null
  createdByType: string
  createdById: string | null
  createdByName: string | null
  createdAt: string
  updatedAt: string
}

/** An Idempotency-Key of a create, per actor and tenant, for 24 hours; `responseBody` is null while in flight. */
export interface IdempotencyKeysTable {
  actorId: string
  tenantId: string
  idempotencyKey: string
  requestHash: string
  responseBody: string | null
  createdAt: string
  expiresAt: string
}

export interface SnapshotRunsTable {
  id: string
  tenantId: string
  status: string
  trigger: string
  scheduledFor: string | null
  deepHistory: number
  requestedAt: string
  requestedBy: string | null
  startedAt: string | null
  completedAt: string | null
  periodStart: string | null
  periodEnd: string | null
  statSubscriptions: Generated<number>
  statResourceGroups: Generated<number>
  statResources: Generated<number>
  statCostRows: Generated<number>
  progress: string | null
  errorCode: string | null
  errorMessage: string | null
  attempts: Generated<number>
  leaseUntil: string | null
  workerId: string | null
  notBefore: string | null
}

export interface DailyCostsTable {
  tenantId: string
  resourceKey: string
  date: string
  meterId: string
  /** FOCUS ChargeCategory: Usage, Purchase, Tax, Credit or Adjustment (Usage when not given). */
  chargeCategory: Generated<string>
  /** FOCUS ChargeClass: 'Correction', or '' for none. */
  chargeClass: Generated<string>
  subscriptionId: string
  resourceGroupKey: string
  meterName: string | null
  serviceName: string
  cost: number
  currency: string
}

export interface CostStagingTable extends DailyCostsTable {
  runId: string
}

/** daily_costs summed over meters: one resource's daily cost per service, charge category and currency. */
export interface ResourceCostSeriesTable {
  tenantId: string
  date: string
  resourceKey: string
  serviceName: string
  chargeCategory: string
  currency: string
  subscriptionId: string
  resourceGroupKey: string
  cost: number
}

/** Daily cost per subscription, resource group and service, charge category and currency. */
export interface GroupCostSeriesTable {
  tenantId: string
  date: string
  subscriptionId: string
  resourceGroupKey: string
  serviceName: string
  chargeCategory: string
  currency: string
  cost: number
}

/** Daily cost of a tenant, subscription, resource group or service (`level`), per charge category and currency. */
export interface CostSeriesTable {
  tenantId: string
  level: string
  date: string
  scopeKey: string
  chargeCategory: string
  currency: string
  cost: number
}

/** A resource's cost (every category) in one currency up to and including `date`, on each day it has cost. */
export interface ResourceRunningCostsTable {
  tenantId: string
  resourceKey: string
  currency: string
  date: string
  runningCost: number
}

export interface CpuMetricsTable {
  tenantId: string
  resourceKey: string
  date: string
  averagePercent: number
  maxPercent: number
}
