import { type RawBuilder, sql } from 'kysely'

/** The storage key of a cost row's resource: its lower-cased ARM id, or '' for the subscription's own charges. */
export function resourceKeyOf(armId: string | null): string {
  return armId ? armId.toLowerCase() : ''
}

/**
 * The key (lower-cased ARM id) of the resource numbered `alias.resource_id`, looked up per row: a join would let
 * the planner loop over the tenant's resources and look each up in the other side (a sort of it first), and
 * write a series in resource order instead of its key's.
 */
export function keyOfResource(alias: string): RawBuilder<string> {
  return sql<string>`(select named.resource_key from cost_resources named
    where named.id = ${sql.ref(`${alias}.resource_id`)})`
}
