import { describe, expect, it } from 'vitest'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
const CANARY = 'canary-S3cr3t-9f2c1e7a-never-shown'
const CLIENT_ID = '11111111-2222-4333-8444-555555555555'

for (const dialect of testDialects()) {
  describe(`${dialect}: tenants`, () => {
    const t = useTestApp({ dialect })
    let org: OrgContext

    it('creates a service-principal tenant: 201, Location, the record, and no secret in it', async () => {
      org = await t.given.organisation()
      const res = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: '  Production  ',
        cloudTenantId: 'Contoso.OnMicrosoft.com',
        credentialType: 'ServicePrincipalSecret',
        clientId: CLIENT_ID.toUpperCase(),
        clientSecret: CANARY,
      })
      expect(res.statusCode, res.body).toBe(201)
      const tenant = res.json()
      expect(res.headers.location).toBe(`${API}/tenants/${tenant.id}`)
      expect(tenant).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Production',
        cloudTenantId: 'contoso.onmicrosoft.com',
        credentialType: 'ServicePrincipalSecret',
        clientId: CLIENT_ID,
        certificateThumbprint: null,
        hasClientSecret: true,
        connector: 'simulated',
        createdAt: '2026-03-01T09:00:00.000Z',
        lastSnapshot: null,
        costs: { currency: 'USD', monthToDate: 0, previousMonth: 0, last30Days: 0 },
        costSource: 'AzureConnector',
        provider: 'Azure',
        location: null,
      })
      const again = await t.request('GET', `${API}/tenants/${tenant.id.toUpperCase()}`, org.ownerKey)
      expect(again.statusCode).toBe(200)
      expect(again.json()).toEqual(tenant)
    })

    it('encrypts the client secret at rest (AES-256-GCM) and can open it again', async () => {
      const row = await t.db.kysely
        .selectFrom('tenants')
        .select(['id', 'clientSecretSealed'])
        .where('clientId', '=', CLIENT_ID)
        .executeTakeFirstOrThrow()
      expect(row.clientSecretSealed).toMatch(new RegExp(`^v2:${t.services.secrets.keyId}:`))
      expect(row.clientSecretSealed).not.toContain(CANARY)
      expect(t.services.secrets.open(row.clientSecretSealed!, `tenant:${row.id}:clientSecret`)).toBe(CANARY)
    })

    it('creates certificate and managed-identity tenants', async () => {
      const cert = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'Cert',
        cloudTenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47',
        credentialType: 'ServicePrincipalCertificate',
        clientId: CLIENT_ID,
        certificateThumbprint: 'ab:cd:ef:01:23:45:67:89:ab:cd:ef:01:23:45:67:89:ab:cd:ef:01',
      })
      expect(cert.statusCode, cert.body).toBe(201)
      expect(cert.json()).toMatchObject({
        certificateThumbprint: 'ABCDEF0123456789ABCDEF0123456789ABCDEF01',
        hasClientSecret: false,
      })
      const mi = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'MI',
        cloudTenantId: 'fabrikam.com',
        credentialType: 'ManagedIdentity',
        clientId: null,
        clientSecret: null,
        certificateThumbprint: null,
      })
      expect(mi.statusCode, mi.body).toBe(201)
    })

    const invalid: [string, Record<string, unknown>, Record<string, string[]>][] = [
      [
        'secret type without secret',
        { credentialType: 'ServicePrincipalSecret', clientId: CLIENT_ID },
        { clientSecret: ['is required for ServicePrincipalSecret'] },
      ],
      [
        'secret type without client id',
        { credentialType: 'ServicePrincipalSecret', clientSecret: 'x' },
        { clientId: ['is required for ServicePrincipalSecret'] },
      ],
      [
        'certificate type without thumbprint',
        { credentialType: 'ServicePrincipalCertificate', clientId: CLIENT_ID },
        { certificateThumbprint: ['is required for ServicePrincipalCertificate'] },
      ],
      [
        'certificate type with a secret',
        {
          credentialType: 'ServicePrincipalCertificate',
          clientId: CLIENT_ID,
          certificateThumbprint: 'A'.repeat(40),
          clientSecret: 'x',
        },
        { clientSecret: ['is not used with ServicePrincipalCertificate'] },
      ],
      [
        'managed identity with a secret',
        { credentialType: 'ManagedIdentity', clientSecret: 'x' },
        { clientSecret: ['is not used with ManagedIdentity'] },
      ],
      [
        'client id not a GUID',
        { credentialType: 'ServicePrincipalSecret', clientId: 'app', clientSecret: 'x' },
        { clientId: ['must be a GUID'] },
      ],
      [
        'bad thumbprint',
        { credentialType: 'ServicePrincipalCertificate', clientId: CLIENT_ID, certificateThumbprint: 'xyz' },
        { certificateThumbprint: ['must be 40 or 64 hexadecimal characters'] },
      ],
      ['blank name', { name: '   ' }, { name: ['must not be empty'] }],
    ]
    for (const [what, body, errors] of invalid) {
      it(`400 for ${what}, and nothing is created`, async () => {
        const before = (await t.request('GET', `${API}/tenants`, org.ownerKey)).json().totalCount
        const res = await t.request('POST', `${API}/tenants`, org.ownerKey, {
          name: 'X',
          cloudTenantId: 'valid.example.com',
          credentialType: 'ManagedIdentity',
          ...body,
        })
        expect(res.statusCode, res.body).toBe(400)
        expect(res.json().errors).toEqual(errors)
        expect((await t.request('GET', `${API}/tenants`, org.ownerKey)).json().totalCount).toBe(before)
      })
    }

    it('refuses a cloudTenantId that could steer a URL', async () => {
      for (const cloudTenantId of [
        'https://evil.example.com',
        'evil.example.com/oauth2',
        'evil.example.com:443',
        'user@evil.example.com',
        '../common',
        'common',
        'evil.example.com?x=1',
        'evil .example.com',
        '72f988bf-86f1-41af-91ab-2d7cd011db4',
        '',
      ]) {
        const res = await t.request('POST', `${API}/tenants`, org.ownerKey, {
          name: 'X',
          cloudTenantId,
          credentialType: 'ManagedIdentity',
        })
        expect(res.statusCode, cloudTenantId).toBe(400)
        expect(Object.keys(res.json().errors), cloudTenantId).toEqual(['cloudTenantId'])
      }
    })

    it('never shows the client secret in a response or a log line, even when echoed in errors', async () => {
      const bad = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'X',
        cloudTenantId: 'https://x',
        credentialType: 'ServicePrincipalSecret',
        clientSecret: CANARY,
      })
      expect(bad.statusCode).toBe(400)
      expect(bad.body).not.toContain(CANARY)
      const unknownField = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        clientSecret: CANARY,
        [CANARY]: 1,
      })
      expect(unknownField.statusCode).toBe(400)
      const list = await t.request('GET', `${API}/tenants?pageSize=200`, org.ownerKey)
      expect(list.body).not.toContain(CANARY)
      expect(t.logs.length).toBeGreaterThan(0)
      expect(t.logs.join('\n')).not.toContain(CANARY)
    })
  })

  describe(`${dialect}: tenant and organisation permissions`, () => {
    const t = useTestApp({ dialect })

    it('follows the permission table for every kind of key', async () => {
      const org = await t.given.organisation('Perms')
      const [a, b, c] = [await t.given.tenant(org), await t.given.tenant(org), await t.given.tenant(org)]
      const keys = {
        owner: org.ownerKey,
        ownerScoped: (await t.given.key(org, null)).apiKey,
        adminA: (await t.given.key(org, [{ tenancyId: a.id, role: 'Admin' }])).apiKey,
        editorA: (await t.given.key(org, [{ tenancyId: a.id, role: 'Editor' }])).apiKey,
        viewerAB: (
          await t.given.key(org, [
            { tenancyId: a.id, role: 'Viewer' },
            { tenancyId: b.id, role: 'Viewer' },
          ])
        ).apiKey,
      }
      const body = { name: 'New', credentialType: 'ManagedIdentity' }
      const cases: [
        keyof typeof keys,
        { tenancyCount: number; list: string[]; getA: number; getC: number; create: number },
      ][] = [
        ['owner', { tenancyCount: 3, list: [a.id, b.id, c.id], getA: 200, getC: 200, create: 201 }],
        ['ownerScoped', { tenancyCount: 3, list: [a.id, b.id, c.id], getA: 200, getC: 200, create: 201 }],
        ['adminA', { tenancyCount: 1, list: [a.id], getA: 200, getC: 404, create: 403 }],
        ['editorA', { tenancyCount: 1, list: [a.id], getA: 200, getC: 404, create: 403 }],
        ['viewerAB', { tenancyCount: 2, list: [a.id, b.id], getA: 200, getC: 404, create: 403 }],
      ]
      let n = 0
      for (const [name, expected] of cases) {
        const key = keys[name]
        const orgRes = await t.request('GET', `${API}/organisation`, key)
        expect(orgRes.json().tenancyCount, name).toBe(expected.tenancyCount)
        const list = await t.request('GET', `${API}/tenants`, key)
        expect(
          list
            .json()
            .items.map((x: { id: string }) => x.id)
            .sort(),
          name,
        ).toEqual(expected.list.sort())
        expect(list.json().totalCount, name).toBe(expected.list.length)
        expect((await t.request('GET', `${API}/tenants/${a.id}`, key)).statusCode, name).toBe(expected.getA)
        expect((await t.request('GET', `${API}/tenants/${c.id}`, key)).statusCode, name).toBe(expected.getC)
      }
      // Creating comes last: each success changes the counts checked above.
      for (const [name, expected] of cases) {
        const created = await t.request('POST', `${API}/tenants`, keys[name], {
          ...body,
          cloudTenantId: `p${n++}.example.com`,
        })
        expect(created.statusCode, `${name}: ${created.body}`).toBe(expected.create)
      }
      expect((await t.request('GET', `${API}/organisation`, org.ownerKey)).json().tenancyCount).toBe(5)
    })
  })

  describe(`${dialect}: paging`, () => {
    const t = useTestApp({ dialect })

    it('walks every page with no repeats or gaps, in name then id order, with Link headers', async () => {
      const org = await t.given.organisation('Pager')
      const names = [
        'delta',
        'alpha',
        'charlie',
        'bravo',
        'alpha',
        'echo',
        'alpha',
        'foxtrot',
        'golf',
        'hotel',
        'india',
      ]
      const created = []
      for (const name of names) created.push(await t.given.tenant(org, { name }))
      const expected = [...created]
        .sort((x, y) => (x.name === y.name ? (x.id < y.id ? -1 : 1) : x.name < y.name ? -1 : 1))
        .map((x) => x.id)
      for (const pageSize of [1, 2, 3, 4, 10, 11, 200]) {
        const seen: string[] = []
        let page = 1
        for (;;) {
          const res = await t.request('GET', `${API}/tenants?page=${page}&pageSize=${pageSize}`, org.ownerKey)
          expect(res.statusCode).toBe(200)
          const body = res.json()
          expect(body).toMatchObject({
            page,
            pageSize,
            totalCount: names.length,
            totalPages: Math.ceil(names.length / pageSize),
          })
          const link = String(res.headers.link)
          expect(link).toContain(`page=1&pageSize=${pageSize}>; rel="first"`)
          expect(link).toContain(`page=${body.totalPages}&pageSize=${pageSize}>; rel="last"`)
          if (page < body.totalPages) expect(link).toContain(`page=${page + 1}&pageSize=${pageSize}>; rel="next"`)
          else expect(link).not.toContain('rel="next"')
          if (body.items.length === 0) break
          seen.push(...body.items.map((x: { id: string }) => x.id))
          page++
        }
        expect(seen, `pageSize ${pageSize}`).toEqual(expected)
      }
    })

    it('a page past the end is a 200 with no items; defaults are page 1 and 50', async () => {
      const org = await t.given.organisation('Past')
      await t.given.tenant(org)
      const past = await t.request('GET', `${API}/tenants?page=99`, org.ownerKey)
      expect(past.statusCode).toBe(200)
      expect(past.json()).toEqual({ items: [], page: 99, pageSize: 50, totalCount: 1, totalPages: 1 })
      expect((await t.request('GET', `${API}/tenants`, org.ownerKey)).json()).toMatchObject({ page: 1, pageSize: 50 })
    })
  })
}
