/** Where a channel sends. */
export const ChannelTypes = ['Email', 'Slack', 'Teams', 'Webhook'] as const
export type ChannelType = (typeof ChannelTypes)[number]

/** A delivery as its log shows it: Accepted is a Teams answer (the flow may still fail later). */
export const DeliveryStatuses = ['Pending', 'Succeeded', 'Accepted', 'Failed'] as const
export type DeliveryStatus = (typeof DeliveryStatuses)[number]

/** The `type` of a webhook body, and what every delivery is about. */
export const EventTypes = [
  'anomaly.raised',
  'anomaly.updated',
  'budget.threshold_crossed',
  'insight.found',
  'prediction.exceeded',
  'digest',
  'test',
] as const
export type EventType = (typeof EventTypes)[number]

/**
 * Standard Webhooks 1.0's retry schedule: the delay before each attempt after the first (now, 5 s, 5 min...),
 * in milliseconds. A delivery that fails every attempt fails for good.
 */
export const RETRY_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
] as const

/** How long the previous webhook secret keeps signing beside the new one after a rotation. */
export const PREVIOUS_SECRET_HOURS = 24

/** A webhook body's limit (Standard Webhooks recommends small bodies with ids and links). */
export const MAX_BODY_BYTES = 20_000
