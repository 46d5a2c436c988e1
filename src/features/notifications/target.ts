import type { ChannelType } from './constants.js'

/**
 * A channel as a delivery uses it, unsealed: read for each attempt, so that a rotated secret, a changed URL or a
 * disabled channel applies to the next attempt of a message already queued. Never returned by the API, never logged.
 */
export interface ChannelTarget {
  id: string
  organisationId: string
  name: string
  type: ChannelType
  enabled: boolean
  /** Slack, Teams, Webhook. */
  url: string | null
  /** Webhook: the live signing secrets (`whsec_...`), the newest first; two within 24 hours of a rotation. */
  secrets: string[]
  /** Email: every recipient, the addresses given and the organisation's users' own. */
  emails: string[]
}

/** What deliveries need of the channels (the channels' service provides it). */
export interface ChannelDirectory {
  target(channelId: string): Promise<ChannelTarget | null>
  /**
   * Disables the channel for `reason` (a 410 answer; failures through the whole retry schedule), audits it and
   * e-mails the organisation's owners. Nothing happens when it is already disabled.
   */
  disable(channelId: string, reason: string): Promise<void>
}
