/**
 * The values of an anomaly's enumerations, kept apart from the schemas so that services and reports load without
 * them.
 */
export const AnomalySeverities = ['High', 'Medium', 'Low'] as const
export const AnomalyStatuses = ['Active', 'Acknowledged', 'Resolved'] as const
export const AnomalyScopeKinds = ['Tenant', 'Subscription', 'ResourceGroup', 'Resource', 'Service'] as const
