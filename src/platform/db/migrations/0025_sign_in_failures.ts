import type { Kysely } from 'kysely'

/**
 * Failed sign-ins are counted per (account, client address), no longer per account: ten wrong passwords from one
 * address lock that address out of that account for a while, and nobody else out of it. The per-account count
 * and lock on `users` go (a stranger could lock any account, and keep it locked).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sign_in_failures')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('last_failed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sign_in_failures_pk', ['user_id', 'address'])
    .execute()
  // Housekeeping forgets old counts by their last failure.
  await db.schema.createIndex('sign_in_failures_last').on('sign_in_failures').column('last_failed_at').execute()
  await db.schema.alterTable('users').dropColumn('failed_sign_ins').execute()
  await db.schema.alterTable('users').dropColumn('sign_in_locked_until').execute()
}
