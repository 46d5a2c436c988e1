import { createHmac } from 'node:crypto'
import { MAX_BODY_BYTES } from './constants.js'
import { type NotificationEvent, webhookBody } from './message.js'

/** The key of a `whsec_...` secret: the base64 after the prefix, decoded (Standard Webhooks 1.0). */
export function signingKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64')
}

/** `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` with the secret's key. */
export function signature(secret: string, webhookId: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', signingKey(secret)).update(`${webhookId}.${timestamp}.${body}`).digest('base64')
  return `v1,${mac}`
}

/**
 * The three Standard Webhooks headers of one attempt: `webhook-signature` holds one signature per live secret,
 * space-separated (two for a day after a rotation), so a receiver with either secret verifies it.
 */
export function webhookHeaders(
  secrets: string[],
  webhookId: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signature(s, webhookId, timestamp, body)).join(' '),
  }
}

/**
 * The webhook body of an event, under the 20 KB limit: when `data` is too large, only its short scalar fields
 * (ids, amounts, links) are kept, with `truncated: true`, so the receiver can fetch the rest from the API.
 */
export function limitedWebhookBody(event: NotificationEvent): string {
  const body = webhookBody(event)
  if (Buffer.byteLength(body) < MAX_BODY_BYTES) return body
  const data: Record<string, unknown> = { truncated: true }
  for (const [key, value] of Object.entries(event.data)) {
    if (typeof value === 'number' || typeof value === 'boolean' || value === null) data[key] = value
    else if (typeof value === 'string' && value.length <= 2000) data[key] = value
  }
  const trimmed = webhookBody({ ...event, data })
  if (Buffer.byteLength(trimmed) < MAX_BODY_BYTES) return trimmed
  return webhookBody({ ...event, data: { truncated: true } })
}
