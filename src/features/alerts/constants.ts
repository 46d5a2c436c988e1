import { ANOMALY_SEVERITIES } from '../../analysis/anomalies/detect.js'

/** What a rule reacts to. BudgetThreshold names budgets (see the budgets feature once it exists). */
export const TriggerTypes = [
  'AnomalyRaised',
  'BudgetThreshold',
  'InsightFound',
  'Digest',
  'PredictionExceeded',
] as const
export type TriggerType = (typeof TriggerTypes)[number]

/** Immediate: as soon as the analysis finds it; Daily and Weekly: one digest at `digestHour` in `timeZone`. */
export const Frequencies = ['Immediate', 'Daily', 'Weekly'] as const
export type Frequency = (typeof Frequencies)[number]

/** How an AnomalyRaised trigger's two thresholds combine, as AWS's threshold expressions do. */
export const Combines = ['all', 'any'] as const

export const Severities = ANOMALY_SEVERITIES
export const Weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const

/** A rule's scope holds at most this many tag filters (each key=value, all must hold). */
export const MAX_SCOPE_TAGS = 10
