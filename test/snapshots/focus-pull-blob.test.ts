import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import {
  BlobServiceClient,
  ContainerSASPermissions,
  generateBlobSASQueryParameters,
  StorageSharedKeyCredential,
} from '@azure/storage-blob'
import { afterAll, describe, expect, it } from 'vitest'
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

for (const dialect of testDialects()) {
  describe(`${dialect}: FOCUS exports pulled from Azure Blob Storage`, () => {
    const t = useTestApp({
      dialect,
      now: '2025-10-20T09:00:00.000Z',
      env: { COSTWATCH_OUTBOUND_ALLOW: '127.0.0.1/32' },
    })
    const root = `${dialect}/costs/focus-cost`

    /** One run of a Cost Management export: its files in a folder of their own, then its manifest.json. */
    const exportRun = async (runId: string, submittedTime: string, files: string[]) => {
      const folder = `${root}/20251001-20251031/${runId}`
      const blobs: { blobName: string; byteCount: number }[] = []
      for (const [i, csv] of files.entries()) {
        const blobName = `${folder}/part_0_000${i + 1}.csv.gz`
        const body = gzipSync(csv)
        await container.getBlockBlobClient(blobName).uploadData(body)
        blobs.push({ blobName, byteCount: body.length })
      }
      const manifest = {
        manifestVersion: '2024-04-01',
        blobCount: blobs.length,
        exportConfig: { exportName: 'focus-cost', type: 'FocusCost', dataVersion: '1.0' },
        runInfo: { runId, submittedTime, startDate: '2025-10-01T00:00:00', endDate: '2025-10-31T00:00:00' },
        blobs,
      }
      await container.getBlockBlobClient(`${folder}/manifest.json`).uploadData(Buffer.from(JSON.stringify(manifest)))
    }
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
      expect(tenant.location).toEqual({ type: 'AzureBlob', prefix: root, containerUrl, hasSecret: true })
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
}
