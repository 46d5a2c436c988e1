import type { Clock } from '../platform/clock.js'

/** How a connector signs in at the provider for a tenant. */
export const CredentialTypes = ['ServicePrincipalSecret', 'ServicePrincipalCertificate', 'ManagedIdentity'] as const
export type CredentialType = (typeof CredentialTypes)[number]

/** What a connector needs to reach one tenant at its provider. The secret is already decrypted. */
export interface TenantConnection {
  /** Costwatch's id of the tenant (a UUID). */
  tenantId: string
  /** The directory id at the provider: a GUID or a domain name (validated when the tenant was created). */
  cloudTenantId: string
  credentialType: CredentialType
  clientId: string | null
  clientSecret: string | null
  certificateThumbprint: string | null
}

/** UTC days, both ends inclusive, as `YYYY-MM-DD`. */
export interface DayWindow {
  from: string
  to: string
}

export interface SubscriptionItem {
  subscriptionId: string
  displayName: string
  /** Enabled, Disabled, Warned, PastDue or Deleted, as the provider reports it. */
  state: string
  /** ISO 4217 billing currency. */
  currency: string
}

export interface ResourceGroupItem {
  subscriptionId: string
  name: string
  /** `/subscriptions/{id}/resourceGroups/{name}` */
  armId: string
  location: string | null
  tags: Record<string, string>
}

export interface ResourceItem {
  /**
   * Full ARM id, e.g. `/subscriptions/{id}/resourceGroups/{rg}/providers/Microsoft.Compute/virtualMachines/{name}`,
   * or another cloud's own id (an ARN, a Google Cloud resource name).
   */
  armId: string
  name: string
  /** e.g. `microsoft.compute/virtualmachines` (compared case-insensitively). */
  resourceType: string
  location: string | null
  /** The subscription, or the AWS account or Google Cloud project. */
  subscriptionId: string
  /** Null for a cloud without resource groups (AWS, Google Cloud). */
  resourceGroupName: string | null
  tags: Record<string, string>
  /**
   * The start (an instant) of the charge period of the FOCUS row the tags were read from: an import of an older
   * period does not replace newer tags. Absent when a collection read them (they are current).
   */
  tagsSeenAt?: string
  sku: string | null
  /** Provisioning or power state where the type has one (e.g. `VM running`, `VM deallocated`, `Unattached`). */
  state: string | null
  /** The properties the insight rules read (e.g. `licenseType`, `diskState`, `osType`, `vmSize`), as reported. */
  properties: Record<string, unknown>
}

export interface InventorySnapshot {
  subscriptions: SubscriptionItem[]
  resourceGroups: ResourceGroupItem[]
  resources: ResourceItem[]
}

/** FOCUS 1.0 ChargeCategory: what kind of charge a cost row is. */
export const ChargeCategories = ['Usage', 'Purchase', 'Tax', 'Credit', 'Adjustment'] as const
export type ChargeCategory = (typeof ChargeCategories)[number]

/** FOCUS 1.0 ChargeClass: 'Correction' marks a charge that corrects one of an earlier billing period. */
export type ChargeClass = 'Correction'

/**
 * One amortised cost (FOCUS EffectiveCost) of one resource (or subscription), meter and kind of charge on one
 * UTC day.
 */
export interface DailyCostRow {
  /** `YYYY-MM-DD`, UTC day of the charge period start. */
  date: string
  subscriptionId: string
  /** The resource's ARM id; null for charges without a resource (purchases, taxes), which belong to the subscription. */
  resourceArmId: string | null
  resourceGroupName: string | null
  /** Identifies the meter: with resource, date, charge category and class it is the natural key of a cost row. */
  meterId: string
  meterName: string | null
  /**
   * Usage, Purchase, Tax, Credit or Adjustment. Part of the key with the class: a purchase, a tax or a refund of one
   * meter and day is a row of its own, not added to its usage (anomaly detection reads usage alone).
   */
  chargeCategory: ChargeCategory
  /** 'Correction' for a charge correcting an earlier period, else null. */
  chargeClass: ChargeClass | null
  /** The service (e.g. `Virtual Machines`, `Storage`), for cost breakdowns. */
  serviceName: string
  cost: number
  currency: string
  /**
   * `YYYY-MM`, the billing period the row was billed in (the UTC month of FOCUS BillingPeriodStart), where the
   * source has billing periods: a FOCUS import replaces costs a billing period at a time. Part of the key: the same
   * charge restated in a later period's bill is a row of that period.
   */
  billingPeriod?: string
}

/** What describes a cost row besides its day and cost. */
export type CostRowKey = Omit<DailyCostRow, 'date' | 'cost'>

/**
 * Cost rows that share their descriptions: row i is `keys[i]` on `dates[i]`, costing `costs[i]`, and rows of one
 * key hold the same object. What a FOCUS import reads: a row's key is found once per distinct key, by reference,
 * where the texts of each row were looked up.
 */
export interface KeyedCostRows {
  keys: CostRowKey[]
  dates: string[]
  costs: Float64Array<ArrayBuffer>
}

/** Keyed rows back to one object per row. */
export function toDailyCostRows(rows: KeyedCostRows): DailyCostRow[] {
  return rows.keys.map((key, i) => ({ ...key, date: rows.dates[i]!, cost: rows.costs[i]! }))
}

export interface CpuSample {
  resourceArmId: string
  /** `YYYY-MM-DD` */
  date: string
  averagePercent: number
  maxPercent: number
  /** The day's 95th percentile of the VM's hourly CPU (nearest rank of its hourly averages); null when unknown. */
  p95Percent: number | null
}

/** What the worker gives every call of a collection. */
export interface CollectContext {
  /** The worker's clock: whatever a connector dates by "now" (a lookback window, a Retry-After date) follows it. */
  clock: Clock
  /** Aborted when the run is no longer this worker's (its lease was lost). */
  signal?: AbortSignal
}

/**
 * Where cost and inventory data come from. Every method may be called again for the same window (a retried
 * run): results are upserted by natural keys, so repeating a call never double counts.
 */
export interface Connector {
  readonly name: string
  inventory(conn: TenantConnection, context: CollectContext): Promise<InventorySnapshot>
  /** Daily costs in the window, in batches (a provider pages its answers; a batch is one page or more). */
  dailyCosts(conn: TenantConnection, window: DayWindow, context: CollectContext): AsyncIterable<DailyCostRow[]>
  /** Daily CPU of the given virtual machines in the window (for idle and over-provisioned rules). */
  cpuMetrics(
    conn: TenantConnection,
    vmArmIds: string[],
    window: DayWindow,
    context: CollectContext,
  ): Promise<CpuSample[]>
}

/** A failure the run records as its error: a stable code and a message fit for the user (never a secret). */
export class ConnectorError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable = false,
  ) {
    super(message)
  }
}
