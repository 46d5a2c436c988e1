import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventRecord } from '../../src/features/events/schemas.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { deploymentArgs, eventsCreate } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'

type Step = 'forward' | 'drop-response' | 'unavailable'

/**
 * A proxy on 127.0.0.1 in front of the server that plays one step per request: forward it, forward it but
 * lose the answer (the server did the work; the client's connection is cut), or answer 503 itself.
 */
async function proxy(target: string, steps: Step[]) {
  const requests: { idempotencyKey: string | undefined }[] = []
  const server = http.createServer((req, res) => {
    const step = steps[requests.length] ?? 'forward'
    requests.push({ idempotencyKey: req.headers['idempotency-key'] as string | undefined })
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      if (step === 'unavailable') {
        res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '1' })
        res.end(JSON.stringify({ type: '/problems/unavailable', title: 'Down for a moment.', status: 503 }))
        return
      }
      const upstream = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
        const body: Buffer[] = []
        up.on('data', (c: Buffer) => body.push(c))
        up.on('end', () => {
          if (step === 'drop-response') {
            req.socket.destroy()
            return
          }
          res.writeHead(up.statusCode ?? 502, up.headers)
          res.end(Buffer.concat(body))
        })
      })
      upstream.end(Buffer.concat(chunks))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A port on which nothing listens. */
async function closedPort(): Promise<number> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

