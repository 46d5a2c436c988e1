import type { Clock } from '../../platform/clock.js'
import type { Outbox } from '../../platform/mail.js'
import { type OutboundClient, OutboundFailedError, OutboundRefusedError } from '../../platform/outbound/types.js'
import { defineRunKind, type RunOutcome } from '../../platform/runs/worker.js'
import { RETRY_SCHEDULE_MS } from './constants.js'
import { type AttemptRecord, type DeliveryStore, NOTIFICATION_RUNS, type NotificationRunColumns } from './deliveries.js'
import { emailMessage } from './render/email.js'
import { slackMessage } from './render/slack.js'
import { teamsMessage } from './render/teams.js'
import { limitedWebhookBody, webhookHeaders } from './signing.js'
import type { ChannelDirectory, ChannelTarget } from './target.js'

/** The first attempt and one per delay of the schedule: ten in all, over about three days. */
export const NOTIFICATION_MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1
/** Runs of one channel at once in one worker: a slow endpoint holds at most these slots. */
export const PER_CHANNEL_LIMIT = 4
/** The longest pause a Retry-After may ask for (the schedule's own longest). */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000

/** The schedule's delay before the attempt after `attempts`, ±10% so that many failed deliveries spread out. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = RETRY_SCHEDULE_MS[Math.min(attempts, RETRY_SCHEDULE_MS.length) - 1] ?? RETRY_SCHEDULE_MS[0]
  return Math.round(base * (0.9 + 0.2 * random()))
}

/** `Retry-After` in milliseconds from `now`: seconds, or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: Date): number | null {
  if (!value) return null
  const text = value.trim()
  if (/^\d+$/.test(text)) return Math.min(MAX_RETRY_AFTER_MS, Number(text) * 1000)
  const at = Date.parse(text)
  if (Number.isNaN(at)) return null
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - now.getTime()))
}

/** A failed attempt: what the run records, and what the row shows of it. */
class DeliveryFailed extends Error {
  constructor(
    readonly outcome: RunOutcome,
    readonly attempt: AttemptRecord,
  ) {
    super(outcome.message)
  }

  /** Records the attempt on the row, and is then thrown. */
  async recordOn(deliveries: DeliveryStore, runId: string, attempts: number): Promise<DeliveryFailed> {
    await deliveries.recordAttempt(runId, attempts, this.attempt)
    return this
  }
}

/** What the log may show of a receiver's answer: a short excerpt, never a URL (it could be a credential). */
function excerpt(body: string): string {
  const text = body
    .replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '[url]')
    .replace(/\s+/g, ' ')
    .trim()
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

/** Removes the channel's URL and secrets from a message, should a lower layer ever have put one in. */
function scrub(text: string, target: ChannelTarget): string {
  let out = text
  for (const secret of [target.url, ...target.secrets]) if (secret) out = out.replaceAll(secret, '[redacted]')
  return out.replace(/https?:\/\/\S+/gi, '[url]')
}

/**
 * The `notification` run kind: each run sends one message to one channel. The channel is read for each attempt
 * (a rotated secret or a changed URL applies to the next attempt; a disabled or deleted channel fails the delivery
 * without sending). Slack, Teams and Webhook go through the guarded outbound client; Email queues one message per
 * recipient in the mail outbox. Retries follow Standard Webhooks' schedule with jitter, never sooner than a
 * Retry-After asks; a 410 disables the channel at once, and so does failing through the whole schedule.
 */
