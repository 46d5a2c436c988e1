import { MIN_FORECAST_HISTORY_DAYS } from './analysis/forecast/model.js'
import type { Config } from './config.js'
import { createAlertService } from './features/alerts/service.js'
import { createAlertSources } from './features/alerts/sources.js'
import { ALERT_RUNS, type AlertRunColumns, type AlertStore, createAlertStore } from './features/alerts/store.js'
import { createAnalysers } from './features/analysis/analysers.js'
import { ANALYSIS_RUNS, type AnalysisRunColumns, createAnalysisStore } from './features/analysis/store.js'
import { activeAnomalyCounts } from './features/anomalies/public.js'
import { createAnomalyService } from './features/anomalies/service.js'
import { resourceRemovals, type SettlingReads } from './features/anomalies/settling.js'
import { createAnomalyStore } from './features/anomalies/store.js'
import { createApiKeyService } from './features/apikeys/service.js'
import { createApiKeyStore } from './features/apikeys/store.js'
import { createBudgetService } from './features/budgets/service.js'
import { type BudgetStore, createBudgetStore } from './features/budgets/store.js'
import { createCostIngest } from './features/costs/ingest.js'
import { createCostReads } from './features/costs/read/index.js'
import { createCostService } from './features/costs/service.js'
import { createEventService } from './features/events/service.js'
import { createEventStore } from './features/events/store.js'
import { createInsightService } from './features/insights/service.js'
import { activeInsightSavings, createInsightStore } from './features/insights/store.js'
import { createInventoryService } from './features/inventory/service.js'
import { createInventoryStore, currentResourceTags, inventoryForCosts } from './features/inventory/store.js'
import { createDeliveryStore } from './features/notifications/deliveries.js'
import { createDeliveryService } from './features/notifications/delivery-service.js'
import type { QueueDeliveries } from './features/notifications/public.js'
import { createChannelService } from './features/notifications/service.js'
import { createChannelStore } from './features/notifications/store.js'
import type { ChannelDirectory } from './features/notifications/target.js'
import { createOrganisationService } from './features/organisation/service.js'
import { createOrganisationStore } from './features/organisation/store.js'
import { createOverviewService, type TenancyMonthEnd } from './features/overview/service.js'
import { createReportService } from './features/reports/service.js'
import { createReportStore, REPORT_RUNS, type ReportRunColumns } from './features/reports/store.js'
import { createSessionService } from './features/session/service.js'
import { createSessionStore, endSessionsOf } from './features/session/store.js'
import type { AfterSnapshot } from './features/snapshots/collect.js'
import { createFocusImporter } from './features/snapshots/import.js'
import { createSnapshotService } from './features/snapshots/service.js'
import {
  createSnapshotStore,
  latestCollectionStart,
  SNAPSHOT_RUNS,
  type SnapshotRunColumns,
} from './features/snapshots/store.js'
import { createUploadService } from './features/snapshots/upload.js'
import { hostCredentialPolicy } from './features/tenants/host-credentials.js'
import type { TenantRecord } from './features/tenants/schemas.js'
import { createTenantService } from './features/tenants/service.js'
import {
  bumpVersionOfTenancies,
  createTenantStore,
  notInOrganisation,
  organisationTenancies,
} from './features/tenants/store.js'
import { createUserService } from './features/users/service.js'
import { createUserStore } from './features/users/store.js'
import { createAuditStore } from './platform/audit.js'
import { createAnonymousLimiter, createAuthFailureLimiter } from './platform/auth/failures.js'
import { createUrlSigner } from './platform/blobs/signing.js'
import { openBlobStore } from './platform/blobs/store.js'
import type { Clock, Ids } from './platform/clock.js'
import { createSecretBox } from './platform/crypto.js'
import type { Db } from './platform/db/index.js'
import { ApiError } from './platform/http/errors.js'
import { createOutbox, MAIL_RUNS, type MailRunColumns } from './platform/mail.js'
import { createOutboundClient } from './platform/outbound/index.js'
import { createRunEvents, type RunEvents } from './platform/runs/events.js'
import { createRunStore, type RunStore } from './platform/runs/store.js'
import { addDays, dayCount, toDay } from './platform/time.js'

