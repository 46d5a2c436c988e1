import { sql } from 'kysely'

/**
 * daily_costs beside each row's tenant_id and resource_key (the lower-cased ARM id, '' for charges of a
 * subscription itself) from cost_resources (`c`), which numbers the rows' resources: one tenant's rows of some
 * resources, by key, are a seek of cost_resources' key and a range of daily_costs' key per resource.
 */
export const COST_ROWS_WITH_KEYS = sql`daily_costs join cost_resources c on c.id = daily_costs.resource_id`