for (const dialect of testDialects()) {
  describe(`${dialect}: costwatch events create`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_RATE_LIMIT: '100000' } })
    let org: OrgContext
    let tenant: TenantRecord
    let ci: { id: string; apiKey: string }
    let base: string
    const proxies: { close(): Promise<void> }[] = []

    beforeAll(async () => {
      org = await t.given.organisation('Pipelines Ltd')
      tenant = await t.given.tenant(org)
      ci = await t.given.key(org, [{ tenancyId: tenant.id, role: 'Editor' }], { name: 'github actions' })
      await t.app.listen({ port: 0, host: '127.0.0.1' })
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    })
    afterAll(async () => {
      for (const p of proxies) await p.close()
    })

    const env = (url = base) => ({ COSTWATCH_URL: url, COSTWATCH_API_KEY: ci.apiKey })
    const args = (title: string, more: string[] = []) => deploymentArgs(tenant.id, title, more)
    const titled = async (title: string) => {
      const page = (
        await t.request('GET', `/api/public/v1/tenants/${tenant.id}/events?pageSize=200`, org.ownerKey)
      ).json() as { items: EventRecord[] }
      return page.items.filter((e) => e.title === title)
    }

    it('creates a marker, says so, and exits 0', async () => {
      const run = await eventsCreate(args('Deploy web 1.0'), env())
      expect(run.code, run.stderr).toBe(0)
      const [event, ...more] = await titled('Deploy web 1.0')
      expect(more).toEqual([])
      expect(run.stdout).toBe(
        `Created event marker ${event!.id} in tenant ${tenant.id}: Deploy web 1.0 (Deployment, ${event!.occurredAt})\n`,
      )
      expect(event!.createdBy).toEqual({ type: 'ApiKey', id: ci.id, name: 'github actions' })
      // --occurred-at defaults to now: the process's clock, not the server's fixed test clock.
      expect(Math.abs(Date.parse(event!.occurredAt) - Date.now())).toBeLessThan(60_000)
      expect(run.stderr).toBe('')
    })

    it('--json prints exactly one JSON document: the event record', async () => {
      const run = await eventsCreate(
        args('Deploy api 2.0', [
          '--occurred-at',
          '2026-03-01T10:55:00+02:00',
          '--tag',
          'service=api=v2',
          '--description',
          'from CI',
          '--json',
        ]),
        env(`${base}/api/public/v1/`),
      )
      expect(run.code, run.stderr).toBe(0)
      const printed = JSON.parse(run.stdout) as EventRecord
      expect(printed).toMatchObject({
        title: 'Deploy api 2.0',
        occurredAt: '2026-03-01T08:55:00.000Z',
        tagKey: 'service',
        tagValue: 'api=v2',
        description: 'from CI',
      })
      const stored = await t.request('GET', `/api/public/v1/tenants/${tenant.id}/events/${printed.id}`, org.ownerKey)
      expect(stored.json()).toEqual(printed)
    })

    it('a lost response is retried with the same Idempotency-Key: exactly one marker', async () => {
      const lossy = await proxy(base, ['drop-response'])
      proxies.push(lossy)
      const run = await eventsCreate(args('Deploy lossy 3.0', ['--json']), env(lossy.url))
      expect(run.code, run.stderr).toBe(0)
      expect(lossy.requests).toHaveLength(2)
      const [first, second] = lossy.requests
      expect(first!.idempotencyKey).toMatch(/^costwatch-cli-[0-9a-f-]{36}$/)
      expect(second!.idempotencyKey).toBe(first!.idempotencyKey)
      expect(run.stderr).toMatch(/retrying in \d+\.\d s \(attempt 2 of 5\)/)
      const markers = await titled('Deploy lossy 3.0')
      expect(markers).toHaveLength(1)
      expect(JSON.parse(run.stdout).id).toBe(markers[0]!.id)
    })

    it('a 503 is retried after its Retry-After', async () => {
      const flaky = await proxy(base, ['unavailable'])
      proxies.push(flaky)
      const started = Date.now()
      const run = await eventsCreate(args('Deploy flaky 4.0'), env(flaky.url))
      expect(run.code, run.stderr).toBe(0)
      expect(flaky.requests).toHaveLength(2)
      expect(run.stderr).toContain('503 Down for a moment.; retrying in 1.0 s')
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
      expect(await titled('Deploy flaky 4.0')).toHaveLength(1)
    })

    it('a bad category: exit 1 with the field error, not retried, nothing created', async () => {
      const counting = await proxy(base, [])
      proxies.push(counting)
      const run = await eventsCreate(
        ['--tenant', tenant.id, '--title', 'Deploy bad', '--category', 'Deploy'],
        env(counting.url),
      )
      expect(run.code).toBe(1)
      expect(run.stdout).toBe('')
      expect(run.stderr).toContain('error: 400 One or more fields are invalid.')
      expect(run.stderr).toContain(
        '  category: must be one of: Deployment, Launch, Campaign, Configuration, Incident, Other',
      )
      expect(counting.requests).toHaveLength(1)
      expect(await titled('Deploy bad')).toEqual([])
      // The same failure with --best-effort does not fail the pipeline.
      const soft = await eventsCreate(
        ['--tenant', tenant.id, '--title', 'Deploy bad', '--category', 'Deploy', '--best-effort'],
        env(),
      )
      expect(soft.code).toBe(0)
      expect(soft.stderr).toContain('warning: no event marker was created (--best-effort: exit 0)')
    })

    it('an unreachable server: exit 1 after its attempts; exit 0 with --best-effort', async () => {
      const nowhere = `http://127.0.0.1:${await closedPort()}`
      const hard = await eventsCreate(args('Deploy nowhere', ['--max-attempts', '2']), env(nowhere))
      expect(hard.code).toBe(1)
      expect(hard.stderr).toContain('ECONNREFUSED')
      expect(hard.stderr).toContain('gave up after 2 attempts')
      const soft = await eventsCreate(
        args('Deploy nowhere', ['--max-attempts', '2', '--best-effort', '--json']),
        env(nowhere),
      )
      expect(soft.code, soft.stderr).toBe(0)
      expect(soft.stdout).toBe('')
      expect(soft.stderr).toMatch(/^costwatch: cannot reach .*ECONNREFUSED; retrying/m)
      expect(soft.stderr).toContain('warning: no event marker was created (--best-effort: exit 0)')
    })

    it('a refused key or a missing setting: a clear message, exit 1, and the key never printed', async () => {
      const wrongKey = 'cw_0000000000000000000000000000000000000000000000'
      const refused = await eventsCreate(args('Deploy refused'), { COSTWATCH_URL: base, COSTWATCH_API_KEY: wrongKey })
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain('401')
      expect(refused.stderr).toContain('check COSTWATCH_API_KEY')
      expect(refused.stderr).not.toContain('retrying')
      expect(refused.stderr + refused.stdout).not.toContain(wrongKey)

      const unset = await eventsCreate(['--title', 'x'], { COSTWATCH_API_KEY: ci.apiKey })
      expect(unset.code).toBe(1)
      expect(unset.stderr).toContain('COSTWATCH_URL is not set')
      expect(unset.stderr).toContain('--tenant is required')
      expect(unset.stderr).toContain('--category is required')
      expect(unset.stderr + unset.stdout).not.toContain(ci.apiKey)
      const badTag = await eventsCreate(args('Deploy tag', ['--tag', 'novalue']), env())
      expect(badTag.code).toBe(1)
      expect(badTag.stderr).toContain('--tag takes KEY=VALUE')
    })
  })
}
