import type { Kysely } from 'kysely'

/**
 * Sign-in for the web interface: consecutive failed sign-ins per account (the lock that throttles guessing across every process), database sessions and
 * single-use password reset links. Session ids and reset tokens are stored as SHA-256 hashes only: a copy of the
 * database signs nobody in.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('failed_sign_ins', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.alterTable('users').addColumn('sign_in_locked_until', 'text').execute()
  // Sign-in finds every account of an address, in any organisation.
  await db.schema.createIndex('users_email_key').on('users').column('email_key').execute()

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('user_agent', 'text')
    .execute()
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute()

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute()
  await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute()
}
