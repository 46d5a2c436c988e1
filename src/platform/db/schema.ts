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
  costResources: CostResourcesTable
  costCoverage: CostCoverageTable
  costBillingPeriods: CostBillingPeriodsTable
  resourceCostSeries: ResourceCostSeriesTable
  groupCostSeries: GroupCostSeriesTable
  costSeries: CostSeriesTable
  resourceRunningCosts: ResourceRunningCostsTable
  resourceMonthEnds: ResourceMonthEndsTable
  resourceCostTotals: ResourceCostTotalsTable
  resourceTags: ResourceTagsTable
  tagCostSeries: TagCostSeriesTable
  tagValueSeries: TagValueSeriesTable
  cpuMetrics: CpuMetricsTable
  analysisRuns: AnalysisRunsTable
  sessions: SessionsTable
  passwordResets: PasswordResetsTable
  signInFailures: SignInFailuresTable
  anomalies: AnomaliesTable
  insights: InsightsTable
  invitations: InvitationsTable
  mailOutbox: MailOutboxTable
  auditLog: AuditLogTable
  reports: ReportsTable
  reportTenancies: ReportTenanciesTable
  reportRuns: ReportRunsTable
  reportRunTenancies: ReportRunTenanciesTable
  notificationChannels: NotificationChannelsTable
  notificationDeliveries: NotificationDeliveriesTable
  alertRules: AlertRulesTable
  alertRuleTenancies: AlertRuleTenanciesTable
  alertRuns: AlertRunsTable
  alertSends: AlertSendsTable
  budgets: BudgetsTable
  budgetTenancies: BudgetTenanciesTable
  budgetThresholdStates: BudgetThresholdStatesTable
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
  /** The address lower-cased: unique per organisation, so one address is one member whatever its spelling. */
  emailKey: string | null
  /** `scrypt$N$r$p$salt$hash` (platform/auth/password.ts); null until the invitation is accepted or a reset. */
  passwordHash: string | null
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
  /** AzureConnector, FocusExport or FocusUpload (migration 0035). */
  costSource: Generated<string>
  /** AWS, Azure, GoogleCloud or Other, from a file source's data; null until known. */
  provider: string | null
  /** A FocusExport tenant's location without its secret (JSON). */
  locationJson: string | null
  locationSecretSealed: string | null
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
  /** The subscription, or the AWS account or Google Cloud project. */
  subscriptionId: string
  /** Null for a cloud without resource groups (AWS, Google Cloud). */
  resourceGroupId: string | null
  resourceGroupName: string | null
  armId: string
  armIdLower: string
  name: string
  resourceType: string
  location: string | null
  tags: Generated<string>
  /** The start of the charge period whose FOCUS row the tags came from; null when a collection read them. */
  tagsAt: string | null
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
  /** The predicted change in monthly cost (all null without a prediction). */
  predictionMonthlyDelta: number | null
  predictionCurrency: string | null
  predictionSource: string | null
  predictionCommit: string | null
  predictionPullRequestUrl: string | null
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

/**
 * The columns every run table has (snake_case in SQL), whatever its kind adds; `platform/runs` owns their life.
 * `tenant_id` may be null for a run that belongs to no tenant. A run table also wants an index on
 * (status, requested_at, id) for the claim.
 */
export interface RunColumns {
  id: string
  tenantId: string | null
  status: string
  requestedAt: string
  startedAt: string | null
  completedAt: string | null
  attempts: Generated<number>
  leaseUntil: string | null
  workerId: string | null
  progress: string | null
  errorCode: string | null
  errorMessage: string | null
  notBefore: string | null
}

export interface SnapshotRunsTable extends RunColumns {
  tenantId: string
  trigger: string
  scheduledFor: string | null
  deepHistory: number
  requestedBy: string | null
  periodStart: string | null
  periodEnd: string | null
  statSubscriptions: Generated<number>
  statResourceGroups: Generated<number>
  statResources: Generated<number>
  statCostRows: Generated<number>
  /** An import's billing periods: [{billingPeriod, files, rows, replaced}] (JSON). */
  periodsJson: string | null
  /** An import's FOCUS conformance counts: [{requirement, description, failedRows}] (JSON). */
  conformanceJson: string | null
}

