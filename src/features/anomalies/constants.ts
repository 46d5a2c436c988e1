/**
 * The values of an anomaly's enumerations, kept apart from the schemas so that services and reports load without
 * them.
 */
import { ANOMALY_SEVERITIES } from '../../analysis/anomalies/detect.js'

export const AnomalySeverities = ANOMALY_SEVERITIES
export const AnomalyStatuses = ['Active', 'Acknowledged', 'Resolved'] as const
export const AnomalyScopeKinds = ['Tenant', 'Subscription', 'ResourceGroup', 'Resource', 'Service'] as const
/** A person's judgement of an anomaly, beside its status (an extension). */
export const AnomalyFeedbacks = ['Expected', 'NotAnAnomaly', 'Confirmed'] as const
/** Settled days after a marker before its cost impact gives a percentage: one day says too little. */
export const IMPACT_PERCENT_MIN_DAYS = 2
