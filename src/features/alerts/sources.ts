import type { Kysely } from 'kysely'
import type { Database } from '../../platform/db/index.js'
import type { AnomalyRecord } from '../anomalies/public.js'
import { insightsFoundBetween } from '../insights/public.js'
import { type InventoryStore, resourceNamesById } from '../inventory/public.js'
import { channelsOf } from '../notifications/public.js'
import { notInOrganisation, organisationTenancies, tenancyNames } from '../tenants/public.js'
import type { Candidate } from './match.js'
import type { InsightLine, Names } from './message.js'

/** What the anomalies feature lends the alerts: its records, with related markers, likely cause and incident. */
export interface AnomalyReads {
  /** Those an analysis wrote (raised or updated) from `from` on, and before `before` when given. */
  written(tenancyIds: readonly string[], from: string, before: string | null): Promise<AnomalyRecord[]>
  /** Those raised from `from` to `to` (days, both included). */
  raisedIn(tenancyIds: readonly string[], from: string, to: string): Promise<AnomalyRecord[]>
}

/**
 * Everything an evaluation reads of other features, through their public entries: the anomalies, the inventory's
 * tags and names, the insights, the tenancies and the channels.
 */
export function createAlertSources(
  db: Kysely<Database>,
  deps: {
    anomalies: AnomalyReads
    inventory: Pick<InventoryStore, 'resourceTags' | 'resourceGroupsNamed' | 'subscriptionNames'>
  },
) {
  const { anomalies, inventory } = deps

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

    /** The anomalies as candidates of a match; tags are read only when a rule filters on them. */
    async candidates(records: readonly AnomalyRecord[], withTags: boolean): Promise<Candidate[]> {
      const out: Candidate[] = []
      for (const anomaly of records) out.push({ anomaly, tags: withTags ? await tagsOf(anomaly) : null })
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
