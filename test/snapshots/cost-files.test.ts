import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { OrgContext } from '../support/app.js'
import { useTestApp } from '../support/app.js'
import { ROOT } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'
import { costByDay, restatedCsv, storedCostByDay } from '../support/focus-pull.js'

const API = '/api/public/v1'
const SMALL = readFileSync(join(ROOT, 'test/fixtures/focus/azure-focus-small.csv'))

/** The file with every cost multiplied by `factor` and the rows of `dropResource` left out: a restatement. */
const restated = (file: Buffer, factor: number, dropResource: string) =>
  Buffer.from(restatedCsv(file, factor, (row) => !row.ResourceId!.includes(dropResource)))

for (const dialect of testDialects()) {
  describe(`${dialect}: tenants of FOCUS files`, () => {
    const t = useTestApp({ dialect, now: '2025-10-20T09:00:00.000Z', env: { COSTWATCH_UPLOAD_MAX_MB: '1' } })

    const uploadTenant = async (org: OrgContext, name = 'AWS prod') => {
      const res = await t.request('POST', `${API}/tenants`, org.ownerKey, { name, costSource: 'FocusUpload' })
      expect(res.statusCode, res.body).toBe(201)
      return res.json()
    }
    const upload = (org: OrgContext, tenantId: string, body: Buffer, type = 'text/csv', name = 'export.csv') =>
      t.request('POST', `${API}/tenants/${tenantId}/cost-files?fileName=${name}`, org.ownerKey, body, {
        'content-type': type,
      })
    /** Polls the run until it is over (the import goes on after the 202). */
    const settled = async (org: OrgContext, location: string) => {
      for (let i = 0; i < 200; i++) {
        const run = (await t.request('GET', location, org.ownerKey)).json()
        if (run.status === 'Succeeded' || run.status === 'Failed') return run
        await new Promise((r) => setTimeout(r, 50))
      }
      throw new Error('the import did not finish')
    }
    const storedByDay = (tenantId: string) => storedCostByDay(t, tenantId)

    it('creates a FocusUpload tenant without cloud credentials, and refuses theirs', async () => {
      const org = await t.given.organisation()
      const tenant = await uploadTenant(org)
      expect(tenant).toMatchObject({
        name: 'AWS prod',
        costSource: 'FocusUpload',
        cloudTenantId: null,
        credentialType: null,
        provider: null,
        location: null,
        hasClientSecret: false,
      })
      expect((await t.request('GET', `${API}/tenants/${tenant.id}`, org.ownerKey)).json().costSource).toBe(
        'FocusUpload',
      )
      const refused = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'x',
        costSource: 'FocusUpload',
        credentialType: 'ServicePrincipalSecret',
        clientSecret: 'not-for-files',
      })
      expect(refused.statusCode).toBe(400)
      expect(refused.json().errors).toEqual({
        credentialType: ['is not used with FocusUpload'],
        clientSecret: ['is not used with FocusUpload'],
      })
      expect(refused.body).not.toContain('not-for-files')
      const azure = await t.request('POST', `${API}/tenants`, org.ownerKey, { name: 'x' })
      expect(azure.statusCode).toBe(400)
      expect(Object.keys(azure.json().errors).sort()).toEqual(['cloudTenantId', 'credentialType'])
      // The specification's tenant is unchanged: an Azure tenant by default.
      const plain = await t.given.tenant(org)
      expect(plain).toMatchObject({ costSource: 'AzureConnector', provider: 'Azure', location: null })
      expect(plain.cloudTenantId).toMatch(/\./)
    })

    it('checks a FocusExport location field by field and never echoes its secret', async () => {
      const org = await t.given.organisation()
      const bad = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'AWS prod',
        costSource: 'FocusExport',
        location: {
          type: 'S3',
          bucket: 'Not_A_Bucket',
          prefix: 'exports/focus',
          region: 'moon',
          secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
          endpoint: 'http://10.0.0.8:9000',
        },
      })
      expect(bad.statusCode).toBe(400)
      expect(Object.keys(bad.json().errors).sort()).toEqual([
        'location.accessKeyId',
        'location.bucket',
        'location.endpoint',
        'location.region',
      ])
      expect(bad.body).not.toContain('wJalrXUtnFEMI')
      expect(
        (await t.request('POST', `${API}/tenants`, org.ownerKey, { name: 'y', costSource: 'FocusExport' })).json()
          .errors,
      ).toEqual({
        location: ['is required for the FocusExport cost source'],
      })
      const ok = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'AWS prod',
        costSource: 'FocusExport',
        location: {
          type: 'S3',
          bucket: 'billing-exports',
          prefix: '/exports/focus/',
          region: 'eu-west-1',
          accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
          secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        },
      })
      expect(ok.statusCode, ok.body).toBe(201)
      expect(ok.json()).toMatchObject({
        costSource: 'FocusExport',
        cloudTenantId: null,
        location: {
          type: 'S3',
          bucket: 'billing-exports',
          prefix: 'exports/focus',
          region: 'eu-west-1',
          endpoint: null,
          accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
          hasSecret: true,
        },
      })
      const list = await t.request('GET', `${API}/tenants`, org.ownerKey)
      const audit = JSON.stringify(await t.db.kysely.selectFrom('auditLog').selectAll().execute())
      expect(audit).toContain('billing-exports')
      for (const body of [ok.body, list.body, audit]) expect(body).not.toContain('wJalrXUtnFEMI')
    })

    it('imports an uploaded file as a run, replaces its billing period on a restatement, and never double counts', async () => {
      const org = await t.given.organisation()
      const tenant = await uploadTenant(org)
      const first = await upload(org, tenant.id, SMALL, 'text/csv', 'azure-focus-small.csv')
      expect(first.statusCode, first.body).toBe(202)
      expect(first.json()).toMatchObject({ tenantId: tenant.id, trigger: 'Import' })
      const run = await settled(org, first.headers.location as string)
      expect(run).toMatchObject({
        status: 'Succeeded',
        periods: [{ billingPeriod: '2025-10', files: ['azure-focus-small.csv'], replaced: false }],
      })
      expect(run.periods[0].rows).toBeGreaterThan(0)
      expect(await storedByDay(tenant.id)).toEqual(costByDay(SMALL))

      // The same file again, gzipped: the period is replaced by itself.
      const again = await upload(org, tenant.id, gzipSync(SMALL), 'application/gzip', 'azure-focus-small.csv.gz')
      expect(again.statusCode, again.body).toBe(202)
      expect((await settled(org, again.headers.location as string)).periods).toMatchObject([
        { billingPeriod: '2025-10', replaced: true },
      ])
      expect(await storedByDay(tenant.id)).toEqual(costByDay(SMALL))

      // A restatement with other costs and a resource fewer: the period holds the new version alone.
      const newer = restated(SMALL, 2, 'dnszones/contoso.com')
      const third = await upload(org, tenant.id, newer)
      expect((await settled(org, third.headers.location as string)).status).toBe('Succeeded')
      expect(await storedByDay(tenant.id)).toEqual(costByDay(newer))
      const series = await t.request(
        'GET',
        `${API}/tenants/${tenant.id}/costs/daily?from=2025-10-01&to=2025-10-20`,
        org.ownerKey,
      )
      expect(series.statusCode, series.body).toBe(200)
    })

    it('refuses what a FocusUpload tenant cannot take, clearly, changing nothing', async () => {
      const org = await t.given.organisation()
      const tenant = await uploadTenant(org)
      const snapshot = await t.request('POST', `${API}/tenants/${tenant.id}/snapshots`, org.ownerKey)
      expect(snapshot.statusCode).toBe(409)
      expect(snapshot.json().detail).toContain('cost-files')
      const azure = await t.given.tenant(org)
      const toAzure = await upload(org, azure.id, SMALL)
      expect(toAzure.statusCode).toBe(409)
      const empty = await upload(org, tenant.id, Buffer.alloc(0))
      expect(empty.statusCode).toBe(400)
      const big = await upload(org, tenant.id, Buffer.alloc(1024 * 1024 + 10, 'a'))
      expect(big.statusCode).toBe(413)
      expect(big.json().detail).toContain('COSTWATCH_UPLOAD_MAX_MB')
      const badName = await upload(org, tenant.id, SMALL, 'text/csv', '..%2Fetc%2Fpasswd')
      expect(badName.statusCode).toBe(400)
      const json = await t.request('POST', `${API}/tenants/${tenant.id}/cost-files`, org.ownerKey, { a: 1 })
      expect(json.statusCode).toBe(415)
      const viewer = await t.given.key(org, [{ tenancyId: tenant.id, role: 'Viewer' }])
      const asViewer = await t.request('POST', `${API}/tenants/${tenant.id}/cost-files`, viewer.apiKey, SMALL, {
        'content-type': 'text/csv',
      })
      expect(asViewer.statusCode).toBe(403)
      const runs = (await t.request('GET', `${API}/tenants/${tenant.id}/snapshots`, org.ownerKey)).json()
      expect(runs.items).toEqual([])
    })

    it('never schedules a daily collection for a tenant whose files are pushed to it', async () => {
      const org = await t.given.organisation()
      const pushed = await uploadTenant(org)
      const azure = await t.given.tenant(org)
      const queued = await t.services.snapshots.scheduleDaily(
        new Date('2025-10-20T09:00:00.000Z'),
        2,
        t.services.tenantStore.scheduledIds,
      )
      expect(queued).toBeGreaterThan(0)
      const runsOf = async (id: string) =>
        (await t.request('GET', `${API}/tenants/${id}/snapshots`, org.ownerKey)).json().items
      expect(await runsOf(pushed.id)).toEqual([])
      expect(await runsOf(azure.id)).toMatchObject([{ trigger: 'Scheduled' }])
    })
  })
}
