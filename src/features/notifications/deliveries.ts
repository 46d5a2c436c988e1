import type { Clock, Ids } from '../../platform/clock.js'
import type { Db, Queryable } from '../../platform/db/index.js'
import type { NotificationDeliveriesTable } from '../../platform/db/schema.js'
import { offsetOf, type PageOf, type Paging, pageOf } from '../../platform/http/paging.js'
import type { RunEvents } from '../../platform/runs/events.js'
import { createRunStore, type RunStore, type RunTable } from '../../platform/runs/store.js'
import type { DeliveryStatus, EventType } from './constants.js'
import type { NotificationEvent } from './message.js'
import type { DeliveryRequest } from './public.js'
import type { DeliveryRecord } from './schemas.js'

/** Deliveries are a run table: each message to each channel is a run of the `notification` kind. */
export const NOTIFICATION_RUNS: RunTable = { name: 'notification', table: 'notification_deliveries' }
export type NotificationRunColumns = Pick<
  NotificationDeliveriesTable,
  | 'organisationId'
  | 'channelId'
  | 'ruleId'
  | 'eventType'
  | 'eventKey'
  | 'webhookId'
  | 'payload'
  | 'outcome'
  | 'lastStatusCode'
  | 'lastError'
  | 'latencyMs'
>

/** A delivery as its run reads it for an attempt. */
export interface DeliveryRow {
  id: string
  organisationId: string
  channelId: string
  webhookId: string
  event: NotificationEvent
}

/** What one attempt left on the row: the answer's status, the error (never a URL or a secret), the latency. */
export interface AttemptRecord {
  lastStatusCode: number | null
  lastError: string | null
  latencyMs: number | null
}

type Row = { attempts: number } & Pick<
  NotificationDeliveriesTable,
  | 'id'
  | 'channelId'
  | 'ruleId'
  | 'eventType'
  | 'webhookId'
  | 'status'
  | 'outcome'
  | 'lastStatusCode'
  | 'lastError'
  | 'latencyMs'
  | 'notBefore'
  | 'requestedAt'
  | 'completedAt'
>
const COLUMNS = [
  'id',
  'channelId',
  'ruleId',
  'eventType',
  'webhookId',
  'status',
  'outcome',
  'attempts',
  'lastStatusCode',
  'lastError',
  'latencyMs',
  'notBefore',
  'requestedAt',
  'completedAt',
] as const

/** The log's status: a run queued or running is Pending; a succeeded one says how (Teams: Accepted). */
function statusOf(row: Pick<Row, 'status' | 'outcome'>): DeliveryStatus {
  if (row.status === 'Failed') return 'Failed'
  if (row.status === 'Succeeded') return row.outcome === 'Accepted' ? 'Accepted' : 'Succeeded'
  return 'Pending'
}

function recordOf(row: Row): DeliveryRecord {
  const pending = row.status === 'Queued' || row.status === 'Running'
  return {
    id: row.id,
    channelId: row.channelId,
    ruleId: row.ruleId,
    eventType: row.eventType as EventType,
    webhookId: row.webhookId,
    status: statusOf(row),
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    latencyMs: row.latencyMs,
    nextAttemptAt: pending && row.status === 'Queued' ? (row.notBefore ?? row.requestedAt) : null,
    createdAt: row.requestedAt,
    completedAt: row.completedAt,
  }
}

/**
 * The deliveries' rows: queued in an alert run's transaction (one per enabled channel, once per event key),
 * queued at once for a test or a redelivery, read by their run for each attempt, and listed for the delivery log.
 */
