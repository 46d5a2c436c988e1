import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely'
import type { Visibility } from '../../platform/auth/principal.js'
import { chunk } from '../../platform/chunk.js'
import { type Database, NO_ROW } from '../../platform/db/index.js'
import type { AnomaliesTable } from '../../platform/db/schema.js'
import { offsetOf, type Paging } from '../../platform/http/paging.js'
import type { ActorRef } from '../../platform/http/schemas.js'

import type { ChartScope } from '../shared/chart-scope.js'
import type { AnomalyDriver, AnomalyFeedback, AnomalyScopeKind, AnomalySeverity, AnomalyStatus } from './schemas.js'

export type AnomalyRow = Selectable<AnomaliesTable>

/** The scope levels detection judges, broadest first. */
export const SCOPE_LEVELS = ['tenant', 'subscription', 'resourceGroup', 'service', 'resource'] as const
export type ScopeLevel = (typeof SCOPE_LEVELS)[number]

/** What detection writes; status and its change are a person's and are never part of an upsert. */
export interface DetectedRow {
  id: string
  organisationId: string
  tenantId: string
  scopeKey: string
  scopeKind: AnomalyScopeKind
  subscriptionId: string | null
  resourceGroupName: string | null
  resourceId: string | null
  serviceName: string | null
  dateRaised: string
  severity: AnomalySeverity
  expectedCost: number
  actualCost: number
  impact: number
  impactPercent: number
  currency: string
  description: string
  drivers: AnomalyDriver[]
  detectedAt: string
  /** The episode: its last anomalous day, whether it goes on, and its sums over its days. */
  episodeEnd: string
  ongoing: number
  episodeExpectedCost: number
  episodeActualCost: number
  totalImpact: number
  maxImpact: number
}

export interface AnomalyFilter {
  severity?: AnomalySeverity
  status?: AnomalyStatus
  dateRaised?: string
  /** First and last UTC day raised, both included. */
  from?: string
  to?: string
  tenancyId?: string
  /** The anomalies drawn on one chart (see ChartScope); a group scope may name its subscription. */
  scope?: ChartScope
  subscriptionId?: string
  /** The anomalies of one incident (the id of its head). */
  incidentId?: string
  /** Only the anomalies that head their incident. */
  headsOnly?: boolean
  /** `from` matches episodes that overlap it (last anomalous on or after it, or ongoing), not the day raised. */
  overlapping?: boolean
}

/** Rows per upsert statement: 28 parameters a row stays well under SQLite's 32,766. */
const UPSERT_ROWS = 200

