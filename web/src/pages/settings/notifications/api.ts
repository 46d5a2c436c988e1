import { answer, client, everyItem, everyOf, type paths, type Schemas } from '../../../api'

export type Channel = Schemas['NotificationChannel']
export type CreatedChannel = Schemas['CreatedNotificationChannel']
export type NewChannel = Schemas['CreateNotificationChannelRequest']
export type ChannelType = Channel['type']
/** Where alerts go, in the order the form offers them. */
export const CHANNEL_TYPES = everyOf<ChannelType>()(['Slack', 'Teams', 'Webhook', 'Email'])
export type Delivery = Schemas['NotificationDelivery']

export type Rule = Schemas['AlertRule']
export type RuleInput = Schemas['CreateAlertRuleRequest']
export type PreviewInput = Schemas['PreviewAlertRuleRequest']
export type RuleTrigger = Schemas['AlertRuleTrigger']
export type TriggerType = RuleTrigger['type']
export type Frequency = Rule['frequency']
export type Weekday = Rule['digestWeekday']
export type Severity = NonNullable<RuleTrigger['minSeverity']>
export type Preview = Schemas['AlertRulePreview']
export const TRIGGER_TYPES = everyOf<TriggerType>()([
  'AnomalyRaised',
  'InsightFound',
  'Digest',
  'BudgetThreshold',
  'PredictionExceeded',
])
export const FREQUENCIES = everyOf<Frequency>()(['Immediate', 'Daily', 'Weekly'])
export const SEVERITIES = everyOf<Severity>()(['High', 'Medium', 'Low'])
export const WEEKDAYS = everyOf<Weekday>()([
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
])
type ChannelPatch = NonNullable<
  paths['/notification-channels/{channelId}']['patch']['requestBody']
>['content']['application/json']

const channel = (channelId: string) => ({ params: { path: { channelId } } })
const rule = (ruleId: string) => ({ params: { path: { ruleId } } })

export const notificationsApi = {
  /** Every channel of the organisation (owners only). */
  channels: () =>
    everyItem((page, pageSize) =>
      answer(client.GET('/notification-channels', { params: { query: { page, pageSize } } })),
    ),
  /** The answer holds a webhook channel's signing secret: the only time it is sent. */
  createChannel: (input: NewChannel) => answer(client.POST('/notification-channels', { body: input })),
  updateChannel: (channelId: string, patch: ChannelPatch) =>
    answer(client.PATCH('/notification-channels/{channelId}', { ...channel(channelId), body: patch })),
  deleteChannel: (channelId: string) => answer(client.DELETE('/notification-channels/{channelId}', channel(channelId))),
  rotateSecret: (channelId: string) =>
    answer(client.POST('/notification-channels/{channelId}/rotate-secret', channel(channelId))),
  testChannel: (channelId: string) =>
    answer(client.POST('/notification-channels/{channelId}/test', channel(channelId))),
  deliveries: (channelId: string, page: number, pageSize: number) =>
    answer(
      client.GET('/notification-channels/{channelId}/deliveries', {
        params: { path: { channelId }, query: { page, pageSize } },
      }),
    ),
  redeliver: (channelId: string, deliveryId: string) =>
    answer(
      client.POST('/notification-channels/{channelId}/deliveries/{deliveryId}/redeliver', {
        params: { path: { channelId, deliveryId } },
      }),
    ),

  /** Every rule the user may see. */
  rules: () =>
    everyItem((page, pageSize) => answer(client.GET('/notification-rules', { params: { query: { page, pageSize } } }))),
  createRule: (input: RuleInput) => answer(client.POST('/notification-rules', { body: input })),
  updateRule: (ruleId: string, patch: Partial<RuleInput>) =>
    answer(client.PATCH('/notification-rules/{ruleId}', { ...rule(ruleId), body: patch })),
  deleteRule: (ruleId: string) => answer(client.DELETE('/notification-rules/{ruleId}', rule(ruleId))),
  /** Which of the last 30 days' anomalies an unsaved rule would have alerted on. */
  preview: (input: PreviewInput, signal: AbortSignal) =>
    answer(client.POST('/notification-rules/preview', { body: input, signal })),
}
