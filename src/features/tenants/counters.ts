/**
 * The count of an organisation's tenants in `row_counts` (platform/db/counters.ts), kept in the transaction of
 * every insert or delete, so the tenant list's `totalCount` never scans. What the list shows is cached under the
 * organisation's one cache version (platform/cache.ts).
 */
export const tenantCounter = (organisationId: string) => `tenants:${organisationId}`
