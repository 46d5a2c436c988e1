import type { Kysely, Selectable } from 'kysely'
import type { Finding, ResourceFacts } from '../../analysis/insights/types.js'
import type { Visibility } from '../../platform/auth/principal.js'
import type { Ids } from '../../platform/clock.js'
import { type Database, NO_ROW } from '../../platform/db/index.js'
import type { InsightsTable } from '../../platform/db/schema.js'
import { offsetOf, type Paging } from '../../platform/http/paging.js'

import { dayDiff, dayStart } from '../../platform/time.js'
import type { CostReads } from '../costs/read/index.js'
import { cpuDays, currentResources, parseTags } from '../inventory/public.js'
import { latestCollectionStart } from '../snapshots/public.js'
import { organisationTenantIds } from '../tenants/public.js'

import { afterAnalysis, findingFields, type InsightStatus, type LastAction } from './lifecycle.js'
import type { InsightRecord } from './schemas.js'

/** Days of cost a rule sees: the last 30 complete days. */
export const OBSERVED_DAYS = 30

export type InsightRow = Selectable<InsightsTable>

export interface InsightFilter {
  category?: string
  severity?: string
  tenancyId?: string
  includeDismissed: boolean
}

/** A finding of the analysis with the resource it was found on. */
export interface FoundInsight {
  resource: ResourceFacts
  finding: Finding
}

