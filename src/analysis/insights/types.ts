/** What an insight rule knows of one resource: its inventory record, its recent costs and, for VMs, its CPU. */
export interface ResourceFacts {
  resourceId: string
  armId: string
  name: string
  /** e.g. `Microsoft.Compute/virtualMachines`; rules compare it case-insensitively. */
  resourceType: string
  /** Provisioning or power state as the provider reports it (`VM running`, `VM stopped`, `Unattached`...). */
  state: string | null
  sku: string | null
  tags: Record<string, string>
  properties: Record<string, unknown>
  subscriptionId: string
  /** Null for a cloud without resource groups (AWS, Google Cloud). */
  resourceGroupName: string | null
  /** Usage cost of each of the last days (up to 30), oldest first; a day without cost is 0. */
  dailyCosts: number[]
  /** The weekday (0 Sunday .. 6 Saturday) of `dailyCosts[0]`. */
  firstWeekday: number
  currency: string
  /** Daily CPU of the last days, oldest first (VMs that ran; empty otherwise). */
  cpu: { date: string; averagePercent: number; maxPercent: number; p95Percent: number | null }[]
}

export interface RuleContext {
  /** Today, a UTC day `YYYY-MM-DD`. */
  today: string
}

export const INSIGHT_SEVERITIES = ['Critical', 'High', 'Medium', 'Low'] as const
export type InsightSeverity = (typeof INSIGHT_SEVERITIES)[number]

/** Every category a rule finds: the one list the schemas and (through the document) the UI use. */
export const INSIGHT_CATEGORIES = [
  'OrphanedResource',
  'StoppedVm',
  'OverProvisioned',
  'ScheduleOpportunity',
  'ReservedInstanceOpportunity',
  'UnusedResource',
  'HybridBenefitOpportunity',
  'ExpiredResource',
] as const
export type InsightCategory = (typeof INSIGHT_CATEGORIES)[number]

/** A condition a rule found on a resource, with what fixing it would save a month. */
export interface Finding {
  category: InsightCategory
  severity: InsightSeverity
  title: string
  description: string
  recommendation: string
  /** In the resource's currency, rounded to the cent. */
  estimatedMonthlySavings: number
}

export type InsightRule = (resource: ResourceFacts, context: RuleContext) => Finding | null
