import { call, type Page } from '../../api'
import type { Actor } from '../anomalies/api'

export type InsightCategory =
  | 'OrphanedResource'
  | 'StoppedVm'
  | 'OverProvisioned'
  | 'ScheduleOpportunity'
  | 'ReservedInstanceOpportunity'
  | 'UnusedResource'
  | 'HybridBenefitOpportunity'
  | 'ExpiredResource'
export type InsightSeverity = 'Critical' | 'High' | 'Medium' | 'Low'
export type InsightAction = 'NotRelevant' | 'AcceptedRisk' | 'Implemented' | 'FalsePositive' | 'Snoozed'

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
export const INSIGHT_SEVERITIES: InsightSeverity[] = ['Critical', 'High', 'Medium', 'Low']
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

export interface Insight {
  id: string
  tenancyId: string
  resourceId: string | null
  resourceName: string | null
  subscriptionId: string | null
  resourceGroupName: string | null
  category: InsightCategory
  severity: InsightSeverity
  title: string
  description: string
  recommendation: string
  estimatedMonthlySavings: number
  currency: string
  status: string
  snoozedUntil: string | null
  lastAction: { action: string; at: string; by: Actor; snoozeDays: number | null } | null
  detectedAt: string
  updatedAt: string
}
export interface InsightFilter {
  category: string
  severity: string
  tenancyId: string
  includeDismissed: string
  page: number
}

export const PAGE_SIZE = 25

export function listInsights(filter: InsightFilter) {
  const params = new URLSearchParams({ page: String(filter.page), pageSize: String(PAGE_SIZE) })
  for (const key of ['category', 'severity', 'tenancyId'] as const) if (filter[key]) params.set(key, filter[key])
  if (filter.includeDismissed === 'true') params.set('includeDismissed', 'true')
  return call<Page<Insight>>('GET', `/insights?${params}`)
}

export const getInsight = (id: string) => call<Insight>('GET', `/insights/${encodeURIComponent(id)}`)

/** `snoozeDays` goes as typed (a number when it is a whole number): the server judges it and says what is wrong. */
export function actOnInsight(id: string, action: InsightAction, snoozeDays?: string) {
  const body: { action: InsightAction; snoozeDays?: number | string | null } = { action }
  if (action === 'Snoozed') {
    const text = (snoozeDays ?? '').trim()
    body.snoozeDays = text === '' ? null : /^-?\d+$/.test(text) ? Number(text) : text
  }
  return call<Insight>('PATCH', `/insights/${encodeURIComponent(id)}`, body)
}
