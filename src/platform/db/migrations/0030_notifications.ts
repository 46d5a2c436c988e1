import type { Kysely } from 'kysely'

/** The columns every run table has (see RunColumns), for the two run kinds below. */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
function runTable(db: Kysely<any>, name: string) {
  return db.schema
    .createTable(name)
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
}

/**
 * Alerts. Notification channels (where a message goes: e-mail, Slack, Teams, a signed webhook) and their
 * deliveries, a run kind (`notification`) with one row per message and channel; alert rules (which events go to
 * which channels), the runs that evaluate them (`alert`: after an analysis run, and each digest period) and what
 * each rule has sent, so that an episode alerts once per rule and again only when its severity rises.
 *
 * Webhook URLs and signing secrets are sealed with the secret key, like tenant credentials.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was, not as it is typed now
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_channels')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('disabled_reason', 'text')
    // Slack, Teams and Webhook: the URL, sealed (a Slack or Teams URL is itself a credential).
    .addColumn('url_sealed', 'text')
    // Email: JSON arrays of addresses and of user ids of the organisation.
    .addColumn('emails', 'text')
    .addColumn('user_ids', 'text')
    // Webhook: the signing secret, sealed; after a rotation the previous one signs beside it until `previous_until`.
    .addColumn('secret_sealed', 'text')
    .addColumn('previous_secret_sealed', 'text')
    .addColumn('previous_secret_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('notification_channels_org_name')
    .on('notification_channels')
    .columns(['organisation_id', 'name', 'id'])
    .execute()

  await runTable(db, 'notification_deliveries')
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('channel_id', 'text', (c) => c.notNull().references('notification_channels.id').onDelete('cascade'))
    .addColumn('rule_id', 'text')
    // anomaly.raised, anomaly.updated, budget.threshold_crossed, insight.found, digest, test
    .addColumn('event_type', 'text', (c) => c.notNull())
    // What the message is about, once per channel: a second delivery of the same key is not queued.
    .addColumn('event_key', 'text', (c) => c.notNull())
    // Standard Webhooks' `webhook-id`: the same on every attempt and redelivery of this message.
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    // The event as JSON: the webhook body and the message people read (no secret is ever part of it).
    .addColumn('payload', 'text', (c) => c.notNull())
    // Succeeded, Accepted (Teams) or Failed once settled; null while pending.
    .addColumn('outcome', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('latency_ms', 'integer')
    .execute()
  await db.schema
    .createIndex('notification_deliveries_queue')
    .on('notification_deliveries')
    .columns(['status', 'requested_at', 'id'])
    .execute()
  await db.schema
    .createIndex('notification_deliveries_event')
    .on('notification_deliveries')
    .columns(['channel_id', 'event_key'])
    .unique()
    .execute()
  await db.schema
    .createIndex('notification_deliveries_log')
    .on('notification_deliveries')
    .columns(['channel_id', 'requested_at', 'id'])
    .execute()

  await db.schema
    .createTable('alert_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    // JSON: the channel ids, the scope ({tenancyIds, tags, resourceGroup, service}) and the trigger.
    .addColumn('channel_ids', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('trigger_type', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('frequency', 'text', (c) => c.notNull())
    .addColumn('digest_hour', 'integer')
    .addColumn('digest_weekday', 'text')
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('send_when_quiet', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('alert_rules_org_name')
    .on('alert_rules')
    .columns(['organisation_id', 'name', 'id'])
    .execute()
  // The tenancies a rule covers, for "the rules of this tenancy" and for who may see and manage it.
  await db.schema
    .createTable('alert_rule_tenancies')
    .addColumn('rule_id', 'text', (c) => c.notNull().references('alert_rules.id').onDelete('cascade'))
    .addColumn('tenancy_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('alert_rule_tenancies_pk', ['rule_id', 'tenancy_id'])
    .execute()
  await db.schema
    .createIndex('alert_rule_tenancies_tenancy')
    .on('alert_rule_tenancies')
    .columns(['tenancy_id'])
    .execute()

  await runTable(db, 'alert_runs')
    .addColumn('organisation_id', 'text')
    // `analysis`: the rules of the tenant after its analysis run `source_run_id`; `digest`: one rule's period.
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_run_id', 'text')
    .addColumn('rule_id', 'text')
    .addColumn('period_key', 'text')
    .execute()
  await db.schema.createIndex('alert_runs_queue').on('alert_runs').columns(['status', 'requested_at', 'id']).execute()
  // A digest period is evaluated once, however many workers schedule it.
  await db.schema
    .createIndex('alert_runs_digest')
    .on('alert_runs')
    .columns(['rule_id', 'period_key'])
    .unique()
    .execute()

  await db.schema
    .createTable('alert_sends')
    .addColumn('rule_id', 'text', (c) => c.notNull().references('alert_rules.id').onDelete('cascade'))
    // `anomaly:<id>`, `insight:<id>`, `budget:<id>:<period>:<threshold>`
    .addColumn('subject_key', 'text', (c) => c.notNull())
    // The highest level sent (an anomaly's severity rank): a re-run alerts again only above it.
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('alert_sends_pk', ['rule_id', 'subject_key'])
    .execute()
}
