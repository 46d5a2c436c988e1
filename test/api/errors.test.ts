import { randomUUID } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { FEATURES } from '../../src/features/index.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { type Fetched, fetchRepeatedly } from '../support/fetch-process.js'
import { plannedFeature } from '../support/planned.js'

const API = '/api/public/v1'

/** A GET over a real socket (node:http, which, unlike fetch, sends whatever headers it is given). */
function rawGet(base: string, path: string, headers: Record<string, string>) {
  return new Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers }, (res) => {
      let body = ''
      res.on('data', (chunk) => {
        body += chunk
      })
      res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

function expectProblem(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number) {
  expect(res.statusCode, res.body).toBe(status)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  const problem = JSON.parse(res.body)
  expect(problem).toMatchObject({ status, type: expect.stringMatching(/^\/problems\//), title: expect.any(String) })
  expect(problem.traceId).toBe(res.headers['x-request-id'])
  return problem
}

for (const dialect of testDialects()) {
  describe(`${dialect}: every error status is problem+json`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_RATE_LIMIT: '1000' }, features: [...FEATURES, plannedFeature] })
    let org: OrgContext
    const validTenant = { name: 'Prod', cloudTenantId: 'prod.onmicrosoft.com', credentialType: 'ManagedIdentity' }

    it('400: malformed JSON', async () => {
      org ??= await t.given.organisation()
      const res = await t.request('POST', `${API}/tenants`, org.ownerKey, '{"name": ', {
        'content-type': 'application/json',
      })
      expect(expectProblem(res, 400).type).toBe('/problems/malformed-json')
    })

    it('400: missing required body', async () => {
      const res = await t.request('POST', `${API}/tenants`, org.ownerKey, undefined, {
        'content-type': 'application/json',
      })
      expectProblem(res, 400)
      const none = await t.request('POST', `${API}/tenants`, org.ownerKey)
      expect(expectProblem(none, 400).detail).toBe('A JSON object body is required.')
    })

    it('400: failed validation names every field, unknown fields and unknown enum values', async () => {
      const res = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 5,
        cloudTenantId: 'prod.onmicrosoft.com',
        credentialType: 'Password',
        colour: 'blue',
      })
      const problem = expectProblem(res, 400)
      expect(problem.errors).toMatchObject({
        name: ['must be string'],
        credentialType: [expect.stringContaining('must be one of: ServicePrincipalSecret')],
        colour: ['is not a known field'],
      })
    })

    it('400: a body field is never coerced from another type', async () => {
      const res = await t.request('POST', `${API}/tenants`, org.ownerKey, { ...validTenant, name: 42 })
      expect(expectProblem(res, 400).errors).toEqual({ name: ['must be string'] })
    })

    it('400: bad query and path parameters', async () => {
      for (const query of ['page=0', 'pageSize=201', 'pageSize=abc', 'page=1.5']) {
        expectProblem(await t.request('GET', `${API}/tenants?${query}`, org.ownerKey), 400)
      }
      const badPath = expectProblem(await t.request('GET', `${API}/tenants/not-a-uuid`, org.ownerKey), 400)
      expect(badPath.errors).toEqual({ tenantId: ['must be a UUID'] })
      const ok = await t.request('GET', `${API}/tenants?page="2"&pageSize=5`, org.ownerKey)
      expectProblem(ok, 400) // quotes are not part of a number
      expect((await t.request('GET', `${API}/tenants?page=2&pageSize=5`, org.ownerKey)).statusCode).toBe(200)
    })

    it('401: no key, and the same body for every cause', async () => {
      const a = expectProblem(await t.request('GET', `${API}/organisation`), 401)
      const b = expectProblem(await t.request('GET', `${API}/organisation`, 'cw_nonsense'), 401)
      expect({ ...a, traceId: '', instance: '' }).toEqual({ ...b, traceId: '', instance: '' })
    })

    it('403: a key that can see the resource but lacks the permission', async () => {
      const tenant = await t.given.tenant(org)
      const viewer = await t.given.key(org, [{ tenancyId: tenant.id, role: 'Viewer' }])
      const res = await t.request('POST', `${API}/tenants`, viewer.apiKey, validTenant)
      expect(expectProblem(res, 403).type).toBe('/problems/forbidden')
    })

    it('404: unknown id and unknown path', async () => {
      expectProblem(await t.request('GET', `${API}/tenants/00000000-0000-4000-8000-000000000000`, org.ownerKey), 404)
      expectProblem(await t.request('GET', `${API}/no-such-thing`, org.ownerKey), 404)
      expectProblem(await t.request('GET', '/definitely/not/here'), 404)
    })

    it('405: known path, wrong method, with Allow', async () => {
      const res = await t.request('DELETE', `${API}/tenants`, org.ownerKey)
      expectProblem(res, 405)
      expect(res.headers.allow).toBe('GET, HEAD, POST')
      const item = await t.request('PUT', `${API}/tenants/00000000-0000-4000-8000-000000000000`, org.ownerKey)
      expectProblem(item, 405)
    })

    it('409: a cloud tenant connected twice', async () => {
      const first = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        ...validTenant,
        cloudTenantId: 'twice.example.com',
      })
      expect(first.statusCode, first.body).toBe(201)
      const again = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        ...validTenant,
        cloudTenantId: 'TWICE.example.com',
      })
      expectProblem(again, 409)
    })

    it('413: a body over 1 MiB', async () => {
      const huge = JSON.stringify({ ...validTenant, name: 'x'.repeat(1024 * 1024) })
      const res = await t.request('POST', `${API}/tenants`, org.ownerKey, huge, { 'content-type': 'application/json' })
      expectProblem(res, 413)
    })

    it('415: a body that is not JSON', async () => {
      const res = await t.request('POST', `${API}/tenants`, org.ownerKey, 'name=Prod', {
        'content-type': 'application/x-www-form-urlencoded',
      })
      expectProblem(res, 415)
      const text = await t.request('POST', `${API}/tenants`, org.ownerKey, 'hello', { 'content-type': 'text/plain' })
      expectProblem(text, 415)
    })

    it('400 and 414 from the router: bad percent-encoding, a 10,000-character path id; 414 for 30 KB of query string', async () => {
      const badUrl = await t.request('GET', `${API}/tenants/%zz`, org.ownerKey)
      expect(expectProblem(badUrl, 400)).toMatchObject({
        type: '/problems/bad-request',
        detail: 'The path is not valid percent-encoding.',
      })
      const longId = await t.request('GET', `${API}/tenants/${'a'.repeat(10_000)}`, org.ownerKey)
      expect(expectProblem(longId, 414).type).toBe('/problems/uri-too-long')
      for (const res of [badUrl, longId]) {
        expect(res.body).not.toContain('FST_ERR')
        expect(res.headers['x-content-type-options']).toBe('nosniff')
        expect(res.headers['cache-control']).toBe('no-store')
      }
      // A URL over 8 KB is a 414 before anything reads it; under it, 7 KB of a parameter is validated.
      const query = await t.request('GET', `${API}/organisation?pageSize=${'9'.repeat(30 * 1024)}`, org.ownerKey)
      expect(expectProblem(query, 414).detail).toContain('8 KB')
      const unknown = await t.request('GET', `${API}/organisation?pageSize=${'9'.repeat(7 * 1024)}`, org.ownerKey)
      expect(unknown.statusCode).toBe(200) // the organisation takes no pageSize: ignored, as any unknown parameter
      const huge = await t.request('GET', `${API}/tenants?pageSize=${'9'.repeat(7 * 1024)}`, org.ownerKey)
      expect(expectProblem(huge, 400).errors).toEqual({ pageSize: ['must be <= 200'] })
    })

    it('over a real port: the router errors, 414 for a long URL, and 431 from the HTTP parser, arrive as problem+json', async () => {
      const base = await t.app.listen({ host: '127.0.0.1', port: 0 })
      const sent = await Promise.all([
        rawGet(base, `${API}/tenants/%zz`, { 'x-api-key': org.ownerKey }),
        rawGet(base, `${API}/tenants/${'a'.repeat(10_000)}`, { 'x-api-key': org.ownerKey }),
        rawGet(base, `${API}/organisation?filter=${'q'.repeat(30 * 1024)}`, { 'x-api-key': org.ownerKey }),
        rawGet(base, `${API}/organisation?filter=${'q'.repeat(70 * 1024)}`, { 'x-api-key': org.ownerKey }),
        rawGet(base, `${API}/organisation`, { 'x-api-key': org.ownerKey, 'x-padding': 'p'.repeat(70_000) }),
        rawGet(base, `${API}/organisation`, { 'x-api-key': org.ownerKey, 'x-padding': 'p'.repeat(500_000) }),
      ])
      expect(sent.map((r) => r.statusCode)).toEqual([400, 414, 414, 431, 431, 431])
      for (const res of sent) {
        const problem = expectProblem(res, res.statusCode)
        expect(problem.traceId).toMatch(/^[\w.:-]{1,128}$/) // a request id, of the form a client may send
        expect(res.headers['x-content-type-options']).toBe('nosniff')
        expect(res.headers['cache-control']).toBe('no-store')
      }
      expect(JSON.parse(sent[2]!.body).type).toBe('/problems/uri-too-long')
      expect(JSON.parse(sent[4]!.body).type).toBe('/problems/headers-too-large')
      // The parser's refusals are logged with their trace id (and never with the refused headers).
      const traceId = JSON.parse(sent[5]!.body).traceId
      expect(t.logs.some((line) => line.includes(traceId) && line.includes('HPE_HEADER_OVERFLOW'))).toBe(true)
      expect(t.logs.join('')).not.toContain(org.ownerKey)
      // The server goes on answering.
      expect((await rawGet(base, `${API}/organisation`, { 'x-api-key': org.ownerKey })).statusCode).toBe(200)
    })

    it('501: an operation of the specification whose feature has not landed', async () => {
      const res = await t.request('GET', `${API}/gadgets/${randomUUID()}`, org.ownerKey)
      expect(expectProblem(res, 501).detail).toContain('ProbeGetGadget')
    })

    it('headers: nosniff everywhere, no-store on the API, no X-Powered-By, request ids echoed', async () => {
      const res = await t.request('GET', `${API}/organisation`, org.ownerKey, undefined, {
        'x-request-id': 'ci-run-42',
      })
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.headers['x-powered-by']).toBeUndefined()
      expect(res.headers['x-request-id']).toBe('ci-run-42')
      expect((await t.request('GET', '/healthz')).headers['x-content-type-options']).toBe('nosniff')
    })

    it('request ids we mint are distinct, and of the form a client may send back to have it kept', async () => {
      const ids = new Set<string>()
      for (let i = 0; i < 20; i++) {
        const id = (await t.request('GET', `${API}/organisation`, org.ownerKey)).headers['x-request-id'] as string
        expect(id).toMatch(/^[\w.:-]{1,128}$/)
        ids.add(id)
      }
      expect(ids.size).toBe(20)
      const minted = [...ids][0]!
      const res = await t.request('GET', `${API}/organisation`, org.ownerKey, undefined, { 'x-request-id': minted })
      expect(res.headers['x-request-id']).toBe(minted)
    })

    // Last: it breaks the database on purpose.
    it('500: problem+json with a traceId, never SQL or a stack; the log has the full error', async () => {
      await sql`DROP TABLE api_key_tenancies`.execute(t.db.kysely)
      await sql`DROP TABLE tenancy_roles`.execute(t.db.kysely)
      // PostgreSQL refuses while other tables (events, inventory, ...) reference tenants; CASCADE drops only their keys.
      await sql`DROP TABLE tenants${sql.raw(t.db.dialect === 'postgres' ? ' CASCADE' : '')}`.execute(t.db.kysely)
      const res = await t.request('GET', `${API}/tenants`, org.ownerKey)
      const problem = expectProblem(res, 500)
      expect(res.body).not.toMatch(/select |from |sqlite|no such table|relation|stack|\n\s+at /i)
      expect(t.logs.some((line) => line.includes(problem.traceId) && line.includes('request failed'))).toBe(true)
    })
  })

  describe(`${dialect}: every refusal is read by fetch over a real port`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_RATE_LIMIT: '100000' } })
    let org: OrgContext
    let base: string

    /** Each of the answers a problem of that status: none lost to a connection closed before the client read it. */
    function expectEvery(answers: Fetched[], status: number, type: string) {
      expect(answers).toHaveLength(50)
      for (const res of answers) {
        if ('error' in res) expect.fail(`no answer read: ${res.error}`)
        expect(expectProblem(res, status).type).toBe(type)
      }
    }

    it('a 10,000-character query value (30 KB encoded) gets a 414 problem, 50 times in a row', async () => {
      org = await t.given.organisation()
      base = await t.app.listen({ host: '127.0.0.1', port: 0 })
      const value = encodeURIComponent('<'.repeat(10_000))
      expect(value.length).toBe(30_000)
      const headers = { 'x-api-key': org.ownerKey }
      expectEvery(
        await fetchRepeatedly(`${base}${API}/tenants?name=${value}`, { headers }, 50),
        414,
        '/problems/uri-too-long',
      )
      // Over the header limit itself: the 431 is delivered before the connection closes.
      expectEvery(
        await fetchRepeatedly(`${base}${API}/tenants?name=${'x'.repeat(100_000)}`, { headers }, 50),
        431,
        '/problems/headers-too-large',
      )
      expect((await fetch(`${base}${API}/organisation`, { headers })).status).toBe(200)
    })

    it('a body over 1 MiB gets the 413 problem with Connection: close, 50 times in a row', async () => {
      const init = (size: number) => ({
        method: 'POST',
        headers: { 'x-api-key': org.ownerKey, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x'.repeat(size), cloudTenantId: 'a.example.com' }),
      })
      // 1.1 MB, and 5 MB, which the loopback's buffers do not hide: the server reads what the client still sends.
      for (const size of [1_100_000, 5_000_000]) {
        const answers = await fetchRepeatedly(`${base}${API}/tenants`, init(size), 50)
        expectEvery(answers, 413, '/problems/payload-too-large')
        for (const res of answers) if ('headers' in res) expect(res.headers.connection).toBe('close')
      }
      expect((await t.services.tenants.list(org.owner, { page: 1, pageSize: 50 })).totalCount).toBe(0)
    })
  })

  describe(`${dialect}: rate limit per key`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_RATE_LIMIT: '3' } })
    it('429 with Retry-After once a key spends its minute, while another key goes on', async () => {
      const org = await t.given.organisation()
      const other = await t.given.key(org, null)
      for (let i = 0; i < 3; i++)
        expect((await t.request('GET', `${API}/organisation`, org.ownerKey)).statusCode).toBe(200)
      const limited = await t.request('GET', `${API}/organisation`, org.ownerKey)
      expectProblem(limited, 429)
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
      expect((await t.request('GET', `${API}/organisation`, other.apiKey)).statusCode).toBe(200)
    })
  })
}
