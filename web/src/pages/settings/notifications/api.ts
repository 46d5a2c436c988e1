import { answer, client, everyItem, type Page } from '../../../api'

/** Where alerts go. The URL of a Slack, Teams or Webhook channel is a credential: the API names only its host. */
export const CHANNEL_TYPES = ['Slack', 'Teams', 'Webhook', 'Email'] as const
export type ChannelType = (typeof CHANNEL_TYPES)[number]

export interface Channel {
  id: string
  name: string
  type: ChannelType
  enabled: boolean
  disabledReason: string | null
  hasSecret: boolean
  urlHost: string | null
  emails: string[] | null
  userIds: string[] | null
  previousSecretUntil: string | null
  createdAt: string
  updatedAt: string
}
export interface NewChannel {
  name: string
  type: ChannelType
  url?: string
  emails?: string[]
  userIds?: string[]
}
export type DeliveryStatus = 'Pending' | 'Succeeded' | 'Accepted' | 'Failed'
export interface Delivery {
  id: string
  channelId: string
  ruleId: string | null
  eventType: string
  webhookId: string
  status: DeliveryStatus
  attempts: number
  lastStatusCode: number | null
  lastError: string | null
  latencyMs: number | null
  nextAttemptAt: string | null
  createdAt: string
  completedAt: string | null
}

export const TRIGGER_TYPES = ['AnomalyRaised', 'InsightFound', 'Digest', 'BudgetThreshold'] as const
export type TriggerType = (typeof TRIGGER_TYPES)[number]
export const FREQUENCIES = ['Immediate', 'Daily', 'Weekly'] as const
export type Frequency = (typeof FREQUENCIES)[number]
export const SEVERITIES = ['High', 'Medium', 'Low'] as const
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const
export type Weekday = (typeof WEEKDAYS)[number]

export interface RuleScope {
  tenancyIds: string[] | null
  tags?: { key: string; value: string }[]
  resourceGroup?: string | null
  service?: string | null
}
export interface RuleTrigger {
  type: TriggerType
  minImpact?: number | null
  minImpactPercent?: number | null
  combine?: 'all' | 'any'
  minSeverity?: string | null
  budgetIds?: string[]
  minMonthlySavings?: number | null
}
export interface RuleInput {
  name: string
  enabled?: boolean
  channelIds: string[]
  scope: RuleScope
  trigger: RuleTrigger
  frequency?: Frequency
  digestHour?: number
  digestWeekday?: Weekday
  timeZone?: string
  sendWhenQuiet?: boolean
}
export interface Rule extends Required<RuleInput> {
  id: string
  createdAt: string
  updatedAt: string
}
/** One anomaly the preview says the rule would have alerted on. */
export interface PreviewItem {
  anomalyId: string
  tenancyId?: string
  tenancyName?: string
  scopeName?: string
  severity?: string
  impact?: number
  impactPercent?: number | null
  currency?: string
  startDate?: string
  url?: string
}
export interface Preview {
  items: PreviewItem[]
  from?: string
  to?: string
  totalCount?: number
}

// The client is typed by the API's document; these operations are called by path.
type Init = { params?: { path?: Record<string, string>; query?: Record<string, unknown> }; body?: unknown }
type Call = (path: string, init?: Init) => Promise<{ data?: unknown; error?: unknown; response: Response }>
const loose = client as unknown as { GET: Call; POST: Call; PATCH: Call; DELETE: Call }
const call = <T>(pending: Promise<{ data?: unknown; error?: unknown; response: Response }>) =>
  answer(pending) as Promise<T>

const channel = (channelId: string) => ({ params: { path: { channelId } } })
const rule = (ruleId: string) => ({ params: { path: { ruleId } } })

export const notificationsApi = {
  channels: () =>
    everyItem((page, pageSize) =>
      call<Page<Channel>>(loose.GET('/notification-channels', { params: { query: { page, pageSize } } })),
    ),
  /** The answer holds a webhook channel's signing secret: the only time it is sent. */
  createChannel: (input: NewChannel) =>
    call<Channel & { secret?: string }>(loose.POST('/notification-channels', { body: input })),
  updateChannel: (channelId: string, patch: { name?: string; url?: string; enabled?: boolean }) =>
    call<Channel>(loose.PATCH('/notification-channels/{channelId}', { ...channel(channelId), body: patch })),
  deleteChannel: (channelId: string) =>
    call<unknown>(loose.DELETE('/notification-channels/{channelId}', channel(channelId))),
  rotateSecret: (channelId: string) =>
    call<{ secret: string; previousSecretUntil: string }>(
      loose.POST('/notification-channels/{channelId}/rotate-secret', channel(channelId)),
    ),
  testChannel: (channelId: string) =>
    call<{ deliveryId: string }>(loose.POST('/notification-channels/{channelId}/test', channel(channelId))),
  deliveries: (channelId: string, page: number, pageSize: number) =>
    call<Page<Delivery>>(
      loose.GET('/notification-channels/{channelId}/deliveries', {
        params: { path: { channelId }, query: { page, pageSize } },
      }),
    ),
  redeliver: (channelId: string, deliveryId: string) =>
    call<unknown>(
      loose.POST('/notification-channels/{channelId}/deliveries/{deliveryId}/redeliver', {
        params: { path: { channelId, deliveryId } },
      }),
    ),

  rules: () =>
    everyItem((page, pageSize) =>
      call<Page<Rule>>(loose.GET('/notification-rules', { params: { query: { page, pageSize } } })),
    ),
  createRule: (input: RuleInput) => call<Rule>(loose.POST('/notification-rules', { body: input })),
  updateRule: (ruleId: string, patch: Partial<RuleInput>) =>
    call<Rule>(loose.PATCH('/notification-rules/{ruleId}', { ...rule(ruleId), body: patch })),
  deleteRule: (ruleId: string) => call<unknown>(loose.DELETE('/notification-rules/{ruleId}', rule(ruleId))),
  /** Which of the last 30 days' anomalies an unsaved rule would have alerted on. */
  preview: (input: RuleInput, signal?: AbortSignal) =>
    call<Preview>(loose.POST('/notification-rules/preview', { body: input, ...(signal ? { signal } : {}) } as Init)),
}
