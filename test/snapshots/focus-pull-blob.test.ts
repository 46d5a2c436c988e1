import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import {
  BlobServiceClient,
  type ContainerClient,
  ContainerSASPermissions,
  generateBlobSASQueryParameters,
  type StoragePipelineOptions,
  StorageSharedKeyCredential,
} from '@azure/storage-blob'
import { afterAll, describe, expect, it } from 'vitest'
import { sampleEstate } from '../fakes/azure/data.js'
import { startFakeAzure } from '../fakes/azure/server.js'
import { fetchTrusting, selfSignedCertificate } from '../fakes/azure/tls.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { AZURITE_ACCOUNT, AZURITE_KEY, startAzurite } from '../support/azurite.js'
import { ROOT } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'
import { costByDay, restatedCsv, snapshotNow, storedCostByDay } from '../support/focus-pull.js'

const API = '/api/public/v1'
const SMALL = readFileSync(join(ROOT, 'test/fixtures/focus/azure-focus-small.csv'), 'utf8')

// A real Azure Blob Storage emulator for the whole file.
const azurite = await startAzurite()
afterAll(() => azurite.stop())
const credential = new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY)
const service = new BlobServiceClient(azurite.blobUrl, credential)
const container = service.getContainerClient('exports')
await container.createIfNotExists()
const containerUrl = `${azurite.blobUrl}/exports`
const sas = (permissions: string) =>
  generateBlobSASQueryParameters(
    {
      containerName: 'exports',
      permissions: ContainerSASPermissions.parse(permissions),
      expiresOn: new Date(Date.now() + 3_600_000),
    },
    credential,
  ).toString()

const scaled = (csv: string, factor: number) => restatedCsv(csv, factor)

// Signing in with a service principal: Azurite takes bearer tokens over https alone, and a fake Entra issues them,
// both with a throwaway certificate that the test's client and the app's pull alone trust.
const tls = selfSignedCertificate('127.0.0.1', 'IP:127.0.0.1')
const DIRECTORY = 'c0ffee00-1111-4222-8333-444455556666'
const APP = '11111111-aaaa-4bbb-8ccc-000000000001'
const SECRET = 'Zq9~canary-blob-client-secret_for-the-pull-test'
const azuriteTls = await startAzurite({ tls })
afterAll(() => azuriteTls.stop())
const entra = await startFakeAzure({
  tls,
  tenantId: DIRECTORY,
  apps: [{ clientId: APP, secret: SECRET }],
  managedIdentities: [],
  identityHeader: 'unused',
  estate: sampleEstate(),
})
afterAll(() => entra.close())
// `tlsOptions` is the core pipeline's option, which the storage client passes on without declaring it.
const trusting = { tlsOptions: { ca: tls.certificate } } as StoragePipelineOptions
const tlsContainer = new BlobServiceClient(azuriteTls.blobUrl, credential, trusting).getContainerClient('exports')
await tlsContainer.createIfNotExists()
const tlsContainerUrl = `${azuriteTls.blobUrl}/exports`
/** How the app's pull reaches the fake Entra and the https Azurite. */
const pullOptions = { azureFetch: fetchTrusting(tls.certificate), tlsCa: tls.certificate }

/** One run of a Cost Management export in `into`: its files in a folder of their own, then its manifest.json. */
async function uploadExportRun(
  into: ContainerClient,
  root: string,
  runId: string,
  submittedTime: string,
  files: string[],
) {
  const folder = `${root}/20251001-20251031/${runId}`
  const blobs: { blobName: string; byteCount: number }[] = []
  for (const [i, csv] of files.entries()) {
    const blobName = `${folder}/part_0_000${i + 1}.csv.gz`
    const body = gzipSync(csv)
    await into.getBlockBlobClient(blobName).uploadData(body)
    blobs.push({ blobName, byteCount: body.length })
  }
  const manifest = {
    manifestVersion: '2024-04-01',
    blobCount: blobs.length,
    exportConfig: { exportName: 'focus-cost', type: 'FocusCost', dataVersion: '1.0' },
    runInfo: { runId, submittedTime, startDate: '2025-10-01T00:00:00', endDate: '2025-10-31T00:00:00' },
    blobs,
  }
  await into.getBlockBlobClient(`${folder}/manifest.json`).uploadData(Buffer.from(JSON.stringify(manifest)))
}