export function createDeliveryStore(db: Db, deps: { clock: Clock; ids: Ids; events: RunEvents }) {
  const { clock, ids } = deps
  const runs: RunStore<NotificationRunColumns> = createRunStore<NotificationRunColumns>(db, NOTIFICATION_RUNS, {
    clock,
    events: deps.events,
  })
  /** Standard Webhooks' `webhook-id`: `msg_` and a unique id, the same on every attempt and redelivery. */
  const webhookIdOf = () => `msg_${ids.uuid().replaceAll('-', '')}`

  return {
    runs,

    /**
     * One row per enabled channel of the organisation and request, in `tx`; a (channel, event key) already
     * queued is skipped. Returns the ids of the rows inserted (to announce once `tx` committed).
     */
    async queue(tx: Queryable, requests: DeliveryRequest[]): Promise<string[]> {
      const queued: string[] = []
      const requestedAt = clock.now().toISOString()
      for (const request of requests) {
        if (request.channelIds.length === 0) continue
        const channels = await tx
          .selectFrom('notificationChannels')
          .select('id')
          .where('organisationId', '=', request.organisationId)
          .where('id', 'in', request.channelIds)
          .where('enabled', '=', 1)
          .orderBy('id')
          .execute()
        for (const channel of channels) {
          const inserted = await tx
            .insertInto('notificationDeliveries')
            .values({
              id: ids.uuid(),
              tenantId: request.tenancyId,
              status: 'Queued',
              requestedAt,
              organisationId: request.organisationId,
              channelId: channel.id,
              ruleId: request.ruleId,
              eventType: request.event.type,
              eventKey: request.eventKey,
              webhookId: webhookIdOf(),
              payload: JSON.stringify(request.event),
            })
            .onConflict((oc) => oc.columns(['channelId', 'eventKey']).doNothing())
            .returning('id')
            .executeTakeFirst()
          if (inserted) queued.push(inserted.id)
        }
      }
      return queued
    },

    /**
     * Queues one delivery at once (a test, a redelivery), in its own transaction: the worker of this process is
     * woken by the run event. `webhookId` is kept by a redelivery.
     */
    async queueOne(values: {
      organisationId: string
      channelId: string
      ruleId: string | null
      tenancyId: string | null
      eventKey: string
      webhookId?: string
      event: NotificationEvent
    }): Promise<string> {
      const id = ids.uuid()
      await runs.queue({
        id,
        tenantId: values.tenancyId,
        requestedAt: clock.now().toISOString(),
        organisationId: values.organisationId,
        channelId: values.channelId,
        ruleId: values.ruleId,
        eventType: values.event.type,
        eventKey: values.eventKey,
        webhookId: values.webhookId ?? webhookIdOf(),
        payload: JSON.stringify(values.event),
      })
      return id
    },

    /** The delivery an attempt sends. */
    async forAttempt(id: string): Promise<DeliveryRow | null> {
      const row = await db.kysely
        .selectFrom('notificationDeliveries')
        .select(['id', 'organisationId', 'channelId', 'webhookId', 'payload'])
        .where('id', '=', id)
        .executeTakeFirst()
      if (!row) return null
      const { payload, ...rest } = row
      return { ...rest, event: JSON.parse(payload) as NotificationEvent }
    },

    /** Records a failed attempt's answer on the row while that attempt still runs. */
    async recordAttempt(id: string, attempts: number, attempt: AttemptRecord): Promise<void> {
      await db.kysely
        .updateTable('notificationDeliveries')
        .set(attempt)
        .where('id', '=', id)
        .where('status', '=', 'Running')
        .where('attempts', '=', attempts)
        .execute()
    },

    /** The delivery log of a channel, newest first. */
    async list(organisationId: string, channelId: string, paging: Paging): Promise<PageOf<DeliveryRecord>> {
      const base = db.kysely
        .selectFrom('notificationDeliveries')
        .where('organisationId', '=', organisationId)
        .where('channelId', '=', channelId)
      const [rows, count] = await Promise.all([
        base
          .select(COLUMNS)
          .orderBy('requestedAt', 'desc')
          .orderBy('id', 'desc')
          .limit(paging.pageSize)
          .offset(offsetOf(paging))
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return pageOf(rows.map(recordOf), Number(count.n), paging)
    },

    /** One delivery of a channel of the organisation, with what a redelivery needs. */
    async get(
      organisationId: string,
      channelId: string,
      deliveryId: string,
    ): Promise<(DeliveryRecord & { event: NotificationEvent; eventKey: string; tenancyId: string | null }) | null> {
      const row = await db.kysely
        .selectFrom('notificationDeliveries')
        .select([...COLUMNS, 'payload', 'eventKey', 'tenantId'])
        .where('organisationId', '=', organisationId)
        .where('channelId', '=', channelId)
        .where('id', '=', deliveryId)
        .executeTakeFirst()
      if (!row) return null
      return {
        ...recordOf(row),
        event: JSON.parse(row.payload) as NotificationEvent,
        eventKey: row.eventKey,
        tenancyId: row.tenantId,
      }
    },
  }
}
export type DeliveryStore = ReturnType<typeof createDeliveryStore>
