import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import { afterAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { seedCosts } from './seed.js'

const API = '/api/public/v1'

// A real S3-compatible server on a free port, for the whole file.
const folder = mkdtempSync(join(tmpdir(), 'costwatch-s3rver-'))
const s3rver = new S3rver({
  port: 0,
  address: '127.0.0.1',
  silent: true,
  directory: folder,
  configureBuckets: [{ name: 'reports' }],
})
const { port } = await s3rver.run()
const endpoint = `http://127.0.0.1:${port}`
afterAll(async () => {
  await s3rver.close()
  rmSync(folder, { recursive: true, force: true })
})

for (const dialect of testDialects()) {
  describe(`${dialect}: report files in an S3 bucket`, () => {
    const t = useTestApp({
      dialect,
      env: {
        COSTWATCH_SNAPSHOT_HOUR: '23',
        COSTWATCH_BLOB_URL: `s3://reports/${dialect}/files`,
        COSTWATCH_S3_ENDPOINT: endpoint,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
      },
    })

    it('stores the three files of a run under the prefix and serves them from there', async () => {
      const org = await t.given.organisation()
      const tenant = await t.given.tenant(org)
      await seedCosts(
        t.db,
        tenant.id,
        [
          { name: 'vm-a', daily: 4 },
          { name: 'vm-b', daily: 1.5, group: 'rg-b' },
        ],
        {
          last: '2026-03-01',
          days: 3,
        },
      )
      const report = (
        await t.request('POST', `${API}/reports`, org.ownerKey, {
          name: 'By group',
          kind: 'CostByDimension',
          parameters: { dimension: 'ResourceGroup', period: 'Last30Days' },
          tenancyIds: [tenant.id],
        })
      ).json()
      const queued = (await t.request('POST', `${API}/reports/${report.id}/runs`, org.ownerKey)).json()
      while (await t.worker().runOnce()) {}

      const client = new S3Client({
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      })
      const listed = await client.send(new ListObjectsV2Command({ Bucket: 'reports', Prefix: `${dialect}/files/` }))
      expect((listed.Contents ?? []).map((o) => o.Key).sort()).toEqual(
        ['csv', 'pdf', 'xlsx'].map((f) => `${dialect}/files/report-runs/${queued.id}/report.${f}`),
      )

      const pdf = await t.request('GET', `${API}/reports/${report.id}/runs/${queued.id}/pdf`, org.ownerKey)
      expect(pdf.statusCode).toBe(200)
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
      const redirect = await t.request('GET', `${API}/reports/${report.id}/runs/${queued.id}/csv`, org.ownerKey)
      expect(redirect.statusCode).toBe(302)
      const signed = new URL(redirect.headers.location as string)
      const csv = await t.request('GET', signed.pathname + signed.search, null)
      expect(csv.statusCode).toBe(200)
      expect(csv.body.replace(/^\uFEFF/, '')).toBe(
        'Resource group,Subscription,Cost,Currency\r\nrg-main,sub-a,12,USD\r\nrg-b,sub-a,4.5,USD\r\n',
      )

      expect((await t.request('DELETE', `${API}/reports/${report.id}`, org.ownerKey)).statusCode).toBe(204)
      const after = await client.send(new ListObjectsV2Command({ Bucket: 'reports', Prefix: `${dialect}/files/` }))
      expect(after.Contents ?? []).toEqual([])
    })
  })
}
