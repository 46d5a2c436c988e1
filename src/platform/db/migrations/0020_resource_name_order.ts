import type { Kysely } from 'kysely'

/**
 * Resource lists are read by name a page at a time: in the index's order, a page is the next 50 entries rather than
 * a sort of all the tenant's resources, filtered or not.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('resources_tenant_name').on('resources').columns(['tenant_id', 'name', 'id']).execute()
}
