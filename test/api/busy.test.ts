import SqliteDatabase from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'

// On SQLite one process writes at a time: a write that waits longer than the busy timeout for another process's
// transaction (a large collection's or import's final one) is refused as a 503 the client can retry, not a 500.
if (testDialects().includes('sqlite'))
  describe('sqlite: a write while another process holds the database', () => {
    const t = useTestApp({ dialect: 'sqlite', sqliteBusyTimeoutMs: 100 })

    it('answers 503 with Retry-After, changes nothing, and succeeds once the other transaction commits', async () => {
      const org = await t.given.organisation()
      const tenant = await t.given.tenant(org)
      const marker = { title: 'Deploy 42', category: 'Deployment', occurredAt: '2026-02-27T10:00:00Z' }
      const markers = async () =>
        (await t.request('GET', `${API}/tenants/${tenant.id}/events`, org.ownerKey)).json().totalCount

      const other = new SqliteDatabase(t.databaseUrl)
      try {
        other.exec('begin immediate')
        const refused = await t.request('POST', `${API}/tenants/${tenant.id}/events`, org.ownerKey, marker)
        expect(refused.statusCode, refused.body).toBe(503)
        expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/)
        expect(refused.headers['retry-after']).toBe('5')
        expect(refused.json()).toMatchObject({ type: '/problems/busy', status: 503, title: 'The database is busy.' })
        // Reads go on meanwhile (WAL): nothing was written.
        expect(await markers()).toBe(0)
        other.exec('commit')
      } finally {
        other.close()
      }
      const created = await t.request('POST', `${API}/tenants/${tenant.id}/events`, org.ownerKey, marker)
      expect(created.statusCode, created.body).toBe(201)
      expect(await markers()).toBe(1)
    })
  })
