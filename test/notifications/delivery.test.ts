import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { NotificationEvent } from '../../src/features/notifications/public.js'
import { NOTIFICATION_MAX_ATTEMPTS } from '../../src/features/notifications/run.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { createTestSmtpServer } from '../support/smtp.js'
import { until } from '../support/worker.js'

const API = '/api/public/v1'
const NOW = '2026-03-01T09:00:00.000Z'

interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
  at: number
}
interface Answer {
  status: number
  body?: string
  headers?: Record<string, string>
  delayMs?: number
}

/** A local HTTP receiver: each path answers what the test set for it (200 by default) and keeps what it got. */
function createReceiver() {
  const received: Received[] = []
  const answers = new Map<string, Answer[]>()
  let server: Server | null = null
  let port = 0
  return {
    received,
    of: (path: string) => received.filter((r) => r.path === path),
    /** The next answers of `path`, in order; the last one repeats. */
    answer(path: string, ...next: Answer[]) {
      answers.set(path, next)
    },
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    async start() {
      server = createServer((req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (c: Buffer) => chunks.push(c))
        req.on('end', () => {
          const path = req.url ?? '/'
          received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() })
          const queue = answers.get(path) ?? []
          const answer = (queue.length > 1 ? queue.shift() : queue[0]) ?? { status: 200, body: 'ok' }
          setTimeout(() => {
            res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers })
            res.end(answer.body ?? '')
          }, answer.delayMs ?? 0)
        })
      })
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
      port = (server.address() as AddressInfo).port
    },
    async stop() {
      server?.closeAllConnections()
      await new Promise<void>((resolve) => server?.close(() => resolve()))
    },
  }
}

/** Standard Webhooks' own check, as of the app's clock (the package compares the timestamp with the time now). */
function verify(secret: string, request: Received, at: Date): unknown {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(at)
  try {
    return new Webhook(secret).verify(request.body, request.headers as Record<string, string>)
  } finally {
    vi.useRealTimers()
  }
}

