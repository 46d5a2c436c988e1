import { afterAll, describe, expect, it } from 'vitest'
import { DEMO_CHANGES, simulatedEstate } from '../../src/connectors/simulated/estate.js'
import type { AnomalyRecord } from '../../src/features/anomalies/schemas.js'
import { addDays, toDay } from '../../src/platform/time.js'
import { createTestDatabase, TEST_SECRET_KEY } from '../support/app.js'
import { runCli, startServer } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'

type Server = Awaited<ReturnType<typeof startServer>>
const envOf = (databaseUrl: string) => ({ COSTWATCH_DATABASE_URL: databaseUrl, COSTWATCH_SECRET_KEY: TEST_SECRET_KEY })

for (const dialect of testDialects()) {
  // Each test starts several processes: slow on a busy two-core machine.
  describe(`${dialect}: serve`, { timeout: 120_000 }, () => {
    const servers: Server[] = []
    const drops: (() => Promise<void>)[] = []
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()))
      for (const drop of drops) await drop()
    })

    it('--demo on an empty database prints an owner key and example calls that work', async () => {
      const database = await createTestDatabase(dialect)
      drops.push(database.drop)
      const server = await startServer(['--demo', '--no-worker'], {
        COSTWATCH_DATABASE_URL: database.url,
        COSTWATCH_SECRET_KEY: TEST_SECRET_KEY,
      })
      servers.push(server)
      await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('API reference')
      const out = server.output()
      const calls = [...out.matchAll(/curl -s -H 'X-Api-Key: (cw_\w+)' '?([^\s']+)/g)]
      expect(calls).toHaveLength(5)
      for (const [, key, url] of calls) {
        const res = await fetch(url!, { headers: { 'X-Api-Key': key! } })
        expect(res.status, url).toBe(200)
      }
      const tenants = (await (
        await fetch(`${server.url}/api/public/v1/tenants`, { headers: { 'X-Api-Key': calls[0]![1]! } })
      ).json()) as { items: unknown[] }
      expect(tenants.items).toMatchObject([{ name: 'Contoso (simulated)', connector: 'simulated' }])
      // Without SMTP, start-up says once that e-mail is off; the owner's first password is set through a link
      // printed once, on the terminal, that works once.
      expect(out.split('COSTWATCH_SMTP_URL is not set: e-mail is off')).toHaveLength(2)
      const links = [...out.matchAll(/(http:\/\/\S+)\/reset-password\/([\w-]+)/g)]
      expect(links).toHaveLength(1)
      const link = `${server.url}/reset-password/${links[0]![2]}`
      const owner = (await (await fetch(link)).json()) as { email: string }
      expect(owner.email).toBe('owner@demo.costwatch.local')
      const password = 'the demo owner password'
      const choose = () =>
        fetch(link, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ password, passwordConfirmation: password }).toString(),
        })
      expect((await choose()).status).toBe(204)
      expect((await choose()).status).toBe(410)
      const signedIn = await fetch(`${server.url}/api/app/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: owner.email, password }),
      })
      expect(signedIn.status).toBe(200)
      // A second start on the same database creates nothing and says how to get a key.
      await server.stop()
      const again = await startServer(['--demo', '--no-worker'], {
        COSTWATCH_DATABASE_URL: database.url,
        COSTWATCH_SECRET_KEY: TEST_SECRET_KEY,
      })
      servers.push(again)
      await expect.poll(() => again.output(), { timeout: 10_000 }).toContain('no demo was created')
      expect(again.output()).not.toMatch(/cw_\w{46}/)
      expect(again.output()).not.toContain('/reset-password/')
    })

    it('a key sent in the query string is refused and never written to stdout or stderr', async () => {
      const database = await createTestDatabase(dialect)
      drops.push(database.drop)
      const env = { ...envOf(database.url), COSTWATCH_LOG_LEVEL: 'info' }
      const created = await runCli(
        ['org', 'create', '--name', 'Leaky', '--owner-email', 'ops@leaky.test', '--json'],
        env,
      )
      const { apiKey } = JSON.parse(created.stdout)
      const server = await startServer(['--no-worker'], env)
      servers.push(server)
      const base = `${server.url}/api/public/v1/organisation`
      expect((await fetch(`${base}?api_key=${apiKey}`)).status).toBe(401)
      expect((await fetch(`${base}?token=t0ken-in-url&sig=s1gnature`)).status).toBe(401)
      expect((await fetch(base, { headers: { 'X-Api-Key': apiKey } })).status).toBe(200)
      await server.stop()
      const output = server.output()
      expect(output).toContain('api_key=[redacted]')
      expect(output).toContain('token=[redacted]&sig=[redacted]')
      expect(output).not.toContain(apiKey)
      expect(output).not.toMatch(/t0ken-in-url|s1gnature|cw_[0-9A-Za-z]{46}/)
    })

    it('--demo with its worker collects the history the banner points to, and its analysis finds insights and anomalies', async () => {
      const database = await createTestDatabase(dialect)
      drops.push(database.drop)
      const server = await startServer(['--demo'], {
        COSTWATCH_DATABASE_URL: database.url,
        COSTWATCH_SECRET_KEY: TEST_SECRET_KEY,
        COSTWATCH_METRICS_TOKEN: 'demo-metrics-token-0123',
      })
      servers.push(server)
      await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('API reference')
      const key = server.output().match(/X-Api-Key: (cw_\w+)/)![1]!
      const snapshotUrl = server.output().match(/is collecting: (\S+)/)![1]!
      const snapshot = async () =>
        (await (await fetch(snapshotUrl, { headers: { 'X-Api-Key': key } })).json()) as {
          status: string
          stats: { resources: number }
        }
      await expect.poll(async () => (await snapshot()).status, { timeout: 60_000, interval: 200 }).toBe('Succeeded')
      expect((await snapshot()).stats.resources).toBe(240)
      const tenant = (await (
        await fetch(snapshotUrl.replace(/\/snapshots\/.*$/, ''), { headers: { 'X-Api-Key': key } })
      ).json()) as {
        costs: { last30Days: number }
      }
      expect(tenant.costs.last30Days).toBeGreaterThan(0)
      // Its analysis follows, and the demo shows every category of insight.
      const categories = async () => {
        const page = (await (
          await fetch(`${server.url}/api/public/v1/insights?pageSize=200`, { headers: { 'X-Api-Key': key } })
        ).json()) as { items: { category: string }[] }
        return new Set(page.items.map((i) => i.category)).size
      }
      await expect.poll(categories, { timeout: 30_000, interval: 200 }).toBe(8)
      // The same run finds the changes the demo's estate plants in its 120 days: a spike on one resource, an
      // outage of one group's workload and a level shift of another's, on their days counted back from today.
      const estate = simulatedEstate('contoso.onmicrosoft.com')
      const planted = (change: string) => estate.resources.filter((r) => r.change === change)
      const groupOf = (change: string) => planted(change)[0]!.resourceGroupName
      const daysAgo = (change: keyof typeof DEMO_CHANGES) => addDays(toDay(new Date()), -DEMO_CHANGES[change].daysAgo)
      const anomalies = async () =>
        (
          (await (
            await fetch(`${server.url}/api/public/v1/anomalies?pageSize=200`, { headers: { 'X-Api-Key': key } })
          ).json()) as { items: AnomalyRecord[] }
        ).items
      await expect.poll(async () => (await anomalies()).length, { timeout: 30_000, interval: 200 }).toBeGreaterThan(0)
      const found = await anomalies()
      const at = (kind: string, day: string) => found.filter((a) => a.scope.kind === kind && a.dateRaised === day)
      const [spike] = at('Resource', daysAgo('spike'))
      expect(spike).toMatchObject({ severity: 'High', status: 'Active' })
      expect(spike!.description).toContain(`resource ${planted('spike')[0]!.name} was`)
      const outage = at('ResourceGroup', daysAgo('outage')).find((a) => a.scope.resourceGroupName === groupOf('outage'))
      expect(outage!.impact).toBeLessThan(0)
      const shift = at('ResourceGroup', daysAgo('levelShift'))
      expect(shift.find((a) => a.scope.resourceGroupName === groupOf('levelShift'))!.impact).toBeGreaterThan(0)
      // The in-process worker's runs are in the server's own metrics. On a slow machine the day's scheduled
      // snapshot may have joined the demo's first one by now: at least one of each, then.
      const metrics = await (
        await fetch(`${server.url}/metrics`, { headers: { Authorization: 'Bearer demo-metrics-token-0123' } })
      ).text()
      for (const status of ['queued', 'started', 'succeeded'])
        expect(metrics).toMatch(new RegExp(`costwatch_runs_total\\{kind="snapshot",status="${status}"\\} [1-9]\\d*\n`))
      expect(metrics).toMatch(/costwatch_run_duration_seconds_count\{kind="snapshot",status="succeeded"\} [1-9]\d*\n/)
      expect(metrics).toContain('http_requests_total{')
    })

    it('revocation reaches every server process at once', async () => {
      const database = await createTestDatabase(dialect)
      drops.push(database.drop)
      const env = { COSTWATCH_DATABASE_URL: database.url, COSTWATCH_SECRET_KEY: TEST_SECRET_KEY }
      const created = await runCli(
        ['org', 'create', '--name', 'Multi', '--owner-email', 'ops@multi.example', '--json'],
        env,
      )
      expect(created.code, created.stderr).toBe(0)
      const { organisation } = JSON.parse(created.stdout)
      const key = JSON.parse(
        (await runCli(['keys', 'create', '--org', organisation.id, '--name', 'deploy', '--json'], env)).stdout,
      )
      const [a, b] = await Promise.all([startServer(['--no-worker'], env), startServer(['--no-worker'], env)])
      servers.push(a!, b!)
      const status = async (server: Server) =>
        (await fetch(`${server.url}/api/public/v1/organisation`, { headers: { 'x-api-key': key.apiKey } })).status
      expect([await status(a!), await status(b!)]).toEqual([200, 200])
      const revoked = await runCli(['keys', 'revoke', key.key.id, '--org', organisation.id], env)
      expect(revoked.code, revoked.stderr).toBe(0)
      // The very next request on either process, with no waiting, is refused.
      expect([await status(a!), await status(b!)]).toEqual([401, 401])
    })
  })
}
