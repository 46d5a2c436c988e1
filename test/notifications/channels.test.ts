import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChannelRecord } from '../../src/features/notifications/schemas.js'
import { CHANNEL_PREVIOUS_SECRET, CHANNEL_SECRET, CHANNEL_URL } from '../../src/features/notifications/store.js'
import { createSecretBox } from '../../src/platform/crypto.js'
import { resealAll } from '../../src/platform/sealed.js'
import { type OrgContext, TEST_SECRET_KEY, useTestApp } from '../support/app.js'
import { auditLogOf } from '../support/audit-log.js'
import { testDialects } from '../support/dialects.js'
import { activeMember, asBrowser, signIn } from '../support/members.js'
import { createTestSmtpServer } from '../support/smtp.js'

const API = '/api/public/v1'
// http: the test's browser sends the session cookie of a plain-http installation.
const PUBLIC_URL = 'http://costs.example.test'
const NOW = '2026-03-01T09:00:00.000Z'
const DAY_MS = 24 * 3_600_000
const SLACK_URL = 'https://hooks.slack.com/services/T0001/B0001/slacksecretpart0001'
const TEAMS_URL = 'https://prod-01.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=teamssig01'
const WEBHOOK_URL = 'https://hooks.example.com/cw/webhook-path-secret'

function expectProblem(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number) {
  expect(res.statusCode, res.body).toBe(status)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  return JSON.parse(res.body)
}

/** A header's RFC 2047 encoded words (`=?UTF-8?Q?...?=`, folded), decoded. */
function decodeSubject(header: string): string {
  return header.replace(/\?=\s+=\?/g, '?==?').replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_m, text: string) =>
    Buffer.from(
      text
        .replaceAll('_', ' ')
        .replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
      'latin1',
    ).toString('utf8'),
  )
}

/** A Standard Webhooks secret: `whsec_` and the base64 of 24 to 64 bytes. */
function expectWebhookSecret(secret: unknown): string {
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
  const bytes = Buffer.from((secret as string).slice('whsec_'.length), 'base64')
  expect(bytes.length).toBeGreaterThanOrEqual(24)
  expect(bytes.length).toBeLessThanOrEqual(64)
  return secret as string
}

