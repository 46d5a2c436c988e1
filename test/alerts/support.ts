import { randomUUID } from 'node:crypto'
import type { OrgContext, TestApp } from '../support/app.js'

/**
 * A notification channel of the organisation, written directly: the channels' own API has its tests, and a rule
 * only needs the channel to exist (its URL and secret are never read by the rules).
 */
export async function givenChannel(t: TestApp, org: OrgContext, name = 'On-call'): Promise<string> {
  const id = randomUUID()
  const now = t.clock.now().toISOString()
  await t.db.kysely
    .insertInto('notificationChannels')
    .values({
      id,
      organisationId: org.organisationId,
      name,
      type: 'Webhook',
      enabled: 1,
      disabledReason: null,
      urlSealed: null,
      emails: null,
      userIds: null,
      secretSealed: null,
      previousSecretSealed: null,
      previousSecretUntil: null,
      createdAt: now,
      updatedAt: now,
    })
    .execute()
  return id
}
