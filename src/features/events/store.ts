import type { Kysely, Selectable } from 'kysely'
import { bumpMarkersVersion, readMarkersVersions } from '../../platform/cache.js'
import { adjustCount, readCount } from '../../platform/db/counters.js'
import { createGroupCommit } from '../../platform/db/group-commit.js'
import type { Database, DialectName } from '../../platform/db/index.js'
import type { EventsTable, IdempotencyKeysTable } from '../../platform/db/schema.js'
import { offsetOf, type Paging } from '../../platform/http/paging.js'
import type { EventCategory, EventRecord, MarkerPrediction } from './schemas.js'

export const eventCounter = (tenantId: string) => `events:${tenantId}`

export type EventRow = Selectable<EventsTable>
export type IdempotencyRow = Selectable<IdempotencyKeysTable>
/** Identifies one Idempotency-Key: per actor (API key or user) and tenant. */
export type IdempotencyRef = Pick<IdempotencyRow, 'actorId' | 'tenantId' | 'idempotencyKey'>

/** The fields a patch may change; `updatedAt` always changes. */
export type EventChanges = Partial<
  Pick<EventRecord, 'occurredAt' | 'title' | 'category' | 'description' | 'tagKey' | 'tagValue'>
> & { updatedAt: string /** null removes it */; prediction?: MarkerPrediction | null }

type PredictionColumns = Pick<
  EventRow,
  'predictionMonthlyDelta' | 'predictionCurrency' | 'predictionSource' | 'predictionCommit' | 'predictionPullRequestUrl'
>

function predictionColumns(p: MarkerPrediction | null | undefined): PredictionColumns {
  return {
    predictionMonthlyDelta: p ? p.monthlyDelta : null,
    predictionCurrency: p ? p.currency : null,
    predictionSource: p ? p.source : null,
    predictionCommit: p ? p.commit : null,
    predictionPullRequestUrl: p ? p.pullRequestUrl : null,
  }
}

/** The columns a patch writes: a prediction's five at once. */
function changedColumns(changes: EventChanges): Partial<EventRow> {
  const { prediction, ...rest } = changes
  return prediction === undefined ? rest : { ...rest, ...predictionColumns(prediction) }
}

export interface EventListFilter {
  from?: string
  to?: string
  category?: EventCategory
}

export function toEventRecord(row: EventRow): EventRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    occurredAt: row.occurredAt,
    title: row.title,
    category: row.category as EventCategory,
    description: row.description,
    tagKey: row.tagKey,
    tagValue: row.tagValue,
    createdBy: {
      type: row.createdByType as EventRecord['createdBy']['type'],
      id: row.createdById,
      name: row.createdByName,
    },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(row.predictionSource === null
      ? {}
      : {
          prediction: {
            monthlyDelta: Number(row.predictionMonthlyDelta),
            currency: row.predictionCurrency ?? 'USD',
            source: row.predictionSource,
            commit: row.predictionCommit,
            pullRequestUrl: row.predictionPullRequestUrl,
          },
        }),
  }
}

export function toEventRow(event: EventRecord): EventRow {
  return {
    id: event.id,
    tenantId: event.tenantId,
    occurredAt: event.occurredAt,
    title: event.title,
    category: event.category,
    description: event.description,
    tagKey: event.tagKey,
    tagValue: event.tagValue,
    createdByType: event.createdBy.type,
    createdById: event.createdBy.id,
    createdByName: event.createdBy.name,
    createdAt: event.createdAt,
    updatedAt: event.updatedAt,
    ...predictionColumns(event.prediction),
  }
}

