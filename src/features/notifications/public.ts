// The notifications feature's public entry: what other features may use of it (docs/architecture.md, "Rules that are checked").
// No routes or schemas here: the command line loads this module.
import type { Queryable } from '../../platform/db/index.js'
import type { NotificationEvent } from './message.js'

export type { EventType } from './constants.js'
export { EventTypes } from './constants.js'
export type { AlertMessage, NotificationEvent } from './message.js'
export { channelsOf } from './reads.js'
/** The sealed columns of channels, for `costwatch secrets reseal`. */
export { CHANNEL_PREVIOUS_SECRET, CHANNEL_SECRET, CHANNEL_URL } from './store.js'

/** One event for some channels of an organisation (an alert rule's, or a test's). */
export interface DeliveryRequest {
  organisationId: string
  /** Disabled or unknown channels are left out. */
  channelIds: string[]
  ruleId: string | null
  /**
   * What the message is about, unique per channel (`rule:<id>:anomaly:<id>:<level>`): a request whose key a
   * channel already has is not queued again, so a re-evaluation after a crash sends nothing twice.
   */
  eventKey: string
  /** The tenancy the event is about, if one. */
  tenancyId: string | null
  event: NotificationEvent
}

/**
 * Queues one delivery per channel and request in the caller's transaction (an alert run's success), so that an
 * evaluation and its deliveries commit together. Returns the deliveries queued.
 */
export type QueueDeliveries = (tx: Queryable, requests: DeliveryRequest[]) => Promise<number>
