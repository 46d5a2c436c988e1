import { anomalySummary } from './anomaly-summary.js'
import { costByDimension } from './cost-by-dimension.js'
import { insightSavings } from './insight-savings.js'
import { topResources } from './top-resources.js'
import type { ReportKind } from './types.js'

/** Every kind of report, by name. A new kind is one module implementing ReportKind, added here. */
export const REPORT_KINDS: Record<string, ReportKind<never>> = Object.fromEntries(
  [costByDimension, topResources, anomalySummary, insightSavings].map((kind) => [
    kind.name,
    kind as unknown as ReportKind<never>,
  ]),
)
export const REPORT_KIND_NAMES = Object.keys(REPORT_KINDS)