for (const dialect of testDialects()) {
  describe(`${dialect}: notification channels`, () => {
    const smtp = createTestSmtpServer()
    const env: Record<string, string> = {
      COSTWATCH_PUBLIC_URL: PUBLIC_URL,
      COSTWATCH_SNAPSHOT_HOUR: '23',
      COSTWATCH_RATE_LIMIT: '100000',
    }
    // Before the app's own setup, which reads `env`: the server's port is known once it listens.
    beforeAll(async () => {
      await smtp.start()
      env.COSTWATCH_SMTP_URL = smtp.url
    })
    afterAll(() => smtp.stop())
    const t = useTestApp({ dialect, now: NOW, env })
    let org: OrgContext
    let other: OrgContext
    let viewerKey: string
    let auditOf: (action: string) => Promise<Record<string, unknown>[]>
    /** Every secret and URL handed out or given: none may show up where it should not. */
    const secretsSeen: string[] = [SLACK_URL, TEAMS_URL, WEBHOOK_URL, 'slacksecretpart0001', 'teamssig01']

    // biome-ignore lint/suspicious/noDuplicateTestHooks: the SMTP server's hook must run before the app's, this one after
    beforeAll(async () => {
      org = await t.given.organisation('Alerting Ltd')
      other = await t.given.organisation('Elsewhere Inc')
      const tenant = await t.given.tenant(org)
      viewerKey = (await t.given.key(org, [{ tenancyId: tenant.id, role: 'Admin' }], { name: 'tenancy admin' })).apiKey
      auditOf = auditLogOf(t, org)
    })

    const create = (body: unknown, key = org.ownerKey) => t.request('POST', `${API}/notification-channels`, key, body)
    async function created(body: Record<string, unknown>): Promise<ChannelRecord & { secret?: string }> {
      const res = await create(body)
      expect(res.statusCode, res.body).toBe(201)
      expect(res.headers.location).toBe(`${API}/notification-channels/${res.json().id}`)
      return res.json()
    }
    const get = (id: string, key = org.ownerKey) => t.request('GET', `${API}/notification-channels/${id}`, key)
    const patch = (id: string, body: unknown, key = org.ownerKey) =>
      t.request('PATCH', `${API}/notification-channels/${id}`, key, body)
    const rotate = (id: string, key = org.ownerKey) =>
      t.request('POST', `${API}/notification-channels/${id}/rotate-secret`, key)
    const rowOf = (id: string) =>
      t.db.kysely.selectFrom('notificationChannels').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    const channelCount = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('notificationChannels')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    /** The text of every audit entry of channels. */
    const channelAudit = async () =>
      JSON.stringify(
        await Promise.all(
          ['created', 'updated', 'deleted', 'secretRotated', 'disabled'].map((a) =>
            auditOf(`notificationChannel.${a}`),
          ),
        ),
      )

    it('creates each type of channel: a Webhook answers its secret once, the others none', async () => {
      const webhook = await created({ name: 'On-call', type: 'Webhook', url: WEBHOOK_URL })
      secretsSeen.push(expectWebhookSecret(webhook.secret))
      expect(webhook).toMatchObject({
        name: 'On-call',
        type: 'Webhook',
        enabled: true,
        disabledReason: null,
        hasSecret: true,
        urlHost: 'hooks.example.com',
        emails: null,
        userIds: null,
        previousSecretUntil: null,
        createdAt: NOW,
        updatedAt: NOW,
      })
      expect(webhook).not.toHaveProperty('url')

      const slack = await created({ name: '#finops', type: 'Slack', url: SLACK_URL })
      expect(slack).toMatchObject({ type: 'Slack', hasSecret: false, urlHost: 'hooks.slack.com', emails: null })
      expect(slack).not.toHaveProperty('secret')
      const teams = await created({ name: 'FinOps (Teams)', type: 'Teams', url: TEAMS_URL })
      expect(teams).toMatchObject({ type: 'Teams', hasSecret: false, urlHost: 'prod-01.westeurope.logic.azure.com' })
      expect(teams).not.toHaveProperty('secret')

      const member = await activeMember(t, org, 'member@alerting.test')
      const email = await created({
        name: 'FinOps',
        type: 'Email',
        emails: ['a@example.com', 'A@example.com', 'b@example.com'],
        userIds: [member.id],
      })
      expect(email).toMatchObject({
        type: 'Email',
        hasSecret: false,
        urlHost: null,
        emails: ['a@example.com', 'b@example.com'],
        userIds: [member.id],
      })
      expect(email).not.toHaveProperty('secret')
      const emailOnlyUsers = await created({ name: 'Owners', type: 'Email', userIds: [org.ownerId] })
      expect(emailOnlyUsers).toMatchObject({ emails: [], userIds: [org.ownerId] })

      const audit = await auditOf('notificationChannel.created')
      expect(audit.map((a) => (a.target as { id: string }).id)).toEqual(
        expect.arrayContaining([webhook.id, slack.id, teams.id, email.id]),
      )
      expect(audit.find((a) => (a.target as { id: string }).id === webhook.id)).toMatchObject({
        target: { type: 'NotificationChannel', id: webhook.id },
        detail: { name: 'On-call', type: 'Webhook', urlHost: 'hooks.example.com' },
      })
    })

    it('never shows a URL or a secret again: not in GET, the list, a PATCH answer, the audit log, the logs or the row', async () => {
      const webhook = await created({ name: 'Sealed', type: 'Webhook', url: `${WEBHOOK_URL}/sealed` })
      const secret = expectWebhookSecret(webhook.secret)
      secretsSeen.push(secret)
      const answers = [
        await get(webhook.id),
        await t.request('GET', `${API}/notification-channels?pageSize=200`, org.ownerKey),
        await patch(webhook.id, { name: 'Sealed (renamed)', url: `${WEBHOOK_URL}/sealed2` }),
      ]
      for (const res of answers) {
        expect(res.statusCode, res.body).toBe(200)
        for (const s of secretsSeen) expect(res.body).not.toContain(s)
        expect(res.body).not.toContain('webhook-path-secret')
        expect(res.body).not.toContain('whsec_')
      }
      expect(answers[0]!.json()).toMatchObject({ hasSecret: true, urlHost: 'hooks.example.com' })

      const row = await rowOf(webhook.id)
      expect(row.urlSealed).toMatch(/^v2:/)
      expect(row.secretSealed).toMatch(/^v2:/)
      expect(JSON.stringify(row)).not.toContain('webhook-path-secret')
      expect(JSON.stringify(row)).not.toContain(secret.slice('whsec_'.length))
      // Bound to its row and purpose: the URL's sealed value does not open as another channel's, nor as a secret.
      const box = t.services.secrets
      expect(box.open(row.urlSealed!, `notificationChannel:${webhook.id}:url`)).toBe(`${WEBHOOK_URL}/sealed2`)
      expect(() => box.open(row.urlSealed!, `notificationChannel:${webhook.id}:secret`)).toThrow()
      expect(() => box.open(row.secretSealed!, `notificationChannel:${randomUUID()}:secret`)).toThrow()

      const audit = await channelAudit()
      expect(audit).toContain('Sealed (renamed)')
      expect(audit).toContain('"changed":"name, url"')
      const logs = t.logs.join('')
      for (const s of [...secretsSeen, 'webhook-path-secret']) {
        expect(audit).not.toContain(s)
        expect(logs).not.toContain(s)
      }
    })

    it('lists channels by name then id, paged with Link headers', async () => {
      const lister = await t.given.organisation('Lister')
      const make = (name: string) =>
        create({ name, type: 'Slack', url: `${SLACK_URL}/${name}` }, lister.ownerKey).then((r) => {
          expect(r.statusCode, r.body).toBe(201)
          return r.json() as ChannelRecord
        })
      const made = [await make('charlie'), await make('alpha'), await make('bravo'), await make('alpha')]
      const expected = [...made].sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1))
      const first = await t.request('GET', `${API}/notification-channels?pageSize=3`, lister.ownerKey)
      expect(first.statusCode, first.body).toBe(200)
      expect(first.json()).toMatchObject({ page: 1, pageSize: 3, totalCount: 4, totalPages: 2 })
      expect(first.headers.link).toContain('rel="next"')
      const second = await t.request('GET', `${API}/notification-channels?pageSize=3&page=2`, lister.ownerKey)
      const ids = [...first.json().items, ...second.json().items].map((c: ChannelRecord) => c.id)
      expect(ids).toEqual(expected.map((c) => c.id))
      // Another organisation's list holds none of them.
      const others = (await t.request('GET', `${API}/notification-channels?pageSize=200`, org.ownerKey)).json()
      expect(others.items.map((c: ChannelRecord) => c.id)).not.toContain(made[0]!.id)
    })

    it('refuses every bad channel with a 400 naming the field, and saves nothing', async () => {
      const stranger = (await t.given.organisation('Strangers')).ownerId
      const cases: [string, Record<string, unknown>, string, RegExp?][] = [
        ['Slack without a url', { name: 'x', type: 'Slack' }, 'url', /required/],
        ['Teams without a url', { name: 'x', type: 'Teams' }, 'url', /required/],
        ['Webhook without a url', { name: 'x', type: 'Webhook' }, 'url', /required/],
        ['Slack with addresses', { name: 'x', type: 'Slack', url: SLACK_URL, emails: ['a@example.com'] }, 'emails'],
        ['Webhook with users', { name: 'x', type: 'Webhook', url: WEBHOOK_URL, userIds: [org.ownerId] }, 'userIds'],
        ['Email with a url', { name: 'x', type: 'Email', url: WEBHOOK_URL, emails: ['a@example.com'] }, 'url'],
        ['Email without recipients', { name: 'x', type: 'Email' }, 'emails', /at least one recipient/],
        ['Email with empty lists', { name: 'x', type: 'Email', emails: [], userIds: [] }, 'emails'],
        ['Email with another organisation’s user', { name: 'x', type: 'Email', userIds: [stranger] }, 'userIds'],
        ['Email with an unknown user', { name: 'x', type: 'Email', userIds: [randomUUID()] }, 'userIds'],
        ['Email with a bad address', { name: 'x', type: 'Email', emails: ['not an address'] }, 'emails.0'],
        ['a blank name', { name: '   ', type: 'Slack', url: SLACK_URL }, 'name'],
        ['an unknown type', { name: 'x', type: 'Pager', url: SLACK_URL }, 'type'],
        ['not a URL', { name: 'x', type: 'Webhook', url: 'hooks.example.com/x' }, 'url', /absolute URL/],
        ['http', { name: 'x', type: 'Webhook', url: 'http://hooks.example.com/x' }, 'url', /https/],
        ['loopback', { name: 'x', type: 'Webhook', url: 'https://127.0.0.1/x' }, 'url'],
        ['cloud metadata', { name: 'x', type: 'Slack', url: 'https://169.254.169.254/latest/meta-data' }, 'url'],
        ['private', { name: 'x', type: 'Teams', url: 'https://10.0.0.5/workflows' }, 'url'],
        ['IPv6 loopback', { name: 'x', type: 'Webhook', url: 'https://[::1]/x' }, 'url'],
        ['credentials in the URL', { name: 'x', type: 'Webhook', url: 'https://user:pass@hooks.example.com/x' }, 'url'],
        [
          'a retired Office 365 connector',
          { name: 'x', type: 'Teams', url: 'https://contoso.webhook.office.com/webhookb2/abc@def/IncomingWebhook/1/2' },
          'url',
          /Workflows/,
        ],
      ]
      const before = await channelCount()
      for (const [what, body, field, message] of cases) {
        const problem = expectProblem(await create(body), 400)
        expect(Object.keys(problem.errors ?? {}), `${what}: ${JSON.stringify(problem)}`).toContain(field)
        if (message) expect(problem.errors[field].join(' '), what).toMatch(message)
        // A refusal never repeats the URL's path or query.
        expect(JSON.stringify(problem), what).not.toContain('/x')
        expect(JSON.stringify(problem), what).not.toContain('user:pass')
      }
      expect(await channelCount()).toBe(before)
      expect((await auditOf('notificationChannel.created')).every((a) => (a.detail as { name: string }).name !== 'x'))
    })

    it('changes a channel: a bad PATCH changes nothing, a good one is audited with what changed', async () => {
      const webhook = await created({ name: 'Patchable', type: 'Webhook', url: WEBHOOK_URL })
      const email = await created({ name: 'Mail', type: 'Email', emails: ['ops@example.com'] })
      const secretBefore = (await t.services.channelDirectory.target(webhook.id))!.secrets
      const bad: [string, string, Record<string, unknown>, string][] = [
        ['a url on Email', email.id, { url: WEBHOOK_URL }, 'url'],
        ['addresses on a Webhook', webhook.id, { emails: ['a@example.com'] }, 'emails'],
        ['http', webhook.id, { name: 'Renamed', url: 'http://hooks.example.com/x' }, 'url'],
        ['metadata', webhook.id, { url: 'https://169.254.169.254/x' }, 'url'],
        ['a blank name', webhook.id, { name: ' ', enabled: false }, 'name'],
        ['no recipients left', email.id, { emails: [] }, 'emails'],
        ['an unknown user', email.id, { userIds: [randomUUID()] }, 'userIds'],
        ['an unknown field', webhook.id, { type: 'Slack' }, 'type'],
      ]
      for (const [what, id, body, field] of bad) {
        const before = await rowOf(id)
        const problem = expectProblem(await patch(id, body), 400)
        expect(JSON.stringify(problem.errors ?? problem), what).toContain(field)
        expect(await rowOf(id), what).toEqual(before)
      }

      t.clock.advance(60_000)
      const changed = await patch(webhook.id, { name: 'Patched', url: 'https://other.example.com/hook' })
      expect(changed.statusCode, changed.body).toBe(200)
      expect(changed.json()).toMatchObject({ name: 'Patched', urlHost: 'other.example.com', hasSecret: true })
      expect(changed.json().updatedAt).toBe(new Date(Date.parse(NOW) + 60_000).toISOString())
      const target = (await t.services.channelDirectory.target(webhook.id))!
      expect(target.url).toBe('https://other.example.com/hook')
      expect(target.secrets).toEqual(secretBefore)

      const mail = await patch(email.id, { emails: ['new@example.com'], userIds: [org.ownerId] })
      expect(mail.json()).toMatchObject({ emails: ['new@example.com'], userIds: [org.ownerId] })

      const entries = (await auditOf('notificationChannel.updated')).filter(
        (a) => (a.target as { id: string }).id === webhook.id || (a.target as { id: string }).id === email.id,
      )
      expect(entries.map((e) => e.detail)).toEqual(
        expect.arrayContaining([
          { name: 'Patched', changed: 'name, url' },
          { name: 'Mail', changed: 'emails, userIds' },
        ]),
      )
      t.clock.set(NOW)
    })

    it('rotates a Webhook secret: the old one signs beside the new for 24 hours, then only the new', async () => {
      const webhook = await created({ name: 'Rotating', type: 'Webhook', url: WEBHOOK_URL })
      const first = expectWebhookSecret(webhook.secret)
      expect((await t.services.channelDirectory.target(webhook.id))!.secrets).toEqual([first])
      try {
        t.clock.advance(3_600_000)
        const res = await rotate(webhook.id)
        expect(res.statusCode, res.body).toBe(200)
        const second = expectWebhookSecret(res.json().secret)
        secretsSeen.push(first, second)
        expect(second).not.toBe(first)
        const until = new Date(t.clock.now().getTime() + DAY_MS).toISOString()
        expect(res.json()).toEqual({ secret: second, previousSecretUntil: until })
        expect((await get(webhook.id)).json()).toMatchObject({ hasSecret: true, previousSecretUntil: until })
        expect((await t.services.channelDirectory.target(webhook.id))!.secrets).toEqual([second, first])
        const row = await rowOf(webhook.id)
        expect(row.previousSecretSealed).toMatch(/^v2:/)
        expect(JSON.stringify(row)).not.toContain(first.slice(6))
        expect(JSON.stringify(row)).not.toContain(second.slice(6))

        t.clock.advance(DAY_MS - 1)
        expect((await t.services.channelDirectory.target(webhook.id))!.secrets).toEqual([second, first])
        t.clock.advance(1)
        expect((await t.services.channelDirectory.target(webhook.id))!.secrets).toEqual([second])
        expect((await get(webhook.id)).json().previousSecretUntil).toBeNull()
      } finally {
        t.clock.set(NOW)
      }
      // Read at the suite's own time: the owner's session of the audit log does not last a day.
      const audit = await auditOf('notificationChannel.secretRotated')
      expect(audit[0]).toMatchObject({
        target: { type: 'NotificationChannel', id: webhook.id },
        detail: { name: 'Rotating', previousSecretUntil: new Date(Date.parse(NOW) + 3_600_000 + DAY_MS).toISOString() },
      })
      const text = await channelAudit()
      for (const s of secretsSeen) expect(text).not.toContain(s)
      for (const s of secretsSeen) expect(t.logs.join('')).not.toContain(s)

      const slack = await created({ name: 'No secret', type: 'Slack', url: SLACK_URL })
      const refused = expectProblem(await rotate(slack.id), 409)
      expect(refused.detail).toMatch(/only Webhook channels have a signing secret/)
      expect((await rowOf(slack.id)).secretSealed).toBeNull()
    })

    it('deletes a channel with its deliveries', async () => {
      const webhook = await created({ name: 'Doomed', type: 'Webhook', url: WEBHOOK_URL })
      await t.db.kysely
        .insertInto('notificationDeliveries')
        .values({
          id: randomUUID(),
          tenantId: null,
          status: 'Succeeded',
          requestedAt: NOW,
          attempts: 1,
          organisationId: org.organisationId,
          channelId: webhook.id,
          ruleId: null,
          eventType: 'test',
          eventKey: `test:${randomUUID()}`,
          webhookId: `msg_${randomUUID()}`,
          payload: '{}',
        })
        .execute()
      const res = await t.request('DELETE', `${API}/notification-channels/${webhook.id}`, org.ownerKey)
      expect(res.statusCode, res.body).toBe(204)
      expectProblem(await get(webhook.id), 404)
      const left = await t.db.kysely
        .selectFrom('notificationDeliveries')
        .select('id')
        .where('channelId', '=', webhook.id)
        .execute()
      expect(left).toEqual([])
      expect(await t.services.channelDirectory.target(webhook.id)).toBeNull()
      expect((await auditOf('notificationChannel.deleted'))[0]).toMatchObject({
        target: { id: webhook.id },
        detail: { name: 'Doomed', type: 'Webhook' },
      })
      expectProblem(await t.request('DELETE', `${API}/notification-channels/${webhook.id}`, org.ownerKey), 404)
    })

    it('is for owners: a tenancy Admin lists channels to choose for rules and changes none; others get 403', async () => {
      const channel = await created({ name: 'Owners only', type: 'Webhook', url: WEBHOOK_URL })
      const member = await activeMember(t, org, 'not-an-owner@alerting.test')
      const browser = await signIn(t, member.email)
      const changes: [string, string, unknown?][] = [
        ['POST', '/notification-channels', { name: 'x', type: 'Slack', url: SLACK_URL }],
        ['GET', `/notification-channels/${channel.id}`],
        ['PATCH', `/notification-channels/${channel.id}`, { name: 'y' }],
        ['DELETE', `/notification-channels/${channel.id}`],
        ['POST', `/notification-channels/${channel.id}/rotate-secret`],
      ]
      for (const [method, path, body] of changes) {
        expectProblem(await t.request(method as 'GET', `${API}${path}`, viewerKey, body), 403)
        expectProblem(await asBrowser(t, browser, method as 'GET', `/api/app${path}`, body), 403)
      }
      // The Admin's list names the channels, as an owner's does, and holds no URL.
      const listed = await t.request('GET', `${API}/notification-channels`, viewerKey)
      expect(listed.statusCode, listed.body).toBe(200)
      expect(listed.json().items.map((c: ChannelRecord) => c.name)).toContain('Owners only')
      expect(listed.body).not.toContain(new URL(WEBHOOK_URL).pathname)
      // A member with no Admin role anywhere lists none.
      const refused = expectProblem(await asBrowser(t, browser, 'GET', '/api/app/notification-channels'), 403)
      expect(refused.detail).toBe('Listing channels needs the owner role, or the Admin role on a tenancy.')
      expect(await rowOf(channel.id)).toMatchObject({ name: 'Owners only', enabled: 1 })
      // The web interface's API serves an owner like the public one.
      const owner = await signIn(t, (await activeMember(t, org, 'owner2@alerting.test', { owner: true })).email)
      const seen = await asBrowser(t, owner, 'GET', `/api/app/notification-channels/${channel.id}`)
      expect(seen.statusCode, seen.body).toBe(200)
    })

    it("answers another organisation's channel as an unknown one: 404", async () => {
      const channel = await created({ name: 'Ours', type: 'Webhook', url: WEBHOOK_URL })
      for (const id of [channel.id, randomUUID()]) {
        for (const [method, path, body] of [
          ['GET', `/notification-channels/${id}`],
          ['PATCH', `/notification-channels/${id}`, { name: 'Theirs' }],
          ['DELETE', `/notification-channels/${id}`],
          ['POST', `/notification-channels/${id}/rotate-secret`],
        ] as const) {
          const problem = expectProblem(await t.request(method, `${API}${path}`, other.ownerKey, body), 404)
          expect(problem.detail).toBe(`Notification channel ${id} was not found.`)
        }
      }
      expect(await rowOf(channel.id)).toMatchObject({ name: 'Ours', organisationId: org.organisationId })
    })

    it('gives deliveries an e-mail channel’s recipients: its addresses and its users’, disabled users left out', async () => {
      const kept = await activeMember(t, org, 'kept@alerting.test')
      const gone = await activeMember(t, org, 'gone@alerting.test')
      const channel = await created({
        name: 'Recipients',
        type: 'Email',
        emails: ['list@example.com', 'KEPT@alerting.test'],
        userIds: [kept.id, gone.id],
      })
      const off = await t.request('PATCH', `${API}/users/${gone.id}`, org.ownerKey, { isDisabled: true })
      expect(off.statusCode, off.body).toBe(200)
      expect(await t.services.channelDirectory.target(channel.id)).toEqual({
        id: channel.id,
        organisationId: org.organisationId,
        name: 'Recipients',
        type: 'Email',
        enabled: true,
        url: null,
        secrets: [],
        emails: ['list@example.com', 'KEPT@alerting.test'],
      })
      const slack = await created({ name: 'Slack target', type: 'Slack', url: SLACK_URL })
      expect(await t.services.channelDirectory.target(slack.id)).toMatchObject({
        type: 'Slack',
        url: SLACK_URL,
        secrets: [],
        emails: [],
      })
      expect(await t.services.channelDirectory.target(randomUUID())).toBeNull()
    })

    it('disable() turns a channel off with its reason, audits it and e-mails the owners; enabling clears the reason', async () => {
      const owner2 = await activeMember(t, org, 'second-owner@alerting.test', { owner: true })
      const member = await activeMember(t, org, 'just-a-member@alerting.test')
      const channel = await created({ name: 'Archived', type: 'Slack', url: SLACK_URL })
      const reason = 'Slack answered 410 Gone: the channel was archived or the app removed.'
      await t.services.channelDirectory.disable(channel.id, reason)
      expect((await get(channel.id)).json()).toMatchObject({ enabled: false, disabledReason: reason })
      expect((await t.services.channelDirectory.target(channel.id))!.enabled).toBe(false)
      // Only once: a second disable does nothing.
      await t.services.channelDirectory.disable(channel.id, 'another reason')
      expect((await get(channel.id)).json().disabledReason).toBe(reason)
      const audit = (await auditOf('notificationChannel.disabled')).filter(
        (a) => (a.target as { id: string }).id === channel.id,
      )
      expect(audit).toHaveLength(1)
      expect(audit[0]).toMatchObject({
        actor: { type: 'System', id: null, name: 'notification delivery' },
        detail: { name: 'Archived', reason },
      })

      const worker = t.worker()
      while (await worker.runOnce()) {}
      const subject = 'Costwatch: notification channel "Archived" was disabled'
      const mails = smtp.received.filter((m) => decodeSubject(m.headers.subject ?? '') === subject)
      const users = (await t.request('GET', `${API}/users?pageSize=200`, org.ownerKey)).json().items as {
        email: string
        isOwner: boolean
        status: string
      }[]
      const owners = users.filter((u) => u.isOwner && u.status === 'Active').map((u) => u.email.toLowerCase())
      expect(owners.length).toBeGreaterThanOrEqual(2)
      expect(mails.flatMap((m) => m.to).sort()).toEqual(owners.sort())
      const recipients = mails.flatMap((m) => m.to)
      expect(recipients).toContain(org.owner.actor.name!.toLowerCase())
      expect(recipients).toContain(owner2.email)
      expect(recipients).not.toContain(member.email)
      for (const m of mails) {
        expect(m.text).toContain('Slack notification channel "Archived" of Alerting Ltd')
        expect(m.text).toContain(reason)
        expect(m.text).toContain(`${PUBLIC_URL}/settings/notifications`)
        expect(m.text).not.toContain('slacksecretpart0001')
      }

      const enabled = await patch(channel.id, { enabled: true })
      expect(enabled.statusCode, enabled.body).toBe(200)
      expect(enabled.json()).toMatchObject({ enabled: true, disabledReason: null })
      const updates = (await auditOf('notificationChannel.updated')).filter(
        (a) => (a.target as { id: string }).id === channel.id,
      )
      expect(updates.map((a) => a.detail)).toEqual([{ name: 'Archived', changed: 'enabled', enabled: true }])
      const byHand = await patch(channel.id, { enabled: false })
      expect(byHand.json()).toMatchObject({ enabled: false, disabledReason: null })
      // disable() of an unknown channel does nothing.
      await t.services.channelDirectory.disable(randomUUID(), reason)
    })

    // Last: it moves every sealed value to another key, which the app's own services do not hold.
    it('`secrets reseal` walks the channels’ sealed columns with the purposes they were sealed for', async () => {
      const webhook = await created({ name: 'Resealed', type: 'Webhook', url: WEBHOOK_URL })
      expect((await rotate(webhook.id)).statusCode).toBe(200)
      const newBox = createSecretBox(Buffer.alloc(32, 9), [Buffer.from(TEST_SECRET_KEY, 'base64')])
      const columns = [CHANNEL_URL, CHANNEL_SECRET, CHANNEL_PREVIOUS_SECRET]
      const outcome = await resealAll(t.db, newBox, columns, () => {})
      expect(outcome.failed).toEqual([])
      const rows = await t.db.kysely.selectFrom('notificationChannels').selectAll().execute()
      const sealed = rows.flatMap((r) =>
        columns.flatMap((c) => {
          const value = r[c.column as 'urlSealed' | 'secretSealed' | 'previousSecretSealed']
          return value === null ? [] : [{ value, purpose: c.purpose(r.id) }]
        }),
      )
      expect(outcome.resealed).toBe(sealed.length)
      expect(sealed.length).toBeGreaterThan(rows.length)
      for (const { value, purpose } of sealed) {
        expect(newBox.isCurrent(value)).toBe(true)
        expect(newBox.open(value, purpose)).toMatch(/^(https?:\/\/|whsec_)/)
      }
    })
  })

  describe(`${dialect}: notification channels within COSTWATCH_OUTBOUND_ALLOW`, () => {
    // An operator's internal network: reachable, http included; 127.0.0.1 stays refused.
    const t = useTestApp({ dialect, now: NOW, env: { COSTWATCH_OUTBOUND_ALLOW: '127.0.0.2/32' } })

    it('accepts an address of the allow-list, http included, and still refuses the others', async () => {
      const org = await t.given.organisation('Internal')
      const res = await t.request('POST', `${API}/notification-channels`, org.ownerKey, {
        name: 'Internal chat',
        type: 'Slack',
        url: 'http://127.0.0.2:8065/hooks/abc',
      })
      expect(res.statusCode, res.body).toBe(201)
      expect(res.json()).toMatchObject({ urlHost: '127.0.0.2:8065', enabled: true })
      for (const url of ['http://127.0.0.1:8065/hooks/abc', 'https://169.254.169.254/x', 'https://10.0.0.1/x']) {
        const refused = await t.request('PATCH', `${API}/notification-channels/${res.json().id}`, org.ownerKey, { url })
        expect(expectProblem(refused, 400).errors.url, url).toHaveLength(1)
      }
      expect((await t.services.channelDirectory.target(res.json().id))!.url).toBe('http://127.0.0.2:8065/hooks/abc')
    })
  })
}