function parseObject(json: string | null): Record<string, unknown> {
  if (!json) return {}
  try {
    const value: unknown = JSON.parse(json)
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

/** The record of a row as stored; the service applies the reading instant (an expired snooze) on top. */
export function recordOf(row: InsightRow): InsightRecord {
  const lastAction: LastAction | null =
    row.lastAction === null
      ? null
      : {
          action: row.lastAction as LastAction['action'],
          at: row.lastActionAt!,
          by: {
            type: row.lastActionByType as 'ApiKey' | 'User' | 'System',
            id: row.lastActionById,
            name: row.lastActionByName,
          },
          snoozeDays: row.lastActionSnoozeDays,
        }
  return {
    id: row.id,
    tenancyId: row.tenantId,
    resourceId: row.resourceId,
    resourceName: row.resourceName,
    subscriptionId: row.subscriptionId,
    resourceGroupName: row.resourceGroupName || null,
    category: row.category as InsightRecord['category'],
    severity: row.severity as InsightRecord['severity'],
    title: row.title,
    description: row.description,
    recommendation: row.recommendation,
    estimatedMonthlySavings: row.estimatedMonthlySavings,
    currency: row.currency,
    status: row.status as InsightStatus,
    snoozedUntil: row.snoozedUntil,
    lastAction,
    detectedAt: row.detectedAt,
    updatedAt: row.updatedAt,
  }
}

/** Insights: the facts the rules read (inventory, costs, CPU), and the insights the analyses write and people act on. */
export function createInsightStore(
  db: Kysely<Database>,
  deps: {
    ids: Ids
    /** The cost read path: the observed window, each resource's days in it, the billing currency. */
    costs: Pick<CostReads, 'observedWindow' | 'resourceDailyCosts' | 'billingCurrencies'>
  },
) {
  return {
    /**
     * The facts of every current resource of the tenant as of `today`: its inventory record, its own daily cost over the
     * observed window (every day of it, 0 where nothing was billed) and its daily CPU in that window.
     */
    async facts(tenantId: string, today: string): Promise<ResourceFacts[]> {
      const window = await deps.costs.observedWindow(tenantId, today, OBSERVED_DAYS)
      // A resource the latest collection did not see was deleted: it has no condition left to find. (Imports
      // name only the resources of their rows, so they tell nothing of deletions.)
      const latestCollection = await latestCollectionStart(db, tenantId)
      const resources = await currentResources(db, tenantId, latestCollection)
      const currency = (await deps.costs.billingCurrencies([tenantId])).get(tenantId) ?? 'USD'
      const days = window ? dayDiff(window.from, window.to) + 1 : 0
      const costs = new Map<string, number[]>()
      const cpu = new Map<string, ResourceFacts['cpu']>()
      if (window) {
        for (const row of await deps.costs.resourceDailyCosts(tenantId, window.from, window.to)) {
          const series = costs.get(row.resourceKey) ?? Array<number>(days).fill(0)
          costs.set(row.resourceKey, series)
          series[dayDiff(window.from, row.date)]! += row.cost
        }
        for (const row of await cpuDays(db, tenantId, window.from, window.to)) {
          const series = cpu.get(row.resourceKey) ?? []
          series.push({
            date: row.date,
            averagePercent: Number(row.averagePercent),
            maxPercent: Number(row.maxPercent),
            p95Percent: row.p95Percent === null ? null : Number(row.p95Percent),
          })
          cpu.set(row.resourceKey, series)
        }
      }
      const firstWeekday = window ? dayStart(window.from).getUTCDay() : 0
      return resources.map((r) => ({
        resourceId: r.id,
        armId: r.armId,
        name: r.name,
        resourceType: r.resourceType,
        state: r.state,
        sku: r.sku,
        tags: parseTags(r.tags),
        properties: parseObject(r.properties),
        subscriptionId: r.subscriptionId,
        resourceGroupName: r.resourceGroupName,
        dailyCosts: costs.get(r.armIdLower) ?? Array(days).fill(0),
        firstWeekday,
        currency,
        cpu: cpu.get(r.armIdLower) ?? [],
      }))
    },

    /**
     * Records one analysis of the tenant, in one transaction (an interrupted analysis leaves all or nothing):
     * each finding upserted by (tenant, resource, category), every insight it no longer finds marked so (see
     * `afterAnalysis`). Only rows whose state or words change are written, so the same analysis run again changes
     * nothing. A row a person changed meanwhile is left alone (its `updatedAt` moved): the next analysis sees it.
     */
    async recordAnalysis(tenantId: string, found: readonly FoundInsight[], now: string) {
      return db.transaction().execute(async (trx) => {
        const existing = await trx.selectFrom('insights').selectAll().where('tenantId', '=', tenantId).execute()
        const byKey = new Map(existing.map((row) => [`${row.resourceId}\u0000${row.category}`, row]))
        let created = 0
        let resolved = 0
        for (const { resource, finding } of found) {
          const key = `${resource.resourceId}\u0000${finding.category}`
          const row = byKey.get(key)
          byKey.delete(key)
          const words = {
            ...findingFields(finding),
            resourceName: resource.name,
            subscriptionId: resource.subscriptionId,
            // The column is not null: a resource without a group (AWS, Google Cloud) stores '', read back as null.
            resourceGroupName: resource.resourceGroupName ?? '',
            currency: resource.currency,
          }
          if (!row) {
            created++
            await trx
              .insertInto('insights')
              .values({
                id: deps.ids.uuid(),
                tenantId,
                resourceId: resource.resourceId,
                category: finding.category,
                ...words,
                status: 'Active',
                snoozedUntil: null,
                found: 1,
                detectedAt: now,
                updatedAt: now,
              })
              .execute()
            continue
          }
          const next = afterAnalysis(
            { status: row.status as InsightStatus, snoozedUntil: row.snoozedUntil, found: row.found === 1 },
            true,
            now,
          )
          const changes = {
            ...words,
            status: next.status,
            snoozedUntil: next.snoozedUntil,
            found: 1,
            ...(next.redetected ? { detectedAt: now } : {}),
          }
          const changed = (Object.keys(changes) as (keyof typeof changes)[]).some((k) => row[k] !== changes[k])
          if (changed) await updateUnlessActedOn(trx, row, { ...changes, updatedAt: now })
        }
        for (const row of byKey.values()) {
          if (row.found === 0) continue
          const next = afterAnalysis(
            { status: row.status as InsightStatus, snoozedUntil: row.snoozedUntil, found: true },
            false,
            now,
          )
          if (next.status === 'AutoResolved') resolved++
          await updateUnlessActedOn(trx, row, {
            status: next.status,
            snoozedUntil: next.snoozedUntil,
            found: 0,
            updatedAt: now,
          })
        }
        return { found: found.length, created, resolved }
      })
    },

    /** The tenancy an insight belongs to, or null when there is no such insight. */
    async tenancyOf(id: string): Promise<string | null> {
      const row = await db.selectFrom('insights').select('tenantId').where('id', '=', id).executeTakeFirst()
      return row?.tenantId ?? null
    },

    async byId(id: string): Promise<InsightRow | undefined> {
      return db.selectFrom('insights').selectAll().where('id', '=', id).executeTakeFirst()
    },

    /**
     * A page of the organisation's insights in the visible tenancies, largest saving first, id last. Without
     * `includeDismissed`, only those Active as of `now` (a snooze that has passed counts as Active).
     */
    async list(organisationId: string, visible: Visibility, filter: InsightFilter, paging: Paging, now: string) {
      const base = db
        .selectFrom('insights as i')
        .where('i.tenantId', 'in', organisationTenantIds(db, organisationId))
        .$if(visible !== 'all', (qb) =>
          visible.length ? qb.where('i.tenantId', 'in', visible as string[]) : qb.where(NO_ROW),
        )
        .$if(filter.tenancyId !== undefined, (qb) => qb.where('i.tenantId', '=', filter.tenancyId!))
        .$if(filter.category !== undefined, (qb) => qb.where('i.category', '=', filter.category!))
        .$if(filter.severity !== undefined, (qb) => qb.where('i.severity', '=', filter.severity!))
        .$if(!filter.includeDismissed, (qb) =>
          qb.where((eb) =>
            eb.or([
              eb('i.status', '=', 'Active'),
              eb.and([eb('i.status', '=', 'Snoozed'), eb('i.snoozedUntil', '<=', now)]),
            ]),
          ),
        )
      if (visible !== 'all' && visible.length === 0) return { rows: [] as InsightRow[], totalCount: 0 }
      const [rows, count] = await Promise.all([
        base
          .selectAll('i')
          .orderBy('i.estimatedMonthlySavings', 'desc')
          .orderBy('i.id')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { rows, totalCount: Number(count.n) }
    },

    /** A person's action: the status it sets and the action itself, kept as `lastAction`. */
    async act(id: string, status: { status: string; snoozedUntil: string | null }, action: LastAction) {
      await db
        .updateTable('insights')
        .set({
          status: status.status,
          snoozedUntil: status.snoozedUntil,
          lastAction: action.action,
          lastActionAt: action.at,
          lastActionByType: action.by.type,
          lastActionById: action.by.id,
          lastActionByName: action.by.name,
          lastActionSnoozeDays: action.snoozeDays,
          updatedAt: action.at,
        })
        .where('id', '=', id)
        .execute()
    },
  }
}
export type InsightStore = ReturnType<typeof createInsightStore>

/**
 * The insights of the tenancies open at `asOf` (Active, or snoozed until then at the latest, as the insight list
 * counts them): what a report's savings summary lists. A function over the caller's connection, so that only this
 * store names the table.
 */
export async function openInsightsOf(db: Kysely<Database>, tenancyIds: readonly string[], asOf: string) {
  if (tenancyIds.length === 0) return []
  return db
    .selectFrom('insights as i')
    .select([
      'i.tenantId',
      'i.category',
      'i.severity',
      'i.title',
      'i.resourceName',
      'i.resourceGroupName',
      'i.subscriptionId',
      'i.estimatedMonthlySavings',
      'i.currency',
    ])
    .where('i.tenantId', 'in', [...tenancyIds])
    .where((eb) =>
      eb.or([
        eb('i.status', '=', 'Active'),
        eb.and([eb('i.status', '=', 'Snoozed'), eb('i.snoozedUntil', '<=', asOf)]),
      ]),
    )
    .execute()
}

/**
 * The total estimated monthly savings of the tenancies' active insights per currency, and how many there are: the
 * insights the list shows by default (Active, or Snoozed until a time that has passed by `asOf`), summed.
 */
export async function activeInsightSavings(
  db: Kysely<Database>,
  tenancyIds: readonly string[],
  asOf: string,
): Promise<{ currency: string; monthlySavings: number; count: number }[]> {
  if (tenancyIds.length === 0) return []
  const rows = await db
    .selectFrom('insights as i')
    .select((eb) => [
      'i.currency',
      eb.fn.sum<number>('i.estimatedMonthlySavings').as('savings'),
      eb.fn.countAll<number>().as('n'),
    ])
    .where('i.tenantId', 'in', [...tenancyIds])
    .where((eb) =>
      eb.or([
        eb('i.status', '=', 'Active'),
        eb.and([eb('i.status', '=', 'Snoozed'), eb('i.snoozedUntil', '<=', asOf)]),
      ]),
    )
    .groupBy('i.currency')
    .execute()
  return rows.map((r) => ({ currency: r.currency, monthlySavings: Number(r.savings), count: Number(r.n) }))
}

/**
 * The insights of the tenancies an analysis found (new, or found again) from `from` on, and before `before` when
 * given, still Active: what InsightFound alert rules and digests report.
 */
export async function insightsFoundBetween(
  db: Kysely<Database>,
  tenancyIds: readonly string[],
  from: string,
  before: string | null,
) {
  if (tenancyIds.length === 0) return []
  return db
    .selectFrom('insights')
    .select(['id', 'tenantId', 'category', 'severity', 'title', 'resourceName', 'estimatedMonthlySavings', 'currency'])
    .where('tenantId', 'in', [...tenancyIds])
    .where('detectedAt', '>=', from)
    .$if(before !== null, (qb) => qb.where('detectedAt', '<', before!))
    .where('found', '=', 1)
    .where('status', '=', 'Active')
    .orderBy('estimatedMonthlySavings', 'desc')
    .orderBy('id')
    .execute()
}

/** Writes an analysis' changes to a row unless a person acted on it since it was read. */
async function updateUnlessActedOn(trx: Kysely<Database>, row: InsightRow, changes: Partial<InsightRow>) {
  await trx
    .updateTable('insights')
    .set(changes)
    .where('id', '=', row.id)
    .where('status', '=', row.status)
    .where('updatedAt', '=', row.updatedAt)
    .execute()
}