for (const dialect of testDialects()) {
  describe(`${dialect}: FOCUS exports pulled from Azure Blob Storage`, () => {
    const t = useTestApp({
      dialect,
      now: '2025-10-20T09:00:00.000Z',
      env: { COSTWATCH_OUTBOUND_ALLOW: '127.0.0.1/32' },
    })
    const root = `${dialect}/costs/focus-cost`

    /** One run of a Cost Management export: its files in a folder of their own, then its manifest.json. */
    const exportRun = (runId: string, submittedTime: string, files: string[]) =>
      uploadExportRun(container, root, runId, submittedTime, files)
    const storedByDay = (tenantId: string) => storedCostByDay(t, tenantId)
    const snapshot = (org: OrgContext, tenantId: string) => snapshotNow(t, org, tenantId)
    const connect = async (org: OrgContext, sasToken: string) => {
      const res = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'Azure export',
        costSource: 'FocusExport',
        location: { type: 'AzureBlob', containerUrl, prefix: `/${root}/`, sasToken },
      })
      expect(res.statusCode, res.body).toBe(201)
      return res.json()
    }

    it("pulls each billing period's newest run, skips it unchanged, and replaces it when restated", async () => {
      await exportRun('run-1', '2025-10-18T02:00:00Z', [SMALL])
      const org = await t.given.organisation()
      const token = sas('rl')
      const tenant = await connect(org, token)
      expect(tenant.location).toEqual({ type: 'AzureBlob', prefix: root, containerUrl, auth: 'Sas', hasSecret: true })
      expect(JSON.stringify(tenant)).not.toContain(token)

      const first = await snapshot(org, tenant.id)
      expect(first).toMatchObject({
        status: 'Succeeded',
        periods: [{ billingPeriod: '2025-10', replaced: false, files: [expect.stringContaining('run-1/')] }],
      })
      expect(await storedByDay(tenant.id)).toEqual(costByDay(SMALL))
      expect((await t.request('GET', `${API}/tenants/${tenant.id}`, org.ownerKey)).json().provider).toBe('Azure')

      expect(await snapshot(org, tenant.id)).toMatchObject({ status: 'Succeeded', periods: [] })

      // A later run restates the month in two files; the earlier run's folder stays in the container.
      const restated = scaled(SMALL, 2)
      const [header, ...lines] = restated.trimEnd().split('\n')
      const half = Math.ceil(lines.length / 2)
      await exportRun('run-2', '2025-10-19T02:00:00Z', [
        `${header}\n${lines.slice(0, half).join('\n')}\n`,
        `${header}\n${lines.slice(half).join('\n')}\n`,
      ])
      const third = await snapshot(org, tenant.id)
      expect(third).toMatchObject({ status: 'Succeeded', periods: [{ billingPeriod: '2025-10', replaced: true }] })
      expect(third.periods[0].files).toHaveLength(2)
      expect(await storedByDay(tenant.id)).toEqual(costByDay(restated))
    })

    it('fails a pull whose SAS cannot list the container, naming it without the SAS', async () => {
      const org = await t.given.organisation()
      const token = sas('r')
      const tenant = await connect(org, token)
      const run = await snapshot(org, tenant.id)
      expect(run.status).toBe('Failed')
      expect(run.error.code).toBe('location_denied')
      expect(JSON.stringify(run)).not.toContain(token.split('sig=')[1]!.slice(0, 10))
      expect(await storedByDay(tenant.id)).toEqual({})
    })

    it('reads a location stored before service principals as signed in with its SAS, and pulls with it', async () => {
      await exportRun('run-1', '2025-10-18T02:00:00Z', [SMALL])
      const org = await t.given.organisation()
      const tenant = await connect(org, sas('rl'))
      const legacy = JSON.stringify({ type: 'AzureBlob', prefix: root, containerUrl })
      await t.db.kysely.updateTable('tenants').set({ locationJson: legacy }).where('id', '=', tenant.id).execute()
      const read = (await t.request('GET', `${API}/tenants/${tenant.id}`, org.ownerKey)).json()
      expect(read.location).toEqual({ type: 'AzureBlob', prefix: root, containerUrl, auth: 'Sas', hasSecret: true })
      // The export's newest run of the month (the first test's restatement, when it ran before) is read with the SAS.
      expect(await snapshot(org, tenant.id)).toMatchObject({
        status: 'Succeeded',
        periods: [{ billingPeriod: '2025-10' }],
      })
      expect(Object.keys(await storedByDay(tenant.id)).length).toBeGreaterThan(0)
    })

    it('refuses an AzureBlob location field by field', async () => {
      const org = await t.given.organisation()
      const res = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'x',
        costSource: 'FocusExport',
        location: { type: 'AzureBlob', prefix: 'p', containerUrl: `${containerUrl}?sv=1`, bucket: 'b' },
      })
      expect(res.statusCode).toBe(400)
      expect(Object.keys(res.json().errors).sort()).toEqual([
        'location.bucket',
        'location.containerUrl',
        'location.sasToken',
      ])
    })
  })

  describe(`${dialect}: FOCUS exports pulled from Azure Blob Storage with a service principal`, () => {
    const t = useTestApp({
      dialect,
      now: '2025-10-20T09:00:00.000Z',
      env: { COSTWATCH_OUTBOUND_ALLOW: '127.0.0.1/32', COSTWATCH_AZURE_AUTHORITY_HOST: entra.url },
    })
    const root = `${dialect}/sp/focus-cost`
    const principal = { tenantId: DIRECTORY, clientId: APP, clientSecret: SECRET }
    const connect = async (org: OrgContext, signIn: Record<string, string>) =>
      t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'Azure export',
        costSource: 'FocusExport',
        location: { type: 'AzureBlob', containerUrl: tlsContainerUrl, prefix: root, ...signIn },
      })
    const tenantsOf = async (org: OrgContext) =>
      (await t.request('GET', `${API}/tenants`, org.ownerKey)).json().totalCount

    it('signs in with the service principal, pulls the export, and never shows the secret', async () => {
      await uploadExportRun(tlsContainer, root, 'run-1', '2025-10-18T02:00:00Z', [SMALL])
      const org = await t.given.organisation()
      const created = await connect(org, principal)
      expect(created.statusCode, created.body).toBe(201)
      expect(created.body).not.toContain(SECRET)
      const tenant = created.json()
      expect(tenant.location).toEqual({
        type: 'AzureBlob',
        prefix: root,
        containerUrl: tlsContainerUrl,
        auth: 'ServicePrincipal',
        tenantId: DIRECTORY,
        clientId: APP,
        hasSecret: true,
      })
      const read = await t.request('GET', `${API}/tenants/${tenant.id}`, org.ownerKey)
      expect(read.json().location).toEqual(tenant.location)
      expect(read.body).not.toContain(SECRET)

      const before = entra.issued.length
      const run = await snapshotNow(t, org, tenant.id, { pullOptions })
      expect(run, JSON.stringify(run.error)).toMatchObject({
        status: 'Succeeded',
        periods: [{ billingPeriod: '2025-10', replaced: false, files: [expect.stringContaining('run-1/')] }],
      })
      expect(await storedCostByDay(t, tenant.id)).toEqual(costByDay(SMALL))
      // The token the storage took was Entra's for Storage, asked with the client secret.
      expect(entra.issued.slice(before)).toContainEqual(
        expect.objectContaining({ grant: 'client_secret', clientId: APP, audience: 'https://storage.azure.com' }),
      )
    })

    it('fails a pull whose client secret Entra refuses, naming the sign-in and not the secret', async () => {
      const org = await t.given.organisation()
      const wrong = 'Zq9~a-wrong-secret-for-the-blob-pull'
      const created = await connect(org, { ...principal, clientSecret: wrong })
      expect(created.statusCode, created.body).toBe(201)
      const run = await snapshotNow(t, org, created.json().id, { pullOptions })
      expect(run.status).toBe('Failed')
      expect(run.error.code).toBe('auth_failed')
      expect(run.error.message).toContain(`client ${APP}`)
      expect(run.error.message).toContain('could not get an access token')
      expect(run.error.message).toContain('Invalid client secret')
      expect(JSON.stringify(run)).not.toContain(wrong)
      expect(await storedCostByDay(t, created.json().id)).toEqual({})
    })

    it('refuses a location with both sign-ins, with neither, or with part of the service principal', async () => {
      const org = await t.given.organisation()
      const errorsOf = async (signIn: Record<string, string>) => {
        const res = await connect(org, signIn)
        expect(res.statusCode, res.body).toBe(400)
        expect(res.headers['content-type']).toContain('application/problem+json')
        expect(res.body).not.toContain(SECRET)
        return res.json().errors
      }
      const both = await errorsOf({ ...principal, sasToken: 'sv=2024&sig=abc' })
      expect(Object.keys(both)).toEqual(['location.sasToken'])
      expect(both['location.sasToken'][0]).toContain('tenantId, clientId, clientSecret')
      expect(await errorsOf({})).toEqual({
        'location.sasToken': ['is required for AzureBlob, or tenantId, clientId and clientSecret'],
      })
      expect(Object.keys(await errorsOf({ tenantId: DIRECTORY })).sort()).toEqual([
        'location.clientId',
        'location.clientSecret',
      ])
      expect(Object.keys(await errorsOf({ clientSecret: SECRET })).sort()).toEqual([
        'location.clientId',
        'location.tenantId',
      ])
      expect(await errorsOf({ ...principal, clientId: 'not-a-guid' })).toEqual({
        'location.clientId': ['must be a GUID'],
      })
      expect(Object.keys(await errorsOf({ ...principal, tenantId: 'not a directory' }))).toEqual(['location.tenantId'])
      expect(await tenantsOf(org)).toBe(0)
    })

    it("refuses the service principal's fields for other location types, and the connector's beside a location", async () => {
      const org = await t.given.organisation()
      const s3 = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'x',
        costSource: 'FocusExport',
        location: {
          type: 'S3',
          bucket: 'costs',
          region: 'eu-west-1',
          prefix: 'p',
          accessKeyId: 'AKIA1',
          secretAccessKey: 's',
          ...principal,
        },
      })
      expect(s3.statusCode).toBe(400)
      expect(s3.json().errors).toEqual({
        'location.tenantId': ['is not used with S3'],
        'location.clientId': ['is not used with S3'],
        'location.clientSecret': ['is not used with S3'],
      })
      // The connector's own clientId, beside a location's: refused under its own name, the location's left alone.
      const connector = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'x',
        costSource: 'FocusExport',
        clientId: APP,
        location: { type: 'AzureBlob', containerUrl: tlsContainerUrl, prefix: root, ...principal },
      })
      expect(connector.statusCode).toBe(400)
      expect(connector.json().errors).toEqual({ clientId: ['is not used with FocusExport'] })
      expect(await tenantsOf(org)).toBe(0)
    })
  })
}