for (const dialect of testDialects()) {
  describe(`${dialect}: notification deliveries`, () => {
    const receiver = createReceiver()
    const smtp = createTestSmtpServer()
    const env: Record<string, string> = {
      COSTWATCH_PUBLIC_URL: 'https://costs.example.test',
      COSTWATCH_OUTBOUND_ALLOW: '127.0.0.1/32',
      COSTWATCH_SNAPSHOT_HOUR: '23',
      COSTWATCH_METRICS_TOKEN: 'metrics-token-of-the-delivery-test',
    }
    beforeAll(async () => {
      await receiver.start()
      await smtp.start()
      env.COSTWATCH_SMTP_URL = smtp.url
    })
    afterAll(async () => {
      await receiver.stop()
      await smtp.stop()
    })
    const t = useTestApp({ dialect, now: NOW, env })
    let org: OrgContext
    // biome-ignore lint/suspicious/noDuplicateTestHooks: the receivers' hook must run before the app's, this one after
    beforeAll(async () => {
      org = await t.given.organisation('Umbrella')
    })

    let channelCount = 0
    async function channel(type: 'Webhook' | 'Slack' | 'Teams', path: string) {
      const res = await t.request('POST', `${API}/notification-channels`, org.ownerKey, {
        name: `${type} ${++channelCount}`,
        type,
        url: receiver.url(path),
      })
      expect(res.statusCode, res.body).toBe(201)
      return res.json() as { id: string; name: string; secret?: string }
    }
    const test = async (channelId: string) => {
      const res = await t.request('POST', `${API}/notification-channels/${channelId}/test`, org.ownerKey)
      expect(res.statusCode, res.body).toBe(202)
      return res.json().deliveryId as string
    }
    const log = async (channelId: string) => {
      const res = await t.request('GET', `${API}/notification-channels/${channelId}/deliveries`, org.ownerKey)
      expect(res.statusCode, res.body).toBe(200)
      return res.json().items as Record<string, unknown>[]
    }
    const delivery = async (channelId: string, id: string) => (await log(channelId)).find((d) => d.id === id)!
    const channelOf = async (id: string) =>
      (await t.request('GET', `${API}/notification-channels/${id}`, org.ownerKey)).json()
    /** Everything the worker has to do now (deliveries, then the mail they queued). */
    const drain = async () => {
      const worker = t.worker()
      while (await worker.runOnce()) {}
    }

    it('a webhook test is signed per Standard Webhooks: the package verifies it, and the log shows it delivered', async () => {
      const hook = await channel('Webhook', '/hook/a')
      const id = await test(hook.id)
      await drain()
      const [request] = receiver.of('/hook/a')
      expect(request).toBeDefined()
      expect(request!.headers['content-type']).toBe('application/json')
      expect(request!.headers['webhook-timestamp']).toBe(String(Date.parse(NOW) / 1000))
      expect(request!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
      const body = verify(hook.secret!, request!, t.clock.now()) as { type: string; timestamp: string; data: object }
      expect(body).toEqual({
        type: 'test',
        timestamp: NOW,
        data: {
          channelId: hook.id,
          channelName: hook.name,
          organisationId: org.organisationId,
          organisationName: 'Umbrella',
          url: 'https://costs.example.test/settings/notifications',
        },
      })
      expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, request!, t.clock.now())).toThrow()
      const record = await delivery(hook.id, id)
      expect(record).toMatchObject({
        id,
        eventType: 'test',
        webhookId: request!.headers['webhook-id'],
        status: 'Succeeded',
        attempts: 1,
        lastStatusCode: 200,
        lastError: null,
        nextAttemptAt: null,
        createdAt: NOW,
      })
      expect(record.webhookId).toMatch(/^msg_[0-9a-f]{32}$/)
      expect(typeof record.latencyMs).toBe('number')
    })

    it('after a rotation two signatures are sent, and each secret verifies the message', async () => {
      const hook = await channel('Webhook', '/hook/rotated')
      const rotated = await t.request('POST', `${API}/notification-channels/${hook.id}/rotate-secret`, org.ownerKey)
      expect(rotated.statusCode).toBe(200)
      await test(hook.id)
      await drain()
      const [request] = receiver.of('/hook/rotated')
      expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2)
      expect(verify(hook.secret!, request!, t.clock.now())).toMatchObject({ type: 'test' })
      expect(verify(rotated.json().secret, request!, t.clock.now())).toMatchObject({ type: 'test' })
    })

    it('a failing webhook is retried with the same webhook-id, no sooner than its Retry-After, then succeeds', async () => {
      const hook = await channel('Webhook', '/hook/flaky')
      receiver.answer(
        '/hook/flaky',
        { status: 503, body: 'try later', headers: { 'retry-after': '60' } },
        { status: 204 },
      )
      const id = await test(hook.id)
      await drain()
      expect(await delivery(hook.id, id)).toMatchObject({
        status: 'Pending',
        attempts: 1,
        lastStatusCode: 503,
        lastError: 'HTTP 503: try later',
        nextAttemptAt: '2026-03-01T09:01:00.000Z', // the schedule's 5 s, lengthened by Retry-After
      })
      t.clock.advance(59_000)
      await drain()
      expect(receiver.of('/hook/flaky')).toHaveLength(1)
      t.clock.advance(1_000)
      await drain()
      const [first, second] = receiver.of('/hook/flaky')
      expect(second).toBeDefined()
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id'])
      expect(Number(second!.headers['webhook-timestamp'])).toBe(Number(first!.headers['webhook-timestamp']) + 60)
      expect(verify(hook.secret!, second!, t.clock.now())).toMatchObject({ type: 'test' })
      expect(await delivery(hook.id, id)).toMatchObject({
        status: 'Succeeded',
        attempts: 2,
        lastStatusCode: 204,
        lastError: null,
        webhookId: first!.headers['webhook-id'],
      })
      t.clock.set(NOW)
    })

    it('the schedule is Standard Webhooks with jitter; failing through all of it fails the delivery and disables the channel', async () => {
      const hook = await channel('Webhook', '/hook/down')
      receiver.answer('/hook/down', { status: 500, body: 'down' })
      const mailsBefore = smtp.received.length
      const id = await test(hook.id)
      const delays = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000]
      for (const delay of delays) {
        await drain()
        const pending = await delivery(hook.id, id)
        expect(pending.status).toBe('Pending')
        const wait = Date.parse(pending.nextAttemptAt as string) - t.clock.now().getTime()
        expect(wait).toBeGreaterThanOrEqual(delay * 0.9)
        expect(wait).toBeLessThanOrEqual(delay * 1.1)
        t.clock.advance(wait)
      }
      await drain()
      expect(receiver.of('/hook/down')).toHaveLength(NOTIFICATION_MAX_ATTEMPTS)
      expect(await delivery(hook.id, id)).toMatchObject({ status: 'Failed', attempts: 10, lastStatusCode: 500 })
      const disabled = await channelOf(hook.id)
      expect(disabled.enabled).toBe(false)
      expect(disabled.disabledReason).toContain('HTTP 500')
      await until('the owners to be e-mailed', async () => smtp.received.length > mailsBefore)
      t.clock.set(NOW)
    })

    it('a 3xx is a failure and is not followed', async () => {
      const hook = await channel('Webhook', '/hook/moved')
      receiver.answer('/hook/moved', { status: 302, headers: { location: receiver.url('/hook/elsewhere') } })
      const id = await test(hook.id)
      await drain()
      expect(receiver.of('/hook/elsewhere')).toHaveLength(0)
      expect(await delivery(hook.id, id)).toMatchObject({
        status: 'Pending',
        lastStatusCode: 302,
        lastError: 'HTTP 302: a redirect, not followed',
      })
    })

    it('Slack: blocks with a text fallback; 200 ok succeeds, 400 and 404 are retried, 410 disables the channel and e-mails the owners', async () => {
      const ok = await channel('Slack', '/slack/ok')
      receiver.answer('/slack/ok', { status: 200, body: 'ok' })
      const okId = await test(ok.id)
      const invalid = await channel('Slack', '/slack/invalid')
      receiver.answer('/slack/invalid', { status: 400, body: 'invalid_blocks' })
      const invalidId = await test(invalid.id)
      const missing = await channel('Slack', '/slack/missing')
      receiver.answer('/slack/missing', { status: 404, body: 'channel_not_found' })
      const missingId = await test(missing.id)
      const archived = await channel('Slack', '/slack/archived')
      receiver.answer('/slack/archived', { status: 410, body: 'channel_is_archived' })
      const archivedId = await test(archived.id)
      const mailsBefore = smtp.received.length
      await drain()

      const message = JSON.parse(receiver.of('/slack/ok')[0]!.body)
      expect(message.text).toContain(`Test message from Costwatch to ${ok.name}`)
      expect(message.blocks.map((b: { type: string }) => b.type)).toEqual([
        'header',
        'section',
        'section',
        'actions',
        'context',
      ])
      expect(message.blocks[3].elements[0]).toMatchObject({
        type: 'button',
        url: 'https://costs.example.test/settings/notifications',
      })
      expect(await delivery(ok.id, okId)).toMatchObject({ status: 'Succeeded', lastStatusCode: 200 })
      expect(await delivery(invalid.id, invalidId)).toMatchObject({
        status: 'Pending',
        lastStatusCode: 400,
        lastError: 'HTTP 400: invalid_blocks',
      })
      expect(await delivery(missing.id, missingId)).toMatchObject({
        status: 'Pending',
        lastError: 'HTTP 404: channel_not_found',
      })
      expect(await delivery(archived.id, archivedId)).toMatchObject({
        status: 'Failed',
        attempts: 1,
        lastStatusCode: 410,
        nextAttemptAt: null,
      })
      const gone = await channelOf(archived.id)
      expect(gone.enabled).toBe(false)
      expect(gone.disabledReason).toContain('channel_is_archived')
      await until('the owners to be e-mailed', async () => smtp.received.length > mailsBefore)
      expect(
        smtp.received
          .slice(mailsBefore)
          .map((m) => m.text)
          .join('\n'),
      ).toContain(archived.name)
      // A disabled channel's queued delivery fails without a request.
      const queued = await t.db.kysely.transaction().execute((tx) =>
        t.services.queueDeliveries(tx, [
          {
            organisationId: org.organisationId,
            channelIds: [ok.id, archived.id],
            ruleId: null,
            eventKey: 'rule:x:anomaly:y:1',
            tenancyId: null,
            event: { type: 'test', timestamp: NOW, data: {}, message: testMessage() },
          },
        ]),
      )
      expect(queued).toBe(1) // the archived channel is disabled already
      await t.request('PATCH', `${API}/notification-channels/${ok.id}`, org.ownerKey, { enabled: false })
      const requests = receiver.of('/slack/ok').length
      await drain()
      expect(receiver.of('/slack/ok')).toHaveLength(requests)
      const [failed] = await log(ok.id)
      expect(failed).toMatchObject({ status: 'Failed', lastError: 'channel disabled', attempts: 1 })
    })

    it('Teams: an Adaptive Card 1.4 in a message attachment; a 202 is Accepted', async () => {
      const teams = await channel('Teams', '/teams')
      receiver.answer('/teams', { status: 202 })
      const id = await test(teams.id)
      await drain()
      const message = JSON.parse(receiver.of('/teams')[0]!.body)
      expect(message.type).toBe('message')
      expect(message.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive')
      const card = message.attachments[0].content
      expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.4' })
      expect(card.body[0]).toMatchObject({ type: 'TextBlock', text: `Test message from Costwatch to ${teams.name}` })
      expect(card.body.some((b: { type: string }) => b.type === 'FactSet')).toBe(true)
      expect(card.actions[0]).toMatchObject({ type: 'Action.OpenUrl' })
      expect(await delivery(teams.id, id)).toMatchObject({ status: 'Accepted', lastStatusCode: 202 })
    })

    it('e-mail: one message per recipient through the outbox and SMTP, with the title as its subject', async () => {
      const res = await t.request('POST', `${API}/notification-channels`, org.ownerKey, {
        name: 'FinOps mail',
        type: 'Email',
        emails: ['a@finops.test', 'b@finops.test'],
      })
      expect(res.statusCode, res.body).toBe(201)
      const before = smtp.received.length
      const id = await test(res.json().id)
      await drain()
      expect(await delivery(res.json().id, id)).toMatchObject({ status: 'Succeeded', attempts: 1 })
      await until('two messages', async () => smtp.received.length >= before + 2)
      const mails = smtp.received.slice(before)
      expect(mails.flatMap((m) => m.to).sort()).toEqual(['a@finops.test', 'b@finops.test'])
      expect(mails[0]!.text).toContain('Umbrella')
      expect(mails[0]!.html).toContain('<h2>')
    })

    it('a redelivery is a new delivery with the same webhook-id and a fresh schedule; both stay in the log', async () => {
      const hook = await channel('Webhook', '/hook/again')
      const id = await test(hook.id)
      await drain()
      const res = await t.request(
        'POST',
        `${API}/notification-channels/${hook.id}/deliveries/${id}/redeliver`,
        org.ownerKey,
      )
      expect(res.statusCode, res.body).toBe(202)
      const again = res.json().deliveryId as string
      expect(again).not.toBe(id)
      await drain()
      const [first, second] = receiver.of('/hook/again')
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id'])
      expect(second!.body).toBe(first!.body)
      const items = await log(hook.id)
      expect(items.map((d) => d.id)).toEqual([again, id])
      expect(items.map((d) => d.status)).toEqual(['Succeeded', 'Succeeded'])
      const unknown = await t.request(
        'POST',
        `${API}/notification-channels/${hook.id}/deliveries/${crypto.randomUUID()}/redeliver`,
        org.ownerKey,
      )
      expect(unknown.statusCode).toBe(404)
      const other = await t.given.organisation('Other')
      expect(
        (await t.request('GET', `${API}/notification-channels/${hook.id}/deliveries`, other.ownerKey)).statusCode,
      ).toBe(404)
      expect((await t.request('POST', `${API}/notification-channels/${hook.id}/test`, other.ownerKey)).statusCode).toBe(
        404,
      )
    })

    it('queueDeliveries queues once per channel and event key, in the caller’s transaction', async () => {
      const hook = await channel('Webhook', '/hook/queued')
      const request = {
        organisationId: org.organisationId,
        channelIds: [hook.id],
        ruleId: null,
        eventKey: 'rule:r1:anomaly:a1:2',
        tenancyId: null,
        event: { type: 'anomaly.raised', timestamp: NOW, data: { anomalyId: 'a1' }, message: testMessage() },
      } satisfies { event: NotificationEvent } & Record<string, unknown>
      await expect(
        t.db.kysely.transaction().execute(async (tx) => {
          await t.services.queueDeliveries(tx, [request])
          throw new Error('rolled back')
        }),
      ).rejects.toThrow('rolled back')
      expect(await log(hook.id)).toHaveLength(0)
      expect(await t.db.kysely.transaction().execute((tx) => t.services.queueDeliveries(tx, [request]))).toBe(1)
      expect(await t.db.kysely.transaction().execute((tx) => t.services.queueDeliveries(tx, [request]))).toBe(0)
      const [queued] = await log(hook.id)
      expect(queued).toMatchObject({ eventType: 'anomaly.raised', status: 'Pending', attempts: 0 })
      await drain()
      expect(JSON.parse(receiver.of('/hook/queued')[0]!.body)).toEqual({
        type: 'anomaly.raised',
        timestamp: NOW,
        data: { anomalyId: 'a1' },
      })
    })

    it('a body over 20 KB keeps only the short fields of data, marked truncated, and is still signed', async () => {
      const hook = await channel('Webhook', '/hook/large')
      const event: NotificationEvent = {
        type: 'anomaly.raised',
        timestamp: NOW,
        data: {
          anomalyId: 'a2',
          severity: 'High',
          impact: 1204.5,
          url: 'https://costs.example.test/a/a2',
          notes: 'x'.repeat(30_000),
        },
        message: testMessage(),
      }
      const queued = await t.db.kysely.transaction().execute((tx) =>
        t.services.queueDeliveries(tx, [
          {
            organisationId: org.organisationId,
            channelIds: [hook.id],
            ruleId: null,
            eventKey: 'large',
            tenancyId: null,
            event,
          },
        ]),
      )
      expect(queued).toBe(1)
      await drain()
      const [request] = receiver.of('/hook/large')
      expect(Buffer.byteLength(request!.body)).toBeLessThan(20_000)
      expect(verify(hook.secret!, request!, t.clock.now())).toEqual({
        type: 'anomaly.raised',
        timestamp: NOW,
        data: {
          truncated: true,
          anomalyId: 'a2',
          severity: 'High',
          impact: 1204.5,
          url: 'https://costs.example.test/a/a2',
        },
      })
    })

    it('a delivery whose worker died is recovered once its lease expires, and sent with the same webhook-id', async () => {
      const hook = await channel('Webhook', '/hook/crash')
      const id = await test(hook.id)
      const claimed = await t.services.deliveryStore.runs.claim('dead-worker', 60_000)
      expect(claimed?.id).toBe(id)
      await drain()
      expect(receiver.of('/hook/crash')).toHaveLength(0)
      t.clock.advance(60_001)
      await drain()
      expect(receiver.of('/hook/crash')).toHaveLength(1)
      expect(await delivery(hook.id, id)).toMatchObject({ status: 'Succeeded', attempts: 2 })
      t.clock.set(NOW)
    })

    it('one slow receiver (2 s) does not hold back another channel’s deliveries', async () => {
      const slow = await channel('Webhook', '/hook/slow')
      receiver.answer('/hook/slow', { status: 200, delayMs: 2_000 })
      const fast = await channel('Webhook', '/hook/fast')
      for (let i = 0; i < 8; i++) await test(slow.id)
      const worker = t.worker()
      worker.start()
      try {
        await until('the slow receiver to be busy', async () => receiver.of('/hook/slow').length >= 1)
        const started = Date.now()
        for (let i = 0; i < 4; i++) await test(fast.id)
        await until('the fast deliveries', async () => receiver.of('/hook/fast').length === 4, 10_000)
        expect(Date.now() - started).toBeLessThan(1_500)
        // At most four of one channel at once: the slow one's other deliveries wait their turn. (The first four
        // are sent at once and answered after 2 s; the receiver counts requests as they arrive, and on a busy
        // machine the fourth may not have arrived yet: at most four, never the eight queued.)
        expect(receiver.of('/hook/slow').length).toBeLessThanOrEqual(4)
      } finally {
        await until('the slow deliveries', async () => receiver.of('/hook/slow').length === 8, 20_000)
        await worker.stop()
      }
    })

    it('deliveries are counted in the run metrics, with their queue depth', async () => {
      const res = await t.request('GET', '/metrics', null, undefined, {
        authorization: 'Bearer metrics-token-of-the-delivery-test',
      })
      expect(res.statusCode).toBe(200)
      const sample = (name: string) =>
        Number(new RegExp(`^${name.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(res.body)?.[1])
      expect(sample('costwatch_runs_total{kind="notification",status="succeeded"}')).toBeGreaterThan(10)
      expect(sample('costwatch_runs_total{kind="notification",status="requeued"}')).toBeGreaterThan(5)
      expect(sample('costwatch_run_lease_recoveries_total{kind="notification"}')).toBe(1)
      expect(sample('costwatch_run_queue_depth{kind="notification"}')).toBeGreaterThanOrEqual(1) // Slack's 400 and 404
    })

    it('no URL or secret appears in the delivery log, the answers or the log lines', async () => {
      const everything = [
        ...(await Promise.all(
          (
            await t.request('GET', `${API}/notification-channels?pageSize=200`, org.ownerKey)
          )
            .json()
            .items.map(async (c: { id: string }) => JSON.stringify(await log(c.id))),
        )),
        t.logs.join(''),
      ].join('\n')
      expect(everything).not.toContain('/hook/')
      expect(everything).not.toContain('/slack/')
      expect(everything).not.toContain('whsec_')
    })
  })
}

function testMessage() {
  return {
    title: 'Anomaly on Virtual Machines',
    summary: 'Spend rose.',
    facts: [{ label: 'Impact', value: '+US$100' }],
    sections: [{ heading: 'Top drivers', lines: ['vm-1'] }],
    link: { label: 'Open the chart', url: 'https://costs.example.test/anomalies/a1' },
    actions: [],
  }
}
