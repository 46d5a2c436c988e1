import { describe, expect, it } from 'vitest'
import { createSimulatedConnector } from '../../src/connectors/simulated/index.js'
import { type OrgContext, TEST_SECRET_KEY, useTestApp } from '../support/app.js'
import { startServer } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
const DIRECTORY_A = '0a0a0a0a-1111-4222-8333-444455556601'
const DIRECTORY_B = '0b0b0b0b-1111-4222-8333-444455556602'
const CLIENT_ID = '0f8fad5b-d9cb-469f-a165-70867728950e'
const THUMBPRINT = 'ABCDEF0123456789ABCDEF0123456789ABCDEF01'
const SECRET = 'canary-tenant-secret~Qp4'

const managedIdentity = (cloudTenantId: string) => ({
  name: 'Host identity',
  cloudTenantId,
  credentialType: 'ManagedIdentity',
})
const certificate = (cloudTenantId: string) => ({
  name: 'Host certificate',
  cloudTenantId,
  credentialType: 'ServicePrincipalCertificate',
  clientId: CLIENT_ID,
  certificateThumbprint: THUMBPRINT,
})

for (const dialect of testDialects()) {
  describe(`${dialect}: the server's own Azure credentials serve only the organisations the operator names`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z', env: { COSTWATCH_CONNECTOR: 'azure' } })
    let a: OrgContext
    let b: OrgContext
    let hostTenantOfA: string

    it('a server of one organisation lets it use them; each creation is audited, with no secret', async () => {
      a = await t.given.organisation('Alpha')
      const mi = await t.request('POST', `${API}/tenants`, a.ownerKey, managedIdentity(DIRECTORY_A))
      expect(mi.statusCode, mi.body).toBe(201)
      hostTenantOfA = mi.json().id
      const cert = await t.request('POST', `${API}/tenants`, a.ownerKey, certificate(DIRECTORY_B))
      expect(cert.statusCode, cert.body).toBe(201)
      const secret = await t.request('POST', `${API}/tenants`, a.ownerKey, {
        name: 'Own secret',
        cloudTenantId: 'alpha.example.com',
        credentialType: 'ServicePrincipalSecret',
        clientId: CLIENT_ID,
        clientSecret: SECRET,
      })
      expect(secret.statusCode, secret.body).toBe(201)

      const entries = await t.services.audit.list({ organisationId: a.organisationId, limit: 10 })
      const created = entries.filter((e) => e.action === 'tenant.created')
      expect(created.map((e) => e.target.id).sort()).toEqual([hostTenantOfA, cert.json().id, secret.json().id].sort())
      expect(created.find((e) => e.target.id === secret.json().id)).toMatchObject({
        target: { type: 'Tenant' },
        actor: { type: 'ApiKey' },
        origin: '127.0.0.1',
        detail: { credentialType: 'ServicePrincipalSecret', clientId: CLIENT_ID, clientSecretStored: true },
      })
      expect(created.find((e) => e.target.id === hostTenantOfA)?.detail).toMatchObject({
        credentialType: 'ManagedIdentity',
        cloudTenantId: DIRECTORY_A,
        clientSecretStored: false,
      })
      expect(JSON.stringify(entries)).not.toContain(SECRET)
    })

    it('refuses a managed identity named by domain: its token is checked against the directory id', async () => {
      const res = await t.request('POST', `${API}/tenants`, a.ownerKey, managedIdentity('alpha.onmicrosoft.com'))
      expect(res.statusCode).toBe(400)
      expect(res.json().errors).toEqual({ cloudTenantId: ['must be the directory id (a GUID) for ManagedIdentity'] })
    })

    it('with a second organisation and no setting, both are refused with a 400 and nothing is created', async () => {
      b = await t.given.organisation('Beta')
      for (const [org, body] of [
        [b, managedIdentity(DIRECTORY_A)],
        [b, certificate(DIRECTORY_B)],
        [a, managedIdentity(DIRECTORY_B)],
      ] as const) {
        const res = await t.request('POST', `${API}/tenants`, org.ownerKey, body)
        expect(res.statusCode, res.body).toBe(400)
        expect(res.headers['content-type']).toContain('application/problem+json')
        expect(res.json().detail).toBe("This organisation may not use the server's own credentials.")
        expect(res.json().errors.credentialType[0]).toContain('COSTWATCH_HOST_CREDENTIAL_ORGS')
      }
      expect((await t.request('GET', `${API}/tenants`, b.ownerKey)).json().totalCount).toBe(0)
      expect((await t.request('GET', `${API}/tenants`, a.ownerKey)).json().totalCount).toBe(3)
    })

    it('a snapshot of a host-credential tenancy of an organisation no longer allowed fails, saying why', async () => {
      const run = (await t.request('POST', `${API}/tenants/${hostTenantOfA}/snapshots`, a.ownerKey)).json()
      // A connector that would answer: only the binding can stop the run.
      const worker = t.worker({ connectors: { azure: createSimulatedConnector() } })
      let now = run
      for (let turn = 0; turn < 5 && (now.status === 'Queued' || now.status === 'Running'); turn++) {
        await worker.runOnce()
        now = (await t.request('GET', `${API}/tenants/${hostTenantOfA}/snapshots/${run.id}`, a.ownerKey)).json()
      }
      expect(now).toMatchObject({ status: 'Failed', error: { code: 'host_credentials_not_allowed' } })
      expect(now.error.message).toContain("ManagedIdentity uses the server's own managed identity")
      expect(
        (await t.request('GET', `${API}/tenants/${hostTenantOfA}/subscriptions`, a.ownerKey)).json().totalCount,
      ).toBe(0)
    })

    it('COSTWATCH_HOST_CREDENTIAL_ORGS lets the organisations it lists use them, and no other', async () => {
      const server = await startServer([], {
        COSTWATCH_DATABASE_URL: t.databaseUrl,
        COSTWATCH_SECRET_KEY: TEST_SECRET_KEY,
        COSTWATCH_CONNECTOR: 'azure',
        COSTWATCH_HOST_CREDENTIAL_ORGS: ` ${b.organisationId.toUpperCase()} ,0c0c0c0c-0000-4000-8000-000000000000`,
      })
      try {
        const post = (key: string, body: unknown) =>
          fetch(`${server.url}${API}/tenants`, {
            method: 'POST',
            headers: { 'x-api-key': key, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
        const allowed = await post(b.ownerKey, managedIdentity(DIRECTORY_A))
        expect(allowed.status, await allowed.clone().text()).toBe(201)
        expect((await post(b.ownerKey, certificate(DIRECTORY_B))).status).toBe(201)
        const refused = await post(a.ownerKey, certificate('0d0d0d0d-1111-4222-8333-444455556603'))
        expect(refused.status).toBe(400)
        const problem = (await refused.json()) as { errors: { credentialType: string[] } }
        expect(problem.errors.credentialType[0]).toContain('COSTWATCH_HOST_CREDENTIAL_ORGS')
      } finally {
        await server.stop()
      }
    })
  })
}
