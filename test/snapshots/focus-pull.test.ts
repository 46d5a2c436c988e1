import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import { afterAll, describe, expect, it } from 'vitest'
import { type OrgContext, useTestApp } from '../support/app.js'
import { ROOT } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'
import { costByDay, restatedCsv, snapshotNow, storedCostByDay } from '../support/focus-pull.js'

const API = '/api/public/v1'
const SMALL = readFileSync(join(ROOT, 'test/fixtures/focus/azure-focus-small.csv'), 'utf8')

// A real S3-compatible server on a free port, for the whole file.
const folder = mkdtempSync(join(tmpdir(), 'costwatch-pull-s3rver-'))
const s3rver = new S3rver({
  port: 0,
  address: '127.0.0.1',
  silent: true,
  directory: folder,
  configureBuckets: [{ name: 'billing' }],
})
const { port } = await s3rver.run()
const endpoint = `http://127.0.0.1:${port}`
const s3 = new S3Client({
  region: 'eu-west-1',
  endpoint,
  forcePathStyle: true,
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
})
afterAll(async () => {
  s3.destroy()
  await s3rver.close()
  rmSync(folder, { recursive: true, force: true })
})

/** The small export moved to another month: the same rows, dated in `month` (`YYYY-MM`). */
const inMonth = (month: string) => SMALL.replaceAll('2025-10-', `${month}-`)
const scaled = (csv: string, factor: number) => restatedCsv(csv, factor)
/** A CSV export split in two files, each with the header, as AWS splits a period's export. */
const inTwoFiles = (csv: string): [string, string] => {
  const [header, ...lines] = csv.trimEnd().split('\n')
  const half = Math.ceil(lines.length / 2)
  return [`${header}\n${lines.slice(0, half).join('\n')}\n`, `${header}\n${lines.slice(half).join('\n')}\n`]
}