/** Every feature wired once, for the HTTP app and the command line alike. */
export function createServices(deps: {
  db: Db
  config: Config
  clock: Clock
  ids: Ids
  warn?: (err: unknown, message: string) => void
  /** Wakes the worker of this process when a run of any kind is queued. */
  onRunQueued?: () => void
  /** Called after a snapshot run or a FOCUS import succeeded, outside its transaction; a failure is only logged. */
  afterSnapshot?: AfterSnapshot[]
}) {
  const { db, config, clock, ids } = deps
  const secrets = createSecretBox(config.secretKey)
  const organisationStore = createOrganisationStore(db.kysely)
  const tenantStore = createTenantStore(db.kysely)
  const hostCredentials = hostCredentialPolicy({
    organisations: config.hostCredentialOrganisations,
    isOnlyOrganisation: organisationStore.isOnly,
  })
  const userStore = createUserStore(db.kysely)
  const runEvents = createRunEvents({
    onListenerError: (err, event) => deps.warn?.(err, `a listener of ${event.type} failed for run ${event.runId}`),
  })
  runEvents.on('run:queued', () => deps.onRunQueued?.())
  const snapshotStore = createSnapshotStore(
    db.kysely,
    createRunStore<SnapshotRunColumns>(db, SNAPSHOT_RUNS, { clock, events: runEvents }),
  )
  const analysisStore = createAnalysisStore(
    db.kysely,
    createRunStore<AnalysisRunColumns>(db, ANALYSIS_RUNS, { clock, events: runEvents }),
    { clock, ids },
  )
  const outbox = createOutbox({
    secrets,
    ids,
    clock,
    events: runEvents,
    runs: createRunStore<MailRunColumns>(db, MAIL_RUNS, { clock, events: runEvents }),
  })
  const deliveryStore = createDeliveryStore(db, { clock, ids, events: runEvents })
  /** For the alerts feature: one delivery per enabled channel and request, in the alert run's transaction. */
  const queueDeliveries: QueueDeliveries = async (tx, requests) => (await deliveryStore.queue(tx, requests)).length
  const users = createUserService({
    store: userStore,
    outbox,
    clock,
    ids,
    publicUrl: config.publicUrl,
    organisationName: async (id) => (await organisationStore.get(id))?.name ?? null,
    organisationOfTenancy: tenantStore.organisationOf,
    endSessionsOf,
  })
  const costIngest = createCostIngest(db.kysely, db.dialect, currentResourceTags)
  const focusImporter = createFocusImporter({
    tenants: tenantStore,
    runs: snapshotStore,
    costs: costIngest,
    clock,
    ids,
  })
  const blobs = openBlobStore(config.blobUrl, config.s3)
  const reportStore = createReportStore(
    db.kysely,
    createRunStore<ReportRunColumns>(db, REPORT_RUNS, { clock, events: runEvents }),
  )
  const reports = createReportService({
    store: reportStore,
    blobs,
    signer: createUrlSigner({ secretKey: config.secretKey, clock, lifetimeSeconds: config.signedUrlSeconds }),
    publicUrl: config.publicUrl,
    clock,
    ids,
  })
  const inventoryStore = createInventoryStore(db.kysely, db.dialect)
  const costReads = createCostReads(db.kysely, inventoryForCosts(db.kysely, db.dialect))
  const eventStore = createEventStore(db.kysely, db.dialect)
  const anomalyStore = createAnomalyStore(db.kysely)
  const insightStore = createInsightStore(db.kysely, { ids, costs: costReads })
  const settlingReads: SettlingReads = {
    costCoverage: (tenantId) => costReads.costCoverage(tenantId),
    stoppedResources: (tenantId, from, before) => costReads.stoppedResources(tenantId, from, before),
    // A resource the latest collection did not see was deleted (imports name only the resources they bill).
    async deletedResources(tenantId) {
      const since = await latestCollectionStart(db.kysely, tenantId)
      return since === null ? null : inventoryStore.resourceKeysNotSeenSince(tenantId, since)
    },
  }
  const analysers = createAnalysers({
    anomalies: {
      store: anomalyStore,
      costs: costReads,
      inventory: inventoryStore,
      organisationOf: (tenantId) => tenantStore.organisationOf(tenantId),
      settling: settlingReads,
      options: config.anomalyDetection,
      clock,
      ids,
    },
    insights: { store: insightStore },
  })
  /** New costs are analysed in a run of their own, over the days the snapshot or import wrote. */
  const requestAnalysis: AfterSnapshot = async (tenantId, runId) => {
    const run = await snapshotStore.byId(runId)
    if (!run?.periodStart || !run.periodEnd) return
    await analysisStore.request(tenantId, run.periodStart, run.periodEnd, runId)
  }
  wireSnapshotRunEvents(runEvents, [requestAnalysis, ...(deps.afterSnapshot ?? [])], deps.warn)
  /** A tenant's latest run and cost totals (as of `today`, a UTC day), read for a whole page in two queries. */
  const decorateTenants = async (records: TenantRecord[], today: string): Promise<TenantRecord[]> => {
    const tenantIds = records.map((r) => r.id)
    const [latest, totals] = await Promise.all([
      snapshotStore.latestOf(tenantIds),
      costReads.tenantTotals(tenantIds, today),
    ])
    return records.map((r) => ({ ...r, lastSnapshot: latest.get(r.id) ?? null, costs: totals.get(r.id) ?? r.costs }))
  }
  const apiKeys = createApiKeyService({
    store: createApiKeyStore(db.kysely),
    clock,
    ids,
    tenancyBelongsTo: async (tenancyId, organisationId) =>
      (await tenantStore.organisationOf(tenancyId)) === organisationId,
    principalOfUser: users.principalOf,
    emailsOfUsers: userStore.emailsOf,
    onTouchError: (err) => deps.warn?.(err, 'could not record when an API key was last used'),
  })
  const events = createEventService({
    store: eventStore,
    inventory: inventoryStore,
    clock,
    ids,
  })
  const inventory = createInventoryService({
    store: inventoryStore,
    costs: costReads,
    clock,
    // Removed resources are information on their records, never drop anomalies (the rule detection adopts them by).
    removals: (tenantId, today) => resourceRemovals(settlingReads, tenantId, today),
  })
  const anomalies = createAnomalyService({
    store: anomalyStore,
    costs: costReads,
    events: eventStore,
    inventory: inventoryStore,
    clock,
    // From the episode's start to the tenant's newest cost day: every later judgement of the scope may change.
    requestAnalysis: async (tenantId, from) => {
      const newest = await costReads.observedWindow(tenantId, addDays(toDay(clock.now()), 1), 1)
      const to = newest && newest.to > from ? newest.to : from
      await analysisStore.request(tenantId, from, to, null)
    },
  })
  const alertStore = createAlertStore(
    db.kysely,
    createRunStore<AlertRunColumns>(db, ALERT_RUNS, { clock, events: runEvents }),
  )
  const budgetStore = createBudgetStore(db.kysely)
  const budgets = createBudgetService({
    store: budgetStore,
    tenancies: {
      unknownTenancies: (organisationId, tenancyIds) => notInOrganisation(db.kysely, organisationId, tenancyIds),
      organisationTenancies: async (organisationId) =>
        (await organisationTenancies(db.kysely, organisationId)).map((t) => t.id),
    },
    costs: costReads,
    markers: async (tenancyId, from, to) =>
      (await events.visible(tenancyId, { scope: 'tenant', from: `${from}T00:00:00.000Z`, to: `${to}T23:59:59.999Z` }))
        .items,
    clock,
    ids,
  })
  const alertSources = createAlertSources(db.kysely, {
    anomalies,
    inventory: inventoryStore,
    predictions: { predictedSince: eventStore.predictedSince, observedChange: anomalies.observedChange },
    budgets,
  })
  wireAlertRunEvents(runEvents, alertStore, budgetStore, { ids, clock, onRunQueued: deps.onRunQueued })
  /** Failed authentications per client address (keys, sessions, sign-ins), refused with 429 past the limit. */
  const authFailures = createAuthFailureLimiter(config.authFailureLimitPerMinute)
  const sessions = createSessionService({
    store: createSessionStore(db.kysely),
    clock,
    ids,
    secretKey: config.secretKey,
    publicUrl: config.publicUrl,
    outbox,
    mailEnabled: config.smtpUrl !== null,
    failures: authFailures,
  })
  const costs = createCostService({ series: costReads, inventoryStore, inventory, events, clock })
  /** A tenancy's month-end as its cost forecast gives it; under 28 days of usage history, none. */
  const monthEnd = async (tenantId: string): Promise<TenancyMonthEnd> => {
    try {
      const forecast = await costs.forecast(tenantId, {})
      const total = forecast.series[0]?.monthEnd
      return {
        currency: forecast.currency,
        historyDays: dayCount(forecast.historyFrom, forecast.historyTo),
        requiredDays: MIN_FORECAST_HISTORY_DAYS,
        monthEnd: total ? { expected: total.expected, lower: total.lower, upper: total.upper } : null,
      }
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'not-enough-history') throw err
      return {
        currency: await costReads.billingCurrency(tenantId),
        historyDays: Number(err.more.extra?.historyDays ?? 0),
        requiredDays: MIN_FORECAST_HISTORY_DAYS,
        monthEnd: null,
      }
    }
  }
  /** Every request to a URL someone gave (webhooks, Slack, Teams) goes through this guard. */
  const outbound = createOutboundClient({ allow: config.outboundAllow })
  const channels = createChannelService({
    store: createChannelStore(db.kysely),
    secrets,
    outbound,
    outbox,
    clock,
    ids,
    publicUrl: config.publicUrl,
    contacts: (organisationId, which) => userStore.contacts(organisationId, which),
    organisationName: async (id) => (await organisationStore.get(id))?.name ?? null,
  })
  return {
    runEvents,
    sessions,
    authFailures,
    /** Requests per client address to what needs no key or session (sign-in, resets, invitation pages). */
    anonymousRequests: createAnonymousLimiter(config.anonymousLimitPerMinute),
    /** The store of every run kind's table (queue depth metrics). */
    runStores: [
      snapshotStore.runs,
      analysisStore.runs,
      outbox.runs,
      reportStore.runs,
      deliveryStore.runs,
      alertStore.runs,
    ] as RunStore[],
    deliveryStore,
    queueDeliveries,
    analysisStore,
    analysers,
    secrets,
    outbox,
    outbound,
    audit: createAuditStore(db.kysely),
    organisationStore,
    tenantStore,
    hostCredentials,
    userStore,
    users,
    apiKeys,
    organisations: createOrganisationService({
      db: db.kysely,
      organisations: organisationStore,
      users: userStore,
      apiKeys,
      clock,
      ids,
      defaultReports: reports.createDefaults,
    }),
    tenants: createTenantService({
      store: tenantStore,
      clock,
      ids,
      secrets,
      connector: config.connector,
      hostCredentials,
      outboundAllow: config.outboundAllow,
      decorate: decorateTenants,
    }),
    snapshotStore,
    costIngest,
    costReads,
    blobs,
    reportStore,
    reports,
    alertStore,
    alertSources,
    alerts: createAlertService({ store: alertStore, sources: alertSources, clock, ids }),
    snapshots: createSnapshotService({
      store: snapshotStore,
      clock,
      ids,
      costSourceOf: tenantStore.costSourceOf,
    }),
    events,
    inventory,
    ...focusImporter,
    uploads: createUploadService({
      importer: focusImporter,
      costSourceOf: tenantStore.costSourceOf,
      maxBytes: config.uploadMaxBytes,
      warn: deps.warn,
    }),
    anomalies,
    /** Notification channels: the API's, and what deliveries read of them (`channelDirectory`). */
    channels,
    channelDirectory: channels as ChannelDirectory,
    /** Deliveries: the test button, the delivery log, redelivery. */
    deliveries: createDeliveryService({
      store: deliveryStore,
      directory: channels,
      organisationName: async (id) => (await organisationStore.get(id))?.name ?? null,
      publicUrl: config.publicUrl,
      clock,
      ids,
    }),
    insightStore,
    insights: createInsightService({ store: insightStore, clock }),
    costs,
    overview: createOverviewService({
      clock,
      tenancies: (organisationId) => organisationTenancies(db.kysely, organisationId),
      costs: costReads,
      monthEnd,
      names: inventoryStore,
      events,
      anomalyCounts: (tenancyIds) => activeAnomalyCounts(db.kysely, tenancyIds),
      insightSavings: (tenancyIds, asOf) => activeInsightSavings(db.kysely, tenancyIds, asOf),
      budgetsAtRisk: budgets.atRisk,
    }),
    budgetStore,
    budgets,
  }
}
export type Services = ReturnType<typeof createServices>

