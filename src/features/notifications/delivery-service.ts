import type { Principal } from '../../platform/auth/principal.js'
import type { Clock, Ids } from '../../platform/clock.js'
import type { Queryable } from '../../platform/db/index.js'
import { ApiError } from '../../platform/http/errors.js'
import type { PageOf, Paging } from '../../platform/http/paging.js'
import type { DeliveryStore } from './deliveries.js'
import type { NotificationEvent } from './message.js'
import type { DeliveryRequest } from './public.js'
import type { DeliveryRecord } from './schemas.js'
import type { ChannelDirectory, ChannelTarget } from './target.js'

/** The `test` event of a channel: it names the channel and the organisation, and links to the settings page. */
export function testEvent(
  channel: Pick<ChannelTarget, 'id' | 'name' | 'type'>,
  organisation: { id: string; name: string },
  publicUrl: string,
  at: Date,
): NotificationEvent {
  const url = `${publicUrl}/settings/notifications`
  return {
    type: 'test',
    timestamp: at.toISOString(),
    data: {
      channelId: channel.id,
      channelName: channel.name,
      organisationId: organisation.id,
      organisationName: organisation.name,
      url,
    },
    message: {
      title: `Test message from Costwatch to ${channel.name}`,
      summary: `This ${channel.type} channel of ${organisation.name} receives Costwatch alerts.`,
      facts: [
        { label: 'Channel', value: channel.name },
        { label: 'Organisation', value: organisation.name },
      ],
      sections: [],
      link: { label: 'Notification settings', url },
      actions: [],
    },
  }
}

/**
 * The deliveries as the API and the alerts feature use them: queue an alert's messages in its transaction, send
 * a test at once, read a channel's delivery log, and redeliver a message (a new delivery with the same
 * `webhook-id` and a fresh schedule; the earlier one and its attempts stay in the log).
 */
export function createDeliveryService(deps: {
  store: DeliveryStore
  directory: ChannelDirectory
  organisationName(id: string): Promise<string | null>
  publicUrl: string
  clock: Clock
  ids: Ids
}) {
  const { store, directory, clock, ids } = deps

  /** The organisation's channel, or a 404 like an unknown one. */
  async function channelOf(who: Principal, channelId: string): Promise<ChannelTarget> {
    const target = await directory.target(channelId)
    if (!target || target.organisationId !== who.organisationId) throw ApiError.notFound(`Channel ${channelId}`)
    return target
  }

  return {
    /** See QueueDeliveries (public.ts). */
    async queue(tx: Queryable, requests: DeliveryRequest[]): Promise<number> {
      return (await store.queue(tx, requests)).length
    },

    async test(who: Principal, channelId: string): Promise<{ deliveryId: string }> {
      const channel = await channelOf(who, channelId)
      if (!channel.enabled)
        throw ApiError.conflict(`Channel ${channelId} is disabled: enable it (PATCH enabled: true) before testing it.`)
      const name = (await deps.organisationName(who.organisationId)) ?? who.organisationId
      const deliveryId = await store.queueOne({
        organisationId: who.organisationId,
        channelId,
        ruleId: null,
        tenancyId: null,
        eventKey: `test:${ids.uuid()}`,
        event: testEvent(channel, { id: who.organisationId, name }, deps.publicUrl, clock.now()),
      })
      return { deliveryId }
    },

    async list(who: Principal, channelId: string, paging: Paging): Promise<PageOf<DeliveryRecord>> {
      await channelOf(who, channelId)
      return store.list(who.organisationId, channelId, paging)
    },

    async redeliver(who: Principal, channelId: string, deliveryId: string): Promise<{ deliveryId: string }> {
      const channel = await channelOf(who, channelId)
      const delivery = await store.get(who.organisationId, channelId, deliveryId)
      if (!delivery) throw ApiError.notFound(`Delivery ${deliveryId} of channel ${channelId}`)
      if (!channel.enabled)
        throw ApiError.conflict(
          `Channel ${channelId} is disabled: enable it (PATCH enabled: true) before redelivering.`,
        )
      const id = await store.queueOne({
        organisationId: who.organisationId,
        channelId,
        ruleId: delivery.ruleId,
        tenancyId: delivery.tenancyId,
        eventKey: `redelivery:${ids.uuid()}`,
        webhookId: delivery.webhookId,
        event: delivery.event,
      })
      return { deliveryId: id }
    },
  }
}
export type DeliveryService = ReturnType<typeof createDeliveryService>
