import { beforeAll, describe, expect, it } from 'vitest'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'

for (const dialect of testDialects()) {
  describe(`${dialect}: an open chart asks whether its markers changed`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z' })
    let org: OrgContext
    let tenant: TenantRecord
    let other: TenantRecord
    const chart = '?scope=tenant&from=2026-02-01T00:00:00.000Z&to=2026-03-01T23:59:59.999Z'

    beforeAll(async () => {
      org = await t.given.organisation()
      tenant = await t.given.tenant(org)
      other = await t.given.tenant(org)
    })

    const visible = (query = chart, ifNoneMatch?: string, tenantId = tenant.id) =>
      t.request(
        'GET',
        `${API}/tenants/${tenantId}/events/visible${query}`,
        org.ownerKey,
        undefined,
        ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {},
      )
    /** A 200 with the markers' titles and its ETag. */
    async function changed(ifNoneMatch?: string, query = chart) {
      const res = await visible(query, ifNoneMatch)
      expect(res.statusCode, res.body).toBe(200)
      const etag = String(res.headers.etag)
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
      return { etag, titles: (res.json().items as { title: string }[]).map((e) => e.title) }
    }
    async function unchanged(ifNoneMatch: string, query = chart, etag = ifNoneMatch) {
      const res = await visible(query, ifNoneMatch)
      expect(res.statusCode, res.body).toBe(304)
      expect(res.body).toBe('')
      expect(res.headers.etag).toBe(etag)
    }
    const marker = (title: string, occurredAt = '2026-02-20T10:00:00Z') => ({
      title,
      category: 'Deployment',
      occurredAt,
    })

    it('answers 304 while nothing changed, and 200 with a new ETag after each create, change and delete', async () => {
      let seen = await changed()
      expect(seen.titles).toEqual([])
      await unchanged(seen.etag)
      await unchanged(`W/${seen.etag}`, chart, seen.etag)
      await unchanged(`"something-else", ${seen.etag}`, chart, seen.etag)
      await unchanged('*', chart, seen.etag)

      const created = await t.request('POST', `${API}/tenants/${tenant.id}/events`, org.ownerKey, marker('Deploy 1'))
      expect(created.statusCode, created.body).toBe(201)
      const next = await changed(seen.etag)
      expect(next.titles).toEqual(['Deploy 1'])
      expect(next.etag).not.toBe(seen.etag)
      seen = next
      await unchanged(seen.etag)

      const id = created.json().id as string
      const patched = await t.request('PATCH', `${API}/tenants/${tenant.id}/events/${id}`, org.ownerKey, {
        title: 'Deploy 1 (renamed)',
      })
      expect(patched.statusCode, patched.body).toBe(200)
      seen = await changed(seen.etag)
      expect(seen.titles).toEqual(['Deploy 1 (renamed)'])

      // A refused change changes nothing, so the chart stays as it was.
      const refused = await t.request('PATCH', `${API}/tenants/${tenant.id}/events/${id}`, org.ownerKey, {
        title: '   ',
      })
      expect(refused.statusCode).toBe(400)
      await unchanged(seen.etag)

      // The create with an Idempotency-Key takes another path to the table; it moves the version all the same.
      const keyed = await t.request(
        'POST',
        `${API}/tenants/${tenant.id}/events`,
        org.ownerKey,
        marker('Deploy 2', '2026-02-21T10:00:00Z'),
        { 'idempotency-key': 'deploy-2' },
      )
      expect(keyed.statusCode, keyed.body).toBe(201)
      seen = await changed(seen.etag)
      expect(seen.titles).toEqual(['Deploy 1 (renamed)', 'Deploy 2'])

      const deleted = await t.request('DELETE', `${API}/tenants/${tenant.id}/events/${id}`, org.ownerKey)
      expect(deleted.statusCode).toBe(204)
      seen = await changed(seen.etag)
      expect(seen.titles).toEqual(['Deploy 2'])
      await unchanged(seen.etag)
    })

    it('keeps one ETag per chart and per tenant: another range, or a write elsewhere, tells apart', async () => {
      const seen = await changed()
      const narrower = '?scope=tenant&from=2026-02-21T00:00:00.000Z&to=2026-03-01T23:59:59.999Z'
      const other1 = await changed(seen.etag, narrower)
      expect(other1.etag).not.toBe(seen.etag)
      await unchanged(other1.etag, narrower)

      // Another tenant's marker leaves this tenant's charts unchanged.
      const elsewhere = await t.request('POST', `${API}/tenants/${other.id}/events`, org.ownerKey, marker('Other'))
      expect(elsewhere.statusCode).toBe(201)
      await unchanged(seen.etag)

      // A bad query is refused whatever the If-None-Match says.
      const bad = await visible('?scope=tenant&from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', '*')
      expect(bad.statusCode).toBe(400)
      expect(bad.json().errors).toHaveProperty('from')
    })
  })
}
