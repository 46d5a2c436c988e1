import type { AddressInfo } from 'node:net'
import { Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { serveMetrics } from '../../src/platform/http/metrics.js'
import { useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

for (const dialect of testDialects()) {
  describe(`${dialect}: health and metrics`, () => {
    const token = 'metrics-token-0123456789'
    const t = useTestApp({ dialect, env: { COSTWATCH_METRICS_TOKEN: token, COSTWATCH_AUTH_FAILURE_LIMIT: '3' } })
    const bearer = { authorization: `Bearer ${token}` }

    it('/healthz and /readyz answer without a key', async () => {
      expect((await t.request('GET', '/healthz')).json()).toEqual({ status: 'ok' })
      const ready = await t.request('GET', '/readyz')
      expect(ready.statusCode).toBe(200)
      expect(ready.json()).toEqual({ status: 'ready' })
    })

    it('/metrics counts requests and times them by route pattern, not by id', async () => {
      const org = await t.given.organisation()
      const tenant = await t.given.tenant(org)
      await t.request('GET', `/api/public/v1/tenants/${tenant.id}`, org.ownerKey)
      await t.request('GET', '/api/public/v1/tenants/00000000-0000-4000-8000-000000000000', org.ownerKey)
      const res = await t.request('GET', '/metrics', null, undefined, bearer)
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/plain/)
      expect(res.body).toContain(
        'http_requests_total{method="GET",route="/api/public/v1/tenants/:tenantId",status="200"} 1',
      )
      expect(res.body).toContain(
        'http_requests_total{method="GET",route="/api/public/v1/tenants/:tenantId",status="404"} 1',
      )
      // Both timed under the pattern (the +Inf bucket holds every observation, however slow the machine).
      expect(res.body).toMatch(
        /http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/public\/v1\/tenants\/:tenantId"\} 2/,
      )
      expect(res.body).toMatch(
        /http_request_duration_seconds_count\{method="GET",route="\/api\/public\/v1\/tenants\/:tenantId"\} 2/,
      )
      expect(res.body).not.toContain(tenant.id)
      expect(res.body).toContain('process_cpu_user_seconds_total')
    })

    it('/metrics takes only its bearer token: anything else is a 401 problem, and guesses are limited', async () => {
      const refused = [
        {},
        { authorization: `Bearer ${token}x` },
        { authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` },
        { authorization: token },
        { 'x-api-key': token },
      ]
      for (const [i, headers] of refused.entries()) {
        const res = await t.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress: `10.9.0.${i}` })
        expect(res.statusCode, JSON.stringify(headers)).toBe(401)
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
        expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"')
        expect(res.body).not.toContain('process_cpu')
      }
      for (let i = 0; i < 3; i++)
        expect((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.9.1.1' })).statusCode).toBe(401)
      const limited = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.9.1.1' })
      expect(limited.statusCode).toBe(429)
      const scrape = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `bearer  ${token}` },
      })
      expect(scrape.statusCode).toBe(200)
    })

    it("the worker's own /metrics port takes the same token when one is set", async () => {
      const registry = new Registry()
      for (const configured of [token, null]) {
        const server = await serveMetrics(registry, '127.0.0.1', 0, configured)
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
        try {
          const open = await fetch(`${base}/metrics`)
          expect(open.status).toBe(configured ? 401 : 200)
          if (configured) expect(((await open.json()) as { type: string }).type).toBe('/problems/unauthorized')
          expect((await fetch(`${base}/metrics`, { headers: bearer })).status).toBe(200)
          expect((await fetch(`${base}/healthz`)).status).toBe(200)
        } finally {
          server.close()
        }
      }
    })

    it('/readyz is a 503 problem when the database is gone', async () => {
      await t.db.close()
      const res = await t.request('GET', '/readyz')
      expect(res.statusCode).toBe(503)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    })
  })
}

describe('without COSTWATCH_METRICS_TOKEN', () => {
  const t = useTestApp({ dialect: 'sqlite' })
  it('the API port serves no /metrics', async () => {
    const res = await t.request('GET', '/metrics')
    expect(res.statusCode).toBe(404)
    expect(res.body).not.toContain('process_cpu')
    expect((await t.request('GET', '/healthz')).statusCode).toBe(200)
  })
})
