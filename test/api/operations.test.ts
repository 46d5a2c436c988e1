import { describe, expect, it } from 'vitest'
import { useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

for (const dialect of testDialects()) {
  describe(`${dialect}: health and metrics`, () => {
    const t = useTestApp({ dialect })

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
      const res = await t.request('GET', '/metrics')
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

    it('/readyz is a 503 problem when the database is gone', async () => {
      await t.db.close()
      const res = await t.request('GET', '/readyz')
      expect(res.statusCode).toBe(503)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    })
  })
}