/** Cost rows of a day, keyed (resource_id, date, meter_id, charge_category, charge_class). */
export interface DailyCostsTable {
  /** `YYYY-MM`, the month of `date`: the head of the key, so a month's rows are written together. */
  month: string
  /** cost_resources.id: the resource (and so the tenant) the row is of. */
  resourceId: number
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
  /** The FOCUS billing period (`YYYY-MM`) of a file source's row; '' for a connector's. */
  billingPeriod: Generated<string>
}

export interface CostStagingTable extends Omit<DailyCostsTable, 'resourceId' | 'month'> {
  runId: string
  tenantId: string
  resourceKey: string
}

/**
 * The number of each resource with cost in a tenant (its key: the lower-cased ARM id, '' for charges of a
 * subscription itself), by which the resource series and running totals name it: a few bytes instead of an ARM
 * path in each of their millions of rows.
 */
/**
 * What each source of a tenant's costs (a connector's collections, `focus` imports) covered and settled: days after
 * `settledThrough` are still restated (migration 0029).
 */
export interface CostCoverageTable {
  tenantId: string
  source: string
  coveredFrom: string
  coveredTo: string
  settledThrough: string
  updatedAt: string
}

/** One billing period of a file-sourced tenant: what its current version covers and came from (migration 0035). */
export interface CostBillingPeriodsTable {
  tenantId: string
  billingPeriod: string
  coveredFrom: string
  coveredTo: string
  /** [{name, version}]: each file's name and its ETag or content hash. */
  filesJson: string
  rows: number
  runId: string
  updatedAt: string
}

export interface CostResourcesTable {
  id: Generated<number>
  tenantId: string
  resourceKey: string
}

/** daily_costs summed over meters: one resource's daily cost per service, charge category and currency. */
export interface ResourceCostSeriesTable {
  tenantId: string
  date: string
  /** cost_resources.id */
  resourceId: number
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
  /** `YYYY-MM`, the month of `date`: the head of the key, so a month's running totals are written together. */
  month: string
  /** cost_resources.id (one tenant's) */
  resourceId: number
  currency: string
  date: string
  runningCost: number
  /** The cost of that day alone. */
  cost: number
}

/**
 * Per resource, currency and month with running totals, the month's last day with one and that running total: where
 * a running total on or before a day is found when the day's month has none before it (see runningTotalOnOrBefore).
 */
export interface ResourceMonthEndsTable {
  resourceId: number
  currency: string
  month: string
  date: string
  runningCost: number
}

/**
 * Per resource and currency, its first and last day with cost and its running total on the last: a chart ranks a
 * tenant's resources by reading these rows, with a seek into the running totals only for a range ending before a
 * resource's last day or starting after its first.
 */
export interface ResourceCostTotalsTable {
  tenantId: string
  currency: string
  resourceKey: string
  /** cost_resources.id: what a seek into the running totals takes */
  resourceId: number
  firstDate: string
  lastDate: string
  runningCost: number
}

/** The value of one tag key (lower-cased) of a resource, as the tag series were last summed with. */
export interface ResourceTagsTable {
  tenantId: string
  resourceKey: string
  tagKey: string
  tagValue: string
}

/**
 * The cost of a tenant's resources with one value of a tag key, per day, currency, charge category, service and
 * resource group key (any subscription).
 */
export interface TagCostSeriesTable {
  tenantId: string
  tagKey: string
  date: string
  tagValue: string
  currency: string
  chargeCategory: string
  serviceName: string
  resourceGroupKey: string
  cost: number
}

/** tag_cost_series summed per tag key, day, value and currency: what a chart by tag reads. */
export interface TagValueSeriesTable {
  tenantId: string
  tagKey: string
  date: string
  tagValue: string
  currency: string
  cost: number
}

export interface CpuMetricsTable {
  tenantId: string
  resourceKey: string
  date: string
  averagePercent: number
  maxPercent: number
  /** The day's 95th percentile of the hourly values; null for days collected before it was kept. */
  p95Percent: number | null
}

