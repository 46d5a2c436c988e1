import type { Kysely } from 'kysely'
import type { Database } from '../../platform/db/index.js'
import type { AnomalyRecord } from '../anomalies/public.js'
import type { BudgetService } from '../budgets/public.js'
import type { EventRecord } from '../events/public.js'
import { insightsFoundBetween } from '../insights/public.js'
import { type InventoryStore, resourceNamesById } from '../inventory/public.js'
import { channelsOf } from '../notifications/public.js'
import { notInOrganisation, organisationTenancies, tenancyNames } from '../tenants/public.js'
import type { Candidate } from './match.js'
import type { InsightLine, Names } from './message.js'
import type { ObservedChange } from './predictions.js'

/** What the anomalies feature lends the alerts: its records, with related markers, likely cause and incident. */
export interface AnomalyReads {
  /** Those an analysis wrote (raised or updated) from `from` on, and before `before` when given. */
  written(tenancyIds: readonly string[], from: string, before: string | null): Promise<AnomalyRecord[]>
  /** Those raised from `from` to `to` (days, both included). */
  raisedIn(tenancyIds: readonly string[], from: string, to: string): Promise<AnomalyRecord[]>
}

/** What the events and anomalies features lend a PredictionExceeded trigger: markers and their observed change. */
export interface PredictionReads {
  /** The tenant's markers with a prediction that occurred from `since` (an instant) on. */
  predictedSince(tenantId: string, since: string): Promise<EventRecord[]>
  /** The observed change in monthly cost on the marker's scope (see the anomalies feature's observedChange). */
  observedChange(marker: EventRecord): Promise<ObservedChange>
}

/** What the budgets feature lends a BudgetThreshold trigger: its evaluation after a run, explained, and latched. */
export type BudgetReads = Pick<BudgetService, 'evaluateAfter' | 'explain' | 'latch' | 'unknownBudgets' | 'atRiskWithin'>

/**
 * Everything an evaluation reads of other features, through their public entries: the anomalies, the inventory's
 * tags and names, the insights, the tenancies and the channels.
 */
export function createAlertSources(
  db: Kysely<Database>,
  deps: {
    anomalies: AnomalyReads
    inventory: Pick<InventoryStore, 'resourceTags' | 'resourceGroupsNamed' | 'subscriptionNames'>
    predictions: PredictionReads
    budgets: BudgetReads
  },
) {
  const { anomalies, inventory, predictions, budgets } = deps

  /** The tags scope filters compare: the resource's or the group's own; null for broader scopes (never match). */
  async function tagsOf(a: AnomalyRecord): Promise<Readonly<Record<string, string>> | null> {
    if (a.scope.kind === 'Resource' && a.scope.resourceId)
      return (await inventory.resourceTags(a.tenancyId, a.scope.resourceId)) ?? {}
    if (a.scope.kind === 'ResourceGroup' && a.scope.resourceGroupName) {
      const [group] = await inventory.resourceGroupsNamed(
        a.tenancyId,
        a.scope.resourceGroupName,
        a.scope.subscriptionId ?? undefined,
      )
      return group?.tags ?? {}
    }
    return null
  }

  return {
    anomalies,
    predictions,
    budgets,

    /** The anomalies as candidates of a match; tags are read only when a rule filters on them. */
    async candidates(records: readonly AnomalyRecord[], withTags: boolean): Promise<Candidate[]> {
      // One read per scope: a resource's or group's episodes share its tags.
      const read = new Map<string, Promise<Readonly<Record<string, string>> | null>>()
      const out: Candidate[] = []
      for (const anomaly of records) {
        if (!withTags) {
          out.push({ anomaly, tags: null })
          continue
        }
        const s = anomaly.scope
        const key = [
          anomaly.tenancyId,
          s.kind,
          s.resourceId,
          s.subscriptionId,
          s.resourceGroupName?.toLowerCase(),
        ].join('|')
        let tags = read.get(key)
        if (!tags) {
          tags = tagsOf(anomaly)
          read.set(key, tags)
        }
        out.push({ anomaly, tags: await tags })
      }
      return out
    },

    /** The names a message about these anomalies of one tenancy uses. */
    async names(tenancyId: string, records: readonly AnomalyRecord[]): Promise<Names> {
      const [tenancy] = await tenancyNames(db, [tenancyId])
      const resourceIds = records.flatMap((a) => [
        ...(a.scope.resourceId ? [a.scope.resourceId] : []),
        ...a.drivers.flatMap((d) => (d.scope.resourceId ? [d.scope.resourceId] : [])),
      ])
      return {
        tenancy: tenancy?.name ?? tenancyId,
        subscriptions: await inventory.subscriptionNames(tenancyId),
        resources: await resourceNamesById(db, resourceIds),
      }
    },

    async insightsFound(tenancyIds: readonly string[], from: string, before: string | null): Promise<InsightLine[]> {
      const rows = await insightsFoundBetween(db, tenancyIds, from, before)
      return rows.map((r) => ({ ...r, estimatedMonthlySavings: Number(r.estimatedMonthlySavings) }))
    },

    tenancies: (organisationId: string) => organisationTenancies(db, organisationId),
    tenancyNames: async (ids: readonly string[]) =>
      new Map((await tenancyNames(db, [...ids])).map((t) => [t.id, t.name])),
    /** Of these tenancies, those not of the organisation. */
    unknownTenancies: (organisationId: string, ids: string[]) => notInOrganisation(db, organisationId, ids),
    /** Of these channels, those not of the organisation. */
    async unknownChannels(organisationId: string, ids: readonly string[]): Promise<string[]> {
      const known = new Set((await channelsOf(db, organisationId, ids)).map((c) => c.id))
      return ids.filter((id) => !known.has(id))
    },
  }
}
export type AlertSources = ReturnType<typeof createAlertSources>
