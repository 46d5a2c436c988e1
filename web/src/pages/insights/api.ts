import { answer, client, everyOf, type Schemas } from '../../api'

export type Insight = Schemas['Insight']
export type InsightCategory = Insight['category']
export type InsightSeverity = Insight['severity']
export type InsightAction = Schemas['PatchInsightRequest']['action']

/** Each category as people say it. */
export const CATEGORY_LABELS: Record<InsightCategory, string> = {
  OrphanedResource: 'Orphaned resource',
  StoppedVm: 'Stopped VM still billed',
  OverProvisioned: 'Over-provisioned',
  ScheduleOpportunity: 'Schedule opportunity',
  ReservedInstanceOpportunity: 'Reservation opportunity',
  UnusedResource: 'Unused resource',
  HybridBenefitOpportunity: 'Hybrid Benefit opportunity',
  ExpiredResource: 'Expired resource',
}
export const INSIGHT_SEVERITIES = everyOf<InsightSeverity>()(['Critical', 'High', 'Medium', 'Low'])
/** The reasons to dismiss an insight, each an action of the API. */
export const DISMISS_REASONS: { action: InsightAction; label: string }[] = [
  { action: 'NotRelevant', label: 'Not relevant' },
  { action: 'AcceptedRisk', label: 'Accepted risk' },
  { action: 'FalsePositive', label: 'False positive' },
]
const STATUS_LABELS: Record<string, string> = {
  NotRelevant: 'Not relevant',
  AcceptedRisk: 'Accepted risk',
  FalsePositive: 'False positive',
  AutoResolved: 'Resolved by itself',
}
export const statusLabel = (status: string) => STATUS_LABELS[status] ?? status

export interface InsightFilter {
  category: string
  severity: string
  tenancyId: string
  includeDismissed: string
  page: number
}

export const PAGE_SIZE = 25

export function listInsights(filter: InsightFilter) {
  return answer(
    client.GET('/insights', {
      params: {
        query: {
          page: filter.page,
          pageSize: PAGE_SIZE,
          ...(filter.category ? { category: filter.category as InsightCategory } : {}),
          ...(filter.severity ? { severity: filter.severity as InsightSeverity } : {}),
          ...(filter.tenancyId ? { tenancyId: filter.tenancyId } : {}),
          ...(filter.includeDismissed === 'true' ? { includeDismissed: 'true' } : {}),
        },
      },
    }),
  )
}

export const getInsight = (insightId: string) =>
  answer(client.GET('/insights/{insightId}', { params: { path: { insightId } } }))

/** `snoozeDays` goes as typed (a number when it is a whole number): the server judges it and says what is wrong. */
export function actOnInsight(id: string, action: InsightAction, snoozeDays?: string) {
  const body: Schemas['PatchInsightRequest'] = { action }
  if (action === 'Snoozed') {
    const text = (snoozeDays ?? '').trim()
    body.snoozeDays = text === '' ? null : /^-?\d+$/.test(text) ? Number(text) : text
  }
  return answer(client.PATCH('/insights/{insightId}', { params: { path: { insightId: id } }, body }))
}