/** A tenant's analysis of the days `rangeFrom`..`rangeTo` (anomalies) and of its estate (insights). */
export interface AnalysisRunsTable extends RunColumns {
  tenantId: string
  sourceRunId: string | null
  rangeFrom: string
  rangeTo: string
}

/** A signed-in browser; the cookie holds the id, the table only its SHA-256. */
export interface SessionsTable {
  idHash: string
  userId: string
  createdAt: string
  lastSeenAt: string
  expiresAt: string
  address: string | null
  userAgent: string | null
}

/** A single-use password reset link, by the SHA-256 of its token. */
/** Failed sign-ins in a row of one client address on one account, and the lock they set (features/session). */
export interface SignInFailuresTable {
  userId: string
  address: string
  failures: number
  lockedUntil: string | null
  lastFailedAt: string
}

export interface PasswordResetsTable {
  tokenHash: string
  userId: string
  createdAt: string
  expiresAt: string
  usedAt: string | null
}

/** One anomaly per (tenant, scope, day raised); detection upserts the numbers, people set the status. */
export interface AnomaliesTable {
  id: string
  organisationId: string
  tenantId: string
  scopeKey: string
  scopeKind: string
  subscriptionId: string | null
  resourceGroupName: string | null
  resourceId: string | null
  serviceName: string | null
  dateRaised: string
  severity: string
  status: string
  expectedCost: number
  actualCost: number
  impact: number
  impactPercent: number
  currency: string
  description: string
  /** JSON array of the drivers (see anomalies/schemas.ts AnomalyDriver). */
  drivers: Generated<string>
  detectedAt: string
  updatedAt: string
  statusChangedAt: string | null
  statusChangedByType: string | null
  statusChangedById: string | null
  statusChangedByName: string | null
  /** The episode's last anomalous day so far (it may go on while `ongoing` is 1). */
  episodeEnd: string | null
  ongoing: Generated<number>
  /** Expected and actual spend, and the impact, summed over the episode's days; its largest day's impact. */
  episodeExpectedCost: number | null
  episodeActualCost: number | null
  totalImpact: number | null
  maxImpact: number | null
  /** The id of the anomaly heading this one's incident (its own id when it heads it). */
  incidentId: string | null
  /** A person's judgement: Expected, NotAnAnomaly or Confirmed. */
  feedback: string | null
  feedbackAt: string | null
  feedbackByType: string | null
  feedbackById: string | null
  feedbackByName: string | null
}

/**
 * A condition an insight rule found on a resource, one row per (tenant, resource, category). `found` is 1 while
 * the latest analysis still finds it; `lastAction*` is the last action a person took (never the service's own).
 */
export interface InsightsTable {
  id: string
  tenantId: string
  resourceId: string
  category: string
  resourceName: string
  subscriptionId: string
  resourceGroupName: string
  severity: string
  title: string
  description: string
  recommendation: string
  estimatedMonthlySavings: number
  currency: string
  status: string
  snoozedUntil: string | null
  found: number
  lastAction: string | null
  lastActionAt: string | null
  lastActionByType: string | null
  lastActionById: string | null
  lastActionByName: string | null
  lastActionSnoozeDays: number | null
  detectedAt: string
  updatedAt: string
}

/** A single-use invitation link: only the SHA-256 of its token is kept. */
export interface InvitationsTable {
  tokenHash: string
  userId: string
  createdAt: string
  expiresAt: string
  usedAt: string | null
  /** Set when a newer link for the same user replaced this one. */
  replacedAt: string | null
}

/** The mail outbox: each message is a run of the `mail` kind (see platform/mail). */
export interface MailOutboxTable extends RunColumns {
  organisationId: string | null
  recipient: string
  subject: string
  /** The message sealed with the secret key (it may hold a single-use link); null once delivered. */
  bodySealed: string | null
  messageId: string | null
}

/** Who changed access to what, when and from where; written in the transaction of the change. */
export interface AuditLogTable {
  id: string
  organisationId: string
  at: string
  actorType: string
  actorId: string | null
  actorName: string | null
  action: string
  targetType: string
  targetId: string
  /** JSON object of details (a role, a key name), never a secret. */
  detail: string | null
  /** The client address of an HTTP request, or `cli`. */
  origin: string
}