export function notificationRunKind(deps: {
  deliveries: DeliveryStore
  directory: ChannelDirectory
  outbound: OutboundClient
  outbox: Outbox
  clock: Clock
  /** Runs of this kind one worker does at once. */
  slots: number
  random?: () => number
}) {
  const { deliveries, directory, outbound, outbox, clock } = deps
  const random = deps.random ?? Math.random

  /**
   * Records a failed attempt on the row and throws it for the worker: retried per the schedule, or, after the
   * last attempt, failed for good with the channel disabled (its owners are e-mailed).
   */
  async function failed(
    runId: string,
    attempts: number,
    target: ChannelTarget,
    failure: { code: string; message: string; retryAfterMs?: number },
    attempt: AttemptRecord,
  ): Promise<never> {
    await deliveries.recordAttempt(runId, attempts, attempt)
    const last = attempts >= NOTIFICATION_MAX_ATTEMPTS
    if (last)
      await directory.disable(
        target.id,
        `Every attempt of a delivery failed over ${NOTIFICATION_MAX_ATTEMPTS} attempts (the last: ${failure.message}).`,
      )
    throw new DeliveryFailed({ ...failure, retry: !last }, attempt)
  }

  return defineRunKind<NotificationRunColumns>({
    ...NOTIFICATION_RUNS,
    maxAttempts: NOTIFICATION_MAX_ATTEMPTS,
    retryDelayMs: (attempts) => retryDelayMs(attempts, random),
    slots: deps.slots,
    partition: { column: 'channel_id', limit: PER_CHANNEL_LIMIT },

    async handle(run, { signal, succeed }) {
      const delivery = await deliveries.forAttempt(run.id)
      if (!delivery) return // deleted with its channel meanwhile
      const target = await directory.target(delivery.channelId)
      if (!target?.enabled || target.organisationId !== delivery.organisationId)
        throw await new DeliveryFailed(
          { code: 'channel_disabled', message: 'channel disabled', retry: false },
          { lastStatusCode: null, lastError: 'channel disabled', latencyMs: null },
        ).recordOn(deliveries, run.id, run.attempts)
      const footer = `Costwatch · ${target.name}`
      const { event } = delivery

      if (target.type === 'Email') {
        const started = Date.now()
        let queued: string[] = []
        await succeed(async (tx) => {
          queued = []
          for (const to of target.emails) {
            queued.push(await outbox.queue(tx, delivery.organisationId, emailMessage(event.message, to, footer)))
          }
          return { outcome: 'Succeeded', lastStatusCode: null, lastError: null, latencyMs: Date.now() - started }
        })
        await outbox.announce(queued)
        return
      }

      let request: { headers: Record<string, string>; body: string }
      if (target.type === 'Webhook') {
        const body = limitedWebhookBody(event)
        const timestamp = Math.floor(clock.now().getTime() / 1000)
        request = { headers: webhookHeaders(target.secrets, delivery.webhookId, timestamp, body), body }
      } else {
        const payload =
          target.type === 'Slack' ? slackMessage(event.message, footer) : teamsMessage(event.message, footer)
        request = { headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) }
      }

      const started = Date.now()
      let response: Awaited<ReturnType<OutboundClient['send']>>
      try {
        response = await outbound.send({ method: 'POST', url: target.url ?? '', ...request, signal })
      } catch (err) {
        if (signal.aborted) throw err
        const latencyMs = Date.now() - started
        const refused = err instanceof OutboundRefusedError
        const code = refused ? 'outbound_refused' : err instanceof OutboundFailedError ? err.code : 'network'
        const message = scrub(err instanceof Error ? err.message : 'The request failed.', target)
        const lastError = refused ? `refused: ${message}` : message
        return failed(
          run.id,
          run.attempts,
          target,
          { code, message: lastError },
          { lastStatusCode: null, lastError, latencyMs },
        )
      }
      const { status, latencyMs } = response
      if (status >= 200 && status < 300) {
        await succeed(async () => ({
          outcome: target.type === 'Teams' ? 'Accepted' : 'Succeeded',
          lastStatusCode: status,
          lastError: null,
          latencyMs,
        }))
        return
      }
      const answer = excerpt(scrub(response.body, target))
      const what =
        status >= 300 && status < 400
          ? `HTTP ${status}: a redirect, not followed`
          : `HTTP ${status}${answer ? `: ${answer}` : ''}`
      const attempt = { lastStatusCode: status, lastError: what, latencyMs }
      if (status === 410) {
        await deliveries.recordAttempt(run.id, run.attempts, attempt)
        await directory.disable(
          target.id,
          `The endpoint answered 410 Gone${answer ? ` (${answer})` : ''}: it no longer takes messages.`,
        )
        throw new DeliveryFailed({ code: 'gone', message: what, retry: false }, attempt)
      }
      const wait = retryAfterMs(response.headers['retry-after'], clock.now())
      return failed(
        run.id,
        run.attempts,
        target,
        { code: `http_${status}`, message: what, retryAfterMs: wait ?? undefined },
        attempt,
      )
    },

    failure(error): RunOutcome {
      if (error instanceof DeliveryFailed) return error.outcome
      return {
        code: 'delivery_failed',
        message: 'The delivery failed unexpectedly; the error was logged.',
        retry: true,
      }
    },
  })
}
