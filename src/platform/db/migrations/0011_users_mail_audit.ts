import { type Kysely, sql } from 'kysely'

/**
 * Users and access: e-mail addresses unique per organisation whatever their letter case, password hashes,
 * invitation links (only a hash of each token), the mail outbox (a run table: each message is a run of the `mail`
 * kind) and the audit log.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  // The address lower-cased by the service (full Unicode, the same on both dialects: SQLite's lower() folds ASCII
  // only), so the database refuses a second spelling of one address in an organisation.
  await db.schema.alterTable('users').addColumn('email_key', 'text').execute()
  await db.schema.alterTable('users').addColumn('password_hash', 'text').execute()
  await sql`update users set email_key = lower(email)`.execute(db)
  await db.schema
    .createIndex('users_org_email_key')
    .on('users')
    .columns(['organisation_id', 'email_key'])
    .unique()
    .execute()
  await db.schema.createIndex('users_org_order').on('users').columns(['organisation_id', 'email_key', 'id']).execute()
  await db.schema.createIndex('tenancy_roles_user').on('tenancy_roles').columns(['user_id']).execute()

  await db.schema
    .createTable('invitations')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('replaced_at', 'text')
    .execute()
  await db.schema.createIndex('invitations_user').on('invitations').columns(['user_id']).execute()

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_until', 'text')
    .addColumn('worker_id', 'text')
    .addColumn('progress', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('not_before', 'text')
    .addColumn('organisation_id', 'text', (c) => c.references('organisations.id'))
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    // The message (it may hold a single-use link), sealed with the secret key; emptied once delivered.
    .addColumn('body_sealed', 'text')
    .addColumn('message_id', 'text')
    .execute()
  await db.schema.createIndex('mail_outbox_queue').on('mail_outbox').columns(['status', 'requested_at', 'id']).execute()

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('origin', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('audit_log_org_order').on('audit_log').columns(['organisation_id', 'at', 'id']).execute()
  await db.schema.createIndex('audit_log_order').on('audit_log').columns(['at', 'id']).execute()
}
