import type { EventType } from './constants.js'

/**
 * What one alert says, built once by the alerts feature and rendered by each channel type: Slack blocks with a
 * plain-text fallback, a Teams Adaptive Card, an e-mail, or (for a webhook) only `data`. It tells what, where,
 * how much and why, with a link to the chart and buttons to act on it in the web interface.
 */
export interface AlertMessage {
  /** One line: "Anomaly on Virtual Machines (Contoso prod): +US$1,204.50 (+312%) since 24 Nov". */
  title: string
  /** A plain-text sentence or two: the fallback of every rich rendering. */
  summary: string
  /** Label and value pairs shown as a table: Scope, Expected, Actual, Impact, Severity, Episode... */
  facts: { label: string; value: string }[]
  /** Further parts, each a heading and its lines: "Top drivers", "Likely cause", "Top anomalies"... */
  sections: { heading: string; lines: string[] }[]
  /** The page to open (a chart, an anomaly, a digest's list): absolute, from COSTWATCH_PUBLIC_URL. */
  link: { label: string; url: string } | null
  /** Buttons: each opens a page of the web interface (acknowledge an anomaly there). */
  actions: { label: string; url: string }[]
}

/**
 * An event to deliver: the webhook body is `{type, timestamp, data}` (ids and links, under 20 KB); `message` is
 * what Email, Slack and Teams show.
 */
export interface NotificationEvent {
  type: EventType
  /** When it happened (RFC 3339); the webhook body's `timestamp`. */
  timestamp: string
  data: Record<string, unknown>
  message: AlertMessage
}

/** The webhook body of an event (Standard Webhooks' recommended shape). */
export function webhookBody(event: NotificationEvent): string {
  return JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data })
}