export function createEventStore(db: Kysely<Database>, dialect: DialectName) {
  const inserts = createGroupCommit<EventRecord>(db, async (trx, event) => {
    await trx.insertInto('events').values(toEventRow(event)).execute()
    await adjustCount(trx, eventCounter(event.tenantId), 1)
    await bumpMarkersVersion(trx, event.tenantId)
  })
  const inTenant = (tenantId: string, filter: EventListFilter = {}) =>
    db
      .selectFrom('events')
      .where('tenantId', '=', tenantId)
      .$if(filter.from !== undefined, (qb) => qb.where('occurredAt', '>=', filter.from!))
      .$if(filter.to !== undefined, (qb) => qb.where('occurredAt', '<=', filter.to!))
      .$if(filter.category !== undefined, (qb) => qb.where('category', '=', filter.category!))

  const keyRow = (ref: IdempotencyRef) =>
    db
      .selectFrom('idempotencyKeys')
      .where('actorId', '=', ref.actorId)
      .where('tenantId', '=', ref.tenantId)
      .where('idempotencyKey', '=', ref.idempotencyKey)

  return {
    /** The row and its tenant's counter in one transaction: two statements, nothing read first. */
    /** Committed with the creates that arrive at the same time (see createGroupCommit). */
    insert: (event: EventRecord): Promise<void> => inserts.write(event),

    /** Newest occurredAt first, id last, so pages never repeat or skip while data is unchanged. */
    async list(tenantId: string, filter: EventListFilter, paging: Paging) {
      const filtered = filter.from !== undefined || filter.to !== undefined || filter.category !== undefined
      const [rows, total] = await Promise.all([
        inTenant(tenantId, filter)
          .selectAll()
          .orderBy('occurredAt', 'desc')
          .orderBy('id', 'desc')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        // The unfiltered total is the O(1) counter; a filtered one counts over the (tenant, ...) indexes.
        filtered
          ? inTenant(tenantId, filter)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
              .then((r) => Number(r.n))
          : readCount(db, eventCounter(tenantId)),
      ])
      return { items: rows.map(toEventRecord), totalCount: total }
    },

    /** Oldest first within [from, to], starting after `after` (keyset paging for the chart). */
    async range(tenantId: string, from: string, to: string, limit: number, after?: { occurredAt: string; id: string }) {
      const rows = await inTenant(tenantId, { from, to })
        .selectAll()
        .$if(after !== undefined, (qb) =>
          qb.where((eb) =>
            eb.or([
              eb('occurredAt', '>', after!.occurredAt),
              eb.and([eb('occurredAt', '=', after!.occurredAt), eb('id', '>', after!.id)]),
            ]),
          ),
        )
        .orderBy('occurredAt', 'asc')
        .orderBy('id', 'asc')
        .limit(limit)
        .execute()
      return rows.map(toEventRecord)
    },

    /** What a chart's ETag is made of (see platform/cache.ts): read before the markers, never after. */
    versions: (tenantId: string, organisationId: string) => readMarkersVersions(db, tenantId, organisationId),

    /** The markers with a prediction that occurred from `since` on, oldest first, at most 1,000. */
    async predictedSince(tenantId: string, since: string): Promise<EventRecord[]> {
      const rows = await inTenant(tenantId, { from: since })
        .selectAll()
        .where('predictionSource', 'is not', null)
        .orderBy('occurredAt', 'asc')
        .orderBy('id', 'asc')
        .limit(1000)
        .execute()
      return rows.map(toEventRecord)
    },

    async get(tenantId: string, id: string): Promise<EventRecord | null> {
      const row = await inTenant(tenantId).selectAll().where('id', '=', id).executeTakeFirst()
      return row ? toEventRecord(row) : null
    },

    /**
     * Reads the event (locked on PostgreSQL, so two patches never interleave), lets `change` decide the new
     * fields from the current record, and writes them, in one transaction. Null when there is no such event.
     */
    async update(
      tenantId: string,
      id: string,
      change: (current: EventRecord) => EventChanges,
    ): Promise<EventRecord | null> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('events')
          .selectAll()
          .where('tenantId', '=', tenantId)
          .where('id', '=', id)
          .$if(dialect === 'postgres', (qb) => qb.forUpdate())
          .executeTakeFirst()
        if (!row) return null
        const columns = changedColumns(change(toEventRecord(row)))
        await trx.updateTable('events').set(columns).where('tenantId', '=', tenantId).where('id', '=', id).execute()
        await bumpMarkersVersion(trx, tenantId)
        return toEventRecord({ ...row, ...columns })
      })
    },

    /**
     * Deletes for good; the counter moves only when a row went, so a double delete never miscounts. `also` writes
     * in the same transaction when a row went (the audit row).
     */
    async delete(tenantId: string, id: string, also?: (trx: Kysely<Database>) => Promise<void>): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('events')
          .where('tenantId', '=', tenantId)
          .where('id', '=', id)
          .executeTakeFirst()
        const deleted = Number(result.numDeletedRows) > 0
        if (deleted) {
          await adjustCount(trx, eventCounter(tenantId), -1)
          await bumpMarkersVersion(trx, tenantId)
          await also?.(trx)
        }
        return deleted
      })
    },

    idempotency: {
      /** Claims a key for a request in flight; false when the key is already held (by any request). */
      async claim(row: IdempotencyRow): Promise<boolean> {
        const result = await db
          .insertInto('idempotencyKeys')
          .values(row)
          .onConflict((oc) => oc.columns(['actorId', 'tenantId', 'idempotencyKey']).doNothing())
          .executeTakeFirst()
        return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
      },

      async find(ref: IdempotencyRef): Promise<IdempotencyRow | null> {
        return (await keyRow(ref).selectAll().executeTakeFirst()) ?? null
      },

      /**
       * Takes over a key whose holder expired or died, only if it is still the row that was read (its
       * createdAt unchanged), so two requests never both take it over.
       */
      async takeOver(previous: IdempotencyRow, row: IdempotencyRow): Promise<boolean> {
        const result = await db
          .updateTable('idempotencyKeys')
          .set({
            requestHash: row.requestHash,
            responseBody: null,
            createdAt: row.createdAt,
            expiresAt: row.expiresAt,
          })
          .where('actorId', '=', previous.actorId)
          .where('tenantId', '=', previous.tenantId)
          .where('idempotencyKey', '=', previous.idempotencyKey)
          .where('createdAt', '=', previous.createdAt)
          .executeTakeFirst()
        return Number(result.numUpdatedRows) > 0
      },

      /** The event, its counter and the key's stored answer commit together: a replay always finds the event. */
      async insertEvent(event: EventRecord, ref: IdempotencyRef, responseBody: string): Promise<void> {
        await db.transaction().execute(async (trx) => {
          await trx.insertInto('events').values(toEventRow(event)).execute()
          await adjustCount(trx, eventCounter(event.tenantId), 1)
          await bumpMarkersVersion(trx, event.tenantId)
          await trx
            .updateTable('idempotencyKeys')
            .set({ responseBody })
            .where('actorId', '=', ref.actorId)
            .where('tenantId', '=', ref.tenantId)
            .where('idempotencyKey', '=', ref.idempotencyKey)
            .execute()
        })
      },

      /** Frees a key whose create failed, so that a retry runs again instead of replaying a failure. */
      async release(ref: IdempotencyRef, createdAt: string): Promise<void> {
        await db
          .deleteFrom('idempotencyKeys')
          .where('actorId', '=', ref.actorId)
          .where('tenantId', '=', ref.tenantId)
          .where('idempotencyKey', '=', ref.idempotencyKey)
          .where('createdAt', '=', createdAt)
          .where('responseBody', 'is', null)
          .execute()
      },

      /** Removes keys past their 24 hours. */
      async sweep(now: string): Promise<number> {
        const result = await db.deleteFrom('idempotencyKeys').where('expiresAt', '<=', now).executeTakeFirst()
        return Number(result.numDeletedRows)
      },
    },
  }
}
export type EventStore = ReturnType<typeof createEventStore>