/**
 * What a snapshot run's changes mean beyond its row: every status change is the tenant's `lastSnapshot` in the
 * tenant list, and a success brings new costs, so each bumps the organisation's cache version in the run's own
 * transaction (bumpVersionOfTenancies): a kept page is never served after the change commits. After a success,
 * the afterSnapshot hooks.
 */
function wireSnapshotRunEvents(
  events: RunEvents,
  hooks: AfterSnapshot[],
  warn?: (err: unknown, message: string) => void,
) {
  events.beforeCommit(async (tx, changes) => {
    const tenantIds = changes.flatMap((e) => (e.kind === SNAPSHOT_RUNS.name && e.tenantId ? [e.tenantId] : []))
    await bumpVersionOfTenancies(tx, tenantIds)
  })
  events.on('run:succeeded', async ({ kind, tenantId, runId }) => {
    if (kind !== SNAPSHOT_RUNS.name || !tenantId) return
    for (const hook of hooks) {
      try {
        await hook(tenantId, runId)
      } catch (err) {
        warn?.(err, `an after-snapshot hook failed for run ${runId}; the run stays Succeeded`)
      }
    }
  })
}

/**
 * An analysis run's success queues the evaluation of the alert rules and budgets of its tenant's organisation in
 * the same transaction (when the organisation has an enabled rule or a budget, whose thresholds latch even when no
 * rule alerts): an analysis that committed is always evaluated, even when the process dies right after. The worker
 * is woken once it committed.
 */
function wireAlertRunEvents(
  events: RunEvents,
  store: AlertStore,
  budgets: Pick<BudgetStore, 'anyOf'>,
  deps: { ids: Ids; clock: Clock; onRunQueued?: () => void },
) {
  events.beforeCommit(async (tx, changes) => {
    for (const e of changes) {
      if (e.type !== 'run:succeeded' || e.kind !== ANALYSIS_RUNS.name || !e.tenantId) continue
      await store.queueAfterAnalysis(
        tx,
        {
          id: deps.ids.uuid(),
          tenantId: e.tenantId,
          sourceRunId: e.runId,
          requestedAt: deps.clock.now().toISOString(),
        },
        (organisationId) => budgets.anyOf(tx, organisationId),
      )
    }
  })
  events.on('run:succeeded', ({ kind }) => {
    if (kind === ANALYSIS_RUNS.name) deps.onRunQueued?.()
  })
}