for (const dialect of testDialects()) {
  describe(`${dialect}: FOCUS exports pulled from S3`, () => {
    const t = useTestApp({
      dialect,
      now: '2025-10-20T09:00:00.000Z',
      env: { COSTWATCH_OUTBOUND_ALLOW: '127.0.0.1/32' },
    })
    const exportRoot = `${dialect}/exports/focus-daily`

    /** Writes one version of a billing period as AWS does: its files in a folder of their own, then the manifest. */
    const publish = async (period: string, version: string, files: string[], root = exportRoot) => {
      const uris: string[] = []
      for (const [i, csv] of files.entries()) {
        const key = `${root}/data/BILLING_PERIOD=${period}/${version}/focus-daily-0000${i + 1}.csv.gz`
        await s3.send(new PutObjectCommand({ Bucket: 'billing', Key: key, Body: gzipSync(csv) }))
        uris.push(`s3://billing/${key}`)
      }
      const manifest = { executionId: version, billingPeriod: period, dataFiles: uris }
      await s3.send(
        new PutObjectCommand({
          Bucket: 'billing',
          Key: `${root}/metadata/BILLING_PERIOD=${period}/focus-daily-Manifest.json`,
          Body: JSON.stringify(manifest),
        }),
      )
    }
    const storedByDay = (tenantId: string) => storedCostByDay(t, tenantId)
    const snapshot = (org: OrgContext, tenantId: string) => snapshotNow(t, org, tenantId)
    /** Creates a FocusExport tenant pulling the export under `prefix` from s3rver: the API's answer. */
    const exportTenant = (org: OrgContext, name: string, prefix: string, bucket = 'billing') =>
      t.request('POST', `${API}/tenants`, org.ownerKey, {
        name,
        costSource: 'FocusExport',
        location: {
          type: 'S3',
          bucket,
          prefix,
          region: 'eu-west-1',
          accessKeyId: 'S3RVER',
          secretAccessKey: 'S3RVER',
          endpoint,
        },
      })

    it('pulls the files the newest manifests name, skips unchanged periods, and replaces a restated one', async () => {
      const september = [inMonth('2025-09')]
      // An older version of October that AWS has since rewritten: still in the folder, named by no manifest.
      await publish('2025-10', 'exec-0', [scaled(SMALL, 7)])
      await publish('2025-09', 'exec-1', september)
      await publish('2025-10', 'exec-1', [SMALL])
      const org = await t.given.organisation()
      const created = await exportTenant(org, 'AWS prod', exportRoot)
      expect(created.statusCode, created.body).toBe(201)
      const tenant = created.json()

      const first = await snapshot(org, tenant.id)
      expect(first).toMatchObject({
        status: 'Succeeded',
        periods: [
          { billingPeriod: '2025-09', replaced: false, files: [expect.stringContaining('exec-1/')] },
          { billingPeriod: '2025-10', replaced: false, files: [expect.stringContaining('exec-1/')] },
        ],
      })
      expect(await storedByDay(tenant.id)).toEqual(costByDay(...september, SMALL))

      // Nothing changed: nothing is read again, nothing written.
      const second = await snapshot(org, tenant.id)
      expect(second).toMatchObject({ status: 'Succeeded', periods: [] })
      expect(await storedByDay(tenant.id)).toEqual(costByDay(...september, SMALL))

      // October restated into a new folder, in two files: October alone is replaced, never added to.
      const restated = scaled(SMALL, 3)
      const parts = inTwoFiles(restated)
      await publish('2025-10', 'exec-2', parts)
      const third = await snapshot(org, tenant.id)
      expect(third).toMatchObject({
        status: 'Succeeded',
        periods: [{ billingPeriod: '2025-10', replaced: true }],
      })
      expect(third.periods[0].files).toHaveLength(2)
      expect(await storedByDay(tenant.id)).toEqual(costByDay(...september, restated))

      // A manifest naming fewer files: what the dropped file held goes with it.
      await publish('2025-10', 'exec-3', [parts[0]])
      expect((await snapshot(org, tenant.id)).periods).toMatchObject([{ billingPeriod: '2025-10', replaced: true }])
      expect(await storedByDay(tenant.id)).toEqual(costByDay(...september, parts[0]))

      // A version of the month with no rows yet (its header alone): the month holds nothing, September stays.
      await publish('2025-10', 'exec-4', [`${restated.split('\n')[0]}\n`])
      const emptied = await snapshot(org, tenant.id)
      expect(emptied).toMatchObject({
        status: 'Succeeded',
        periods: [{ billingPeriod: '2025-10', rows: 0, replaced: true }],
      })
      expect(await storedByDay(tenant.id)).toEqual(costByDay(...september))
      // The chart's series were rebuilt without October's old rows.
      const chart = await t.request(
        'GET',
        `${API}/tenants/${tenant.id}/costs/daily?from=2025-09-01&to=2025-10-31`,
        org.ownerKey,
      )
      expect(chart.statusCode, chart.body).toBe(200)
      const septemberByDay = costByDay(...september)
      for (const point of chart.json().points as { date: string; cost: number }[])
        expect(point.cost, point.date).toBeCloseTo(septemberByDay[point.date] ?? 0, 2)
      // Unchanged since: the next pull skips it.
      expect((await snapshot(org, tenant.id)).periods).toEqual([])
    })

    it('commits each billing period on its own: a pull stopped by a bad period keeps those before it, and the next goes on', async () => {
      const root = `${exportRoot}-steps`
      const [august, september, october] = [inMonth('2025-08'), inMonth('2025-09'), SMALL]
      // August in two files, a step of its own; September and October, a file each, go together.
      await publish('2025-08', 'exec-1', inTwoFiles(august), root)
      // September's file ends with a row that is not a FOCUS row: its import is refused.
      await publish('2025-09', 'exec-1', [`${september}not,a,cost,row\n`], root)
      await publish('2025-10', 'exec-1', [october], root)
      const org = await t.given.organisation()
      const created = await exportTenant(org, 'AWS in steps', root)
      const tenant = created.json()

      const stopped = await snapshot(org, tenant.id)
      expect(stopped).toMatchObject({ status: 'Failed', error: { code: 'import_rejected' } })
      // The period, and the file as the export names it (never the pull's temporary copy).
      expect(stopped.error.message).toMatch(
        /^Billing periods 2025-09 and 2025-10 were not imported \(the 1 before them were\)\. 1 row could not be read.* First: \S+\/data\/BILLING_PERIOD=2025-09\/exec-1\/focus-daily-00001\.csv\.gz line 30: /,
      )
      expect(stopped.error.message).not.toContain(tmpdir())
      // August, committed before, stays; nothing of September or October is there.
      expect(await storedByDay(tenant.id)).toEqual(costByDay(august))

      await publish('2025-09', 'exec-2', [september], root)
      const resumed = await snapshot(org, tenant.id)
      expect(resumed).toMatchObject({
        status: 'Succeeded',
        periods: [
          { billingPeriod: '2025-09', replaced: false },
          { billingPeriod: '2025-10', replaced: false },
        ],
        conformance: expect.any(Array),
      })
      expect(resumed.stats.costRows).toBeGreaterThan(0)
      expect(await storedByDay(tenant.id)).toEqual(costByDay(august, september, october))
    })

    it('stops the next billing periods, read while a bad one was checked, with the bad one’s error', async () => {
      const root = `${exportRoot}-first-bad`
      // August in two files, the second ending with a row that is not a FOCUS row; September and October, a file
      // each, are the next step, whose files are read while August's are checked and merged.
      const [first, second] = inTwoFiles(inMonth('2025-08'))
      await publish('2025-08', 'exec-1', [first, `${second}not,a,cost,row\n`], root)
      await publish('2025-09', 'exec-1', [inMonth('2025-09')], root)
      await publish('2025-10', 'exec-1', [SMALL], root)
      const org = await t.given.organisation()
      const created = await exportTenant(org, 'AWS with a bad first month', root)
      const tenant = created.json()
      const stopped = await snapshot(org, tenant.id)
      expect(stopped).toMatchObject({ status: 'Failed', error: { code: 'import_rejected' } })
      expect(stopped.error.message).toMatch(/^Billing period 2025-08 was not imported\. 1 row could not be read/)
      expect(await storedByDay(tenant.id)).toEqual({})
      expect(await t.db.kysely.selectFrom('costStaging').select('runId').execute()).toEqual([])
    })

    it('fails a pull clearly when the bucket refuses the key, keeping what was there', async () => {
      await publish('2025-10', 'exec-1', [SMALL])
      const org = await t.given.organisation()
      const created = await exportTenant(org, 'AWS wrong key', exportRoot, 'no-such-bucket')
      const run = await snapshot(org, created.json().id)
      expect(run.status).toBe('Failed')
      expect(run.error).toEqual({ code: 'location_invalid', message: 'The bucket does not exist.' })
      expect(JSON.stringify(run)).not.toContain('S3RVER')
      expect(await storedByDay(created.json().id)).toEqual({})
    })
  })
}