/** A report definition; `parameters` and `schedule` are JSON text. */
export interface ReportsTable {
  id: string
  organisationId: string
  name: string
  description: string | null
  kind: string
  parameters: string
  organisationWide: number
  schedule: string | null
  createdAt: string
  updatedAt: string
}

export interface ReportTenanciesTable {
  reportId: string
  tenancyId: string
}

export interface ReportRunsTable extends RunColumns {
  reportId: string
  trigger: string
  scheduledFor: string | null
  requestedBy: string | null
  periodStart: string | null
  periodEnd: string | null
  rowCount: number | null
  preview: string | null
  files: string | null
  /** What the run covers, recorded when it is queued: 1 for the whole organisation, else its report_run_tenancies. */
  organisationWide: Generated<number>
}

/** The tenancies a run covers (those of its report when it was queued); none for an organisation-wide run. */
export interface ReportRunTenanciesTable {
  runId: string
  tenancyId: string
}

/** Where alerts go (migration 0030). JSON columns are text; the URL and the signing secrets are sealed. */
export interface NotificationChannelsTable {
  id: string
  organisationId: string
  name: string
  /** Email, Slack, Teams or Webhook. */
  type: string
  enabled: number
  disabledReason: string | null
  urlSealed: string | null
  /** JSON string[] (Email). */
  emails: string | null
  /** JSON string[] (Email): users of the organisation. */
  userIds: string | null
  secretSealed: string | null
  previousSecretSealed: string | null
  previousSecretUntil: string | null
  createdAt: string
  updatedAt: string
}

/** One message to one channel: a run of the `notification` kind. */
export interface NotificationDeliveriesTable extends RunColumns {
  organisationId: string
  channelId: string
  ruleId: string | null
  eventType: string
  /** Unique per channel: the same event is never queued twice to one channel. */
  eventKey: string
  webhookId: string
  /** JSON of the event (see features/notifications/message.ts). */
  payload: string
  /** Succeeded, Accepted or Failed once settled. */
  outcome: string | null
  lastStatusCode: number | null
  lastError: string | null
  latencyMs: number | null
}

export interface AlertRulesTable {
  id: string
  organisationId: string
  name: string
  enabled: number
  /** JSON string[]. */
  channelIds: string
  /** JSON of the rule's scope. */
  scope: string
  triggerType: string
  /** JSON of the trigger. */
  trigger: string
  frequency: string
  digestHour: number | null
  digestWeekday: string | null
  timeZone: string
  sendWhenQuiet: number
  createdAt: string
  updatedAt: string
}

export interface AlertRuleTenanciesTable {
  ruleId: string
  tenancyId: string
}

/** An evaluation of alert rules: after an analysis run (`analysis`) or for one rule's digest period (`digest`). */
export interface AlertRunsTable extends RunColumns {
  organisationId: string | null
  source: string
  sourceRunId: string | null
  ruleId: string | null
  periodKey: string | null
}

/** What a rule has sent about a subject, and at which level (an anomaly's severity rank). */
export interface AlertSendsTable {
  ruleId: string
  subjectKey: string
  level: number
  sentAt: string
}

/** A budget: an amount per period over a scope, with thresholds (see migration 0033). */
export interface BudgetsTable {
  id: string
  organisationId: string
  name: string
  /** JSON: {tenancyIds, tags, resourceGroup, service}. */
  scope: string
  /** Monthly, Quarterly, Annually or Custom. */
  period: string
  /** The amount of each period; null for Custom, whose periods carry their own. */
  amount: number | null
  /** JSON: [{from, to, amount}] of a Custom budget; null otherwise. */
  periods: string | null
  currency: string
  startDate: string
  /** Effective or Billed. */
  costBasis: string
  /** JSON: [{kind, value, basis}]. */
  thresholds: string
  createdAt: string
  updatedAt: string
}

/** The tenancies of a budget's scope, for visibility (a budget of no tenancy is organisation-wide). */
export interface BudgetTenanciesTable {
  budgetId: string
  tenancyId: string
}

/** A threshold that alarmed in a period, since a day: it alarms once a period. */
export interface BudgetThresholdStatesTable {
  budgetId: string
  thresholdIndex: number
  periodFrom: string
  since: string
}
