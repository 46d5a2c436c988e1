import { generateKeyPairSync } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { type FakeTable, startFakeBigQuery } from '../fakes/bigquery.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { sampleExport } from '../support/focus-providers.js'
import { costByDayOfRows, snapshotNow, storedCostByDay } from '../support/focus-pull.js'

const API = '/api/public/v1'
const CLIENT_EMAIL = 'costwatch-reader@acme-billing.iam.gserviceaccount.com'
const keyPair = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  })
const account = keyPair()
const serviceAccountKey = (privateKey: string) =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'acme-billing',
    private_key_id: 'k1',
    private_key: privateKey,
    client_email: CLIENT_EMAIL,
    token_uri: 'https://oauth2.googleapis.com/token',
  })

// Google Cloud's FOCUS export of two billing periods, in a fake BigQuery for the whole file.
const sample = sampleExport('google-1.0', { seed: 7, days: 40, resources: 4, firstDay: '2025-09-10' })
const table: FakeTable = {
  name: 'acme-billing.billing.gcp_billing_export_focus_01A2B3_C4D5E6_F7A8B9',
  columns: sample.columns,
  rows: sample.rows.map((row) => ({ ...row })),
}
const fake = await startFakeBigQuery({
  tables: [table],
  account: { clientEmail: CLIENT_EMAIL, publicKey: account.publicKey },
  pageSize: 50,
})
afterAll(() => fake.close())

const costByDay = costByDayOfRows

for (const dialect of testDialects()) {
  describe(`${dialect}: Google Cloud's FOCUS export pulled from BigQuery`, () => {
    const t = useTestApp({ dialect, now: '2025-10-20T09:00:00.000Z', env: { COSTWATCH_BIGQUERY_ENDPOINT: fake.url } })
    const storedByDay = (tenantId: string) => storedCostByDay(t, tenantId)
    const snapshot = (org: OrgContext, tenantId: string) => snapshotNow(t, org, tenantId)
    const connect = async (org: OrgContext, privateKey: string) => {
      const res = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'Google Cloud',
        costSource: 'FocusExport',
        location: {
          type: 'BigQuery',
          projectId: 'acme-billing',
          dataset: 'billing',
          table: 'gcp_billing_export_focus_01A2B3_C4D5E6_F7A8B9',
          serviceAccountKey: serviceAccountKey(privateKey),
        },
      })
      expect(res.statusCode, res.body).toBe(201)
      return res.json()
    }

    it('reads each billing period, skips the unchanged, and replaces a restated one', async () => {
      table.rows = sample.rows.map((row) => ({ ...row }))
      const org = await t.given.organisation()
      const tenant = await connect(org, account.privateKey)
      expect(tenant.location).toMatchObject({ type: 'BigQuery', clientEmail: CLIENT_EMAIL, hasSecret: true })
      expect(JSON.stringify(tenant)).not.toContain('PRIVATE KEY')

      const first = await snapshot(org, tenant.id)
      expect(first).toMatchObject({
        status: 'Succeeded',
        periods: [
          { billingPeriod: '2025-09', replaced: false },
          { billingPeriod: '2025-10', replaced: false },
        ],
      })
      expect(await storedByDay(tenant.id)).toEqual(costByDay(table.rows))
      const record = (await t.request('GET', `${API}/tenants/${tenant.id}`, org.ownerKey)).json()
      expect(record.provider).toBe('GoogleCloud')

      const before = fake.requests.length
      expect(await snapshot(org, tenant.id)).toMatchObject({ status: 'Succeeded', periods: [] })
      // Only the periods' summary was asked for: no period's rows were read again.
      expect(fake.requests.slice(before)).toEqual(['POST /bigquery/v2/projects/acme-billing/queries'])

      // Google restates October: that period alone is read and replaced.
      table.rows = table.rows.map((row) =>
        row.BillingPeriodStart?.startsWith('2025-10')
          ? {
              ...row,
              BilledCost: String(Number(row.BilledCost) * 2),
              EffectiveCost: String(Number(row.EffectiveCost) * 2),
            }
          : row,
      )
      const third = await snapshot(org, tenant.id)
      expect(third).toMatchObject({ status: 'Succeeded', periods: [{ billingPeriod: '2025-10', replaced: true }] })
      expect(await storedByDay(tenant.id)).toEqual(costByDay(table.rows))
    })

    it('fails a pull signed by a key BigQuery does not know, never showing the key', async () => {
      const org = await t.given.organisation()
      const other = keyPair()
      const tenant = await connect(org, other.privateKey)
      const run = await snapshot(org, tenant.id)
      expect(run).toMatchObject({ status: 'Failed', error: { code: 'location_denied' } })
      expect(JSON.stringify(run)).not.toContain('PRIVATE KEY')
      expect(await storedByDay(tenant.id)).toEqual({})
    })

    it('refuses a BigQuery location field by field', async () => {
      const org = await t.given.organisation()
      const res = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'x',
        costSource: 'FocusExport',
        location: {
          type: 'BigQuery',
          projectId: 'A',
          dataset: 'b-c',
          table: 't',
          serviceAccountKey: '{"type":"user"}',
        },
      })
      expect(res.statusCode).toBe(400)
      expect(Object.keys(res.json().errors).sort()).toEqual([
        'location.dataset',
        'location.projectId',
        'location.serviceAccountKey',
      ])
    })
  })
}