export function createAnomalyStore(db: Kysely<Database>) {
  return {
    /** Writes detected anomalies; a row already there for (tenant, scope, day) gets the new numbers only. */
    async upsert(rows: readonly DetectedRow[], updatedAt: string): Promise<void> {
      for (const part of chunk(rows, UPSERT_ROWS)) {
        await db
          .insertInto('anomalies')
          .values(
            part.map((r) => ({
              ...r,
              drivers: JSON.stringify(r.drivers),
              status: 'Active',
              updatedAt,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['tenantId', 'scopeKey', 'dateRaised']).doUpdateSet((eb) => ({
              severity: eb.ref('excluded.severity'),
              expectedCost: eb.ref('excluded.expectedCost'),
              actualCost: eb.ref('excluded.actualCost'),
              impact: eb.ref('excluded.impact'),
              impactPercent: eb.ref('excluded.impactPercent'),
              currency: eb.ref('excluded.currency'),
              description: eb.ref('excluded.description'),
              drivers: eb.ref('excluded.drivers'),
              resourceId: eb.ref('excluded.resourceId'),
              updatedAt: eb.ref('excluded.updatedAt'),
              episodeEnd: eb.ref('excluded.episodeEnd'),
              ongoing: eb.ref('excluded.ongoing'),
              episodeExpectedCost: eb.ref('excluded.episodeExpectedCost'),
              episodeActualCost: eb.ref('excluded.episodeActualCost'),
              totalImpact: eb.ref('excluded.totalImpact'),
              maxImpact: eb.ref('excluded.maxImpact'),
            })),
          )
          .execute()
      }
    },

    /**
     * Removes the tenant's anomalies whose episode overlaps `from`..`to` that a new judgement of those days no longer
     * finds (the provider restated the costs), unless a person has set their status or given feedback: those are
     * kept as they are. `stillFound` holds `{scopeKey}\n{dateRaised}` of the episodes found. An episode that was
     * ongoing counts as overlapping: it was last seen reaching the newest day. `judgedFrom` is the first day the
     * run judged: episodes that start before it are left alone.
     */
    async removeUnconfirmed(
      tenantId: string,
      from: string,
      to: string,
      stillFound: ReadonlySet<string>,
      judgedFrom = from,
    ) {
      const rows = await db
        .selectFrom('anomalies')
        .select(['id', 'scopeKey', 'dateRaised'])
        .where('tenantId', '=', tenantId)
        .where('dateRaised', '<=', to)
        .where('dateRaised', '>=', judgedFrom)
        .where((eb) => eb.or([eb(eb.fn.coalesce('episodeEnd', 'dateRaised'), '>=', from), eb('ongoing', '=', 1)]))
        .where('statusChangedAt', 'is', null)
        .where('feedback', 'is', null)
        .execute()
      const gone = rows.filter((r) => !stillFound.has(`${r.scopeKey}\n${r.dateRaised}`)).map((r) => r.id)
      for (const ids of chunk(gone, 500)) {
        await db.deleteFrom('anomalies').where('id', 'in', ids).execute()
        // A kept member of an incident whose head is gone heads itself until a run groups it again.
        await db
          .updateTable('anomalies')
          .set((eb) => ({ incidentId: eb.ref('id') }))
          .where('tenantId', '=', tenantId)
          .where('incidentId', 'in', ids)
          .execute()
      }
    },

    /** The id and incident of the tenant's anomalies raised from `from` to `to`, by `{scopeKey}\n{dateRaised}`. */
    async idsBetween(tenantId: string, from: string, to: string) {
      const rows = await db
        .selectFrom('anomalies')
        .select(['id', 'scopeKey', 'dateRaised', 'incidentId'])
        .where('tenantId', '=', tenantId)
        .where('dateRaised', '>=', from)
        .where('dateRaised', '<=', to)
        .execute()
      return new Map(rows.map((r) => [`${r.scopeKey}\n${r.dateRaised}`, { id: r.id, incidentId: r.incidentId }]))
    },

    /** The tenant's episodes last seen ongoing, by `{scopeKey}\n{dateRaised}`: a run updates them wherever it starts. */
    async ongoingKeys(tenantId: string): Promise<Set<string>> {
      const rows = await db
        .selectFrom('anomalies')
        .select(['scopeKey', 'dateRaised'])
        .where('tenantId', '=', tenantId)
        .where('ongoing', '=', 1)
        .execute()
      return new Set(rows.map((r) => `${r.scopeKey}\n${r.dateRaised}`))
    },

    /** Sets the incident of anomalies: `heads` maps an anomaly's id to the id of the anomaly heading its incident. */
    async setIncidents(heads: ReadonlyMap<string, string>): Promise<void> {
      const byHead = new Map<string, string[]>()
      for (const [id, head] of heads) {
        const ids = byHead.get(head) ?? []
        ids.push(id)
        byHead.set(head, ids)
      }
      for (const [head, ids] of byHead) {
        for (const part of chunk(ids, 500)) {
          await db.updateTable('anomalies').set({ incidentId: head }).where('id', 'in', part).execute()
        }
      }
    },

    /**
     * The starts of the tenant's episodes a person said were expected: those with feedback Expected, and those in
     * an incident whose head has it (one change, one judgement).
     */
    async expectedStarts(tenantId: string): Promise<{ scopeKey: string; dateRaised: string }[]> {
      return db
        .selectFrom('anomalies')
        .select(['scopeKey', 'dateRaised'])
        .where('tenantId', '=', tenantId)
        .where((eb) =>
          eb.or([
            eb('feedback', '=', 'Expected'),
            eb(
              'incidentId',
              'in',
              eb
                .selectFrom('anomalies as h')
                .select('h.id')
                .where('h.tenantId', '=', tenantId)
                .where('h.feedback', '=', 'Expected'),
            ),
          ]),
        )
        .execute()
    },

    /** The tenant's anomalies and how many of them carry each feedback. */
    async feedbackCounts(tenantId: string) {
      const rows = await db
        .selectFrom('anomalies')
        .select((eb) => ['feedback', eb.fn.countAll<number>().as('n')])
        .where('tenantId', '=', tenantId)
        .groupBy('feedback')
        .execute()
      const count = (f: string | null) => Number(rows.find((r) => r.feedback === f)?.n ?? 0)
      return {
        anomalies: rows.reduce((sum, r) => sum + Number(r.n), 0),
        expected: count('Expected'),
        notAnAnomaly: count('NotAnAnomaly'),
        confirmed: count('Confirmed'),
      }
    },

    /** How many anomalies each of these incidents of the tenant holds. */
    async incidentSizes(tenantId: string, incidentIds: readonly string[]): Promise<Map<string, number>> {
      const sizes = new Map<string, number>()
      for (const part of chunk([...new Set(incidentIds)], 500)) {
        const rows = await db
          .selectFrom('anomalies')
          .select((eb) => ['incidentId', eb.fn.countAll<number>().as('n')])
          .where('tenantId', '=', tenantId)
          .where('incidentId', 'in', part)
          .groupBy('incidentId')
          .execute()
        for (const r of rows) sizes.set(r.incidentId!, Number(r.n))
      }
      return sizes
    },

    /** A page of the anomalies the visibility allows, newest dateRaised first, id last. */
    async list(organisationId: string, visible: Visibility, filter: AnomalyFilter, paging: Paging) {
      const matching = db
        .selectFrom('anomalies')
        .where('organisationId', '=', organisationId)
        .$if(visible !== 'all', (qb) =>
          visible.length ? qb.where('tenantId', 'in', visible as string[]) : qb.where(NO_ROW),
        )
        .$if(filter.tenancyId !== undefined, (qb) => qb.where('tenantId', '=', filter.tenancyId!))
        .$if(filter.severity !== undefined, (qb) => qb.where('severity', '=', filter.severity!))
        .$if(filter.status !== undefined, (qb) => qb.where('status', '=', filter.status!))
        .$if(filter.dateRaised !== undefined, (qb) => qb.where('dateRaised', '=', filter.dateRaised!))
        .$if(filter.from !== undefined && !filter.overlapping, (qb) => qb.where('dateRaised', '>=', filter.from!))
        .$if(filter.from !== undefined && filter.overlapping === true, (qb) =>
          qb.where((eb) =>
            eb.or([eb(eb.fn.coalesce('episodeEnd', 'dateRaised'), '>=', filter.from!), eb('ongoing', '=', 1)]),
          ),
        )
        .$if(filter.to !== undefined, (qb) => qb.where('dateRaised', '<=', filter.to!))
        .$if(filter.scope !== undefined, (qb) => onChart(qb, filter.scope!, filter.subscriptionId))
        .$if(filter.incidentId !== undefined, (qb) =>
          qb.where((eb) =>
            eb.or([
              eb('incidentId', '=', filter.incidentId!),
              eb.and([eb('incidentId', 'is', null), eb('id', '=', filter.incidentId!)]),
            ]),
          ),
        )
        .$if(filter.headsOnly === true, (qb) =>
          qb.where((eb) => eb.or([eb('incidentId', 'is', null), eb('incidentId', '=', eb.ref('id'))])),
        )
      const [rows, total] = await Promise.all([
        matching
          .selectAll()
          .orderBy('dateRaised', 'desc')
          .orderBy('id', 'desc')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { rows, totalCount: Number(total.n) }
    },

    async get(id: string): Promise<AnomalyRow | null> {
      return (await db.selectFrom('anomalies').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
    },

    /** The tenancy of an anomaly, for the permission check; null when there is none. */
    async tenancyOf(id: string): Promise<string | null> {
      const row = await db.selectFrom('anomalies').select('tenantId').where('id', '=', id).executeTakeFirst()
      return row?.tenantId ?? null
    },

    /**
     * Sets a person's status, unless it already is that status (then nothing changes). The condition is in the
     * UPDATE, so two concurrent requests for the same status record one change, not two.
     */
    async setStatus(id: string, status: AnomalyStatus, by: ActorRef, at: string): Promise<void> {
      await db
        .updateTable('anomalies')
        .set({
          status,
          statusChangedAt: at,
          statusChangedByType: by.type,
          statusChangedById: by.id,
          statusChangedByName: by.name,
        })
        .where('id', '=', id)
        .where('status', '<>', status)
        .execute()
    },

    /** Sets (or, with null, clears) a person's feedback, unless it already is that feedback. */
    async setFeedback(id: string, feedback: AnomalyFeedback | null, by: ActorRef, at: string): Promise<void> {
      await db
        .updateTable('anomalies')
        .set(
          feedback === null
            ? { feedback, feedbackAt: null, feedbackByType: null, feedbackById: null, feedbackByName: null }
            : { feedback, feedbackAt: at, feedbackByType: by.type, feedbackById: by.id, feedbackByName: by.name },
        )
        .where('id', '=', id)
        .where((eb) =>
          feedback === null
            ? eb('feedback', 'is not', null)
            : eb.or([eb('feedback', 'is', null), eb('feedback', '<>', feedback)]),
        )
        .execute()
    },

    /**
     * The anomalies of these tenancies an analysis wrote (raised or updated) from `from` on, and before `before`
     * when given: what the alert rules evaluate after a run, and a digest over its period.
     */
    async writtenBetween(tenancyIds: readonly string[], from: string, before: string | null): Promise<AnomalyRow[]> {
      const rows: AnomalyRow[] = []
      for (const part of chunk([...tenancyIds], 500)) {
        rows.push(
          ...(await db
            .selectFrom('anomalies')
            .selectAll()
            .where('tenantId', 'in', part)
            .where('updatedAt', '>=', from)
            .$if(before !== null, (qb) => qb.where('updatedAt', '<', before!))
            .orderBy('id')
            .execute()),
        )
      }
      return rows
    },

    /** The anomalies of these tenancies raised from `from` to `to` (days, both included): an alert rule's preview. */
    async raisedIn(tenancyIds: readonly string[], from: string, to: string): Promise<AnomalyRow[]> {
      const rows: AnomalyRow[] = []
      for (const part of chunk([...tenancyIds], 500)) {
        rows.push(
          ...(await db
            .selectFrom('anomalies')
            .selectAll()
            .where('tenantId', 'in', part)
            .where('dateRaised', '>=', from)
            .where('dateRaised', '<=', to)
            .orderBy('id')
            .execute()),
        )
      }
      return rows
    },

    /** The tenant's anomalies raised from `from` to `to`, newest first, optionally only on these scope keys. */
    async raisedBetween(
      tenantId: string,
      from: string,
      to: string,
      scopeKeys: readonly string[] | null,
      limit: number,
    ) {
      if (scopeKeys !== null && scopeKeys.length === 0) return []
      return db
        .selectFrom('anomalies')
        .selectAll()
        .where('tenantId', '=', tenantId)
        .where('dateRaised', '>=', from)
        .where('dateRaised', '<=', to)
        .$if(scopeKeys !== null, (qb) => qb.where('scopeKey', 'in', scopeKeys!))
        .orderBy('dateRaised', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute()
    },
  }
}
export type AnomalyStore = ReturnType<typeof createAnomalyStore>

/**
 * The anomalies drawn on one chart: those of its scope and of every scope inside it (a group's chart sums its
 * resources, so their anomalies explain its shape). Service and tenant anomalies belong to the tenant's chart only.
 */
function onChart<O>(
  qb: SelectQueryBuilder<Database, 'anomalies', O>,
  scope: ChartScope,
  subscriptionId: string | undefined,
): SelectQueryBuilder<Database, 'anomalies', O> {
  switch (scope.kind) {
    case 'tenant':
      return qb
    case 'subscription':
      return qb
        .where('scopeKind', 'in', ['Subscription', 'ResourceGroup', 'Resource'])
        .where('subscriptionId', '=', scope.subscriptionId)
    case 'resourceGroup':
      // Group names are case-insensitive, as in the cost rows' keys.
      return qb
        .where('scopeKind', 'in', ['ResourceGroup', 'Resource'])
        .where((eb) => eb(eb.fn('lower', ['resourceGroupName']), '=', scope.name.toLowerCase()))
        .$if(subscriptionId !== undefined, (q) => q.where('subscriptionId', '=', subscriptionId!))
    case 'resource':
      return qb.where('scopeKind', '=', 'Resource').where('resourceId', '=', scope.resourceId)
  }
}
