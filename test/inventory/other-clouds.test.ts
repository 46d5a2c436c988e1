import { describe, expect, it } from 'vitest'
import { useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { exportCsv, type ProviderExport, sampleExport } from '../support/focus-providers.js'
import { costByDayOfRows, uploadAndWait } from '../support/focus-pull.js'

const API = '/api/public/v1'

interface Resource {
  id: string
  armId: string
  name: string
  subscriptionId: string
  resourceGroupName: string | null
  resourceGroupId: string | null
  tags: Record<string, string>
  costs: { last30Days: number }
}

// Resources of clouds without resource groups: their own ids, their accounts or projects, and no group.
for (const dialect of testDialects()) {
  describe(`${dialect}: AWS and Google Cloud resources in the inventory`, () => {
    const t = useTestApp({ dialect, now: '2025-10-25T09:00:00.000Z' })

    for (const provider of ['aws-1.2', 'google-1.0'] satisfies ProviderExport[]) {
      it(`lists ${provider}'s resources by account, each with its record and chart`, async () => {
        const sample = sampleExport(provider, { seed: 5, days: 40, resources: 5, firstDay: '2025-09-10' })
        const org = await t.given.organisation()
        const tenant = (
          await t.request('POST', `${API}/tenants`, org.ownerKey, { name: provider, costSource: 'FocusUpload' })
        ).json()
        const run = await uploadAndWait(t, org, tenant.id, exportCsv(sample), `${provider}.csv`)
        expect(run.status, JSON.stringify(run)).toBe('Succeeded')

        // What the export says of each resource, read from its rows here.
        const expected = new Map<string, { account: string; name: string; tags: string; rows: typeof sample.rows }>()
        for (const row of sample.rows) {
          if (!row.ResourceId) continue
          const known = expected.get(row.ResourceId)
          if (known) known.rows.push(row)
          else
            expected.set(row.ResourceId, {
              account: row.SubAccountId!,
              name: row.ResourceName!,
              tags: row.Tags!,
              rows: [row],
            })
        }
        expect(expected.size).toBe(5)

        const listed = await t.request('GET', `${API}/tenants/${tenant.id}/resources?pageSize=100`, org.ownerKey)
        expect(listed.statusCode, listed.body).toBe(200)
        const items = listed.json().items as Resource[]
        expect(items.map((r) => r.armId).sort()).toEqual([...expected.keys()].sort())
        for (const resource of items) {
          const own = expected.get(resource.armId)!
          expect(resource).toMatchObject({
            name: own.name,
            subscriptionId: own.account,
            resourceGroupName: null,
            resourceGroupId: null,
            tags: JSON.parse(own.tags),
          })
        }

        // The account (or project) filters them as a subscription does, and counts them.
        const [account] = [...new Set([...expected.values()].map((r) => r.account))].sort()
        const ofAccount = (
          await t.request(
            'GET',
            `${API}/tenants/${tenant.id}/resources?subscriptionId=${encodeURIComponent(account!)}`,
            org.ownerKey,
          )
        ).json().items as Resource[]
        const expectedOfAccount = [...expected].filter(([, r]) => r.account === account).map(([id]) => id)
        expect(ofAccount.map((r) => r.armId).sort()).toEqual(expectedOfAccount.sort())
        const subscription = (
          await t.request(
            'GET',
            `${API}/tenants/${tenant.id}/subscriptions/${encodeURIComponent(account!)}`,
            org.ownerKey,
          )
        ).json()
        expect(subscription.resourceCount).toBe(expectedOfAccount.length)
        // No group is made up for them.
        const groups = (await t.request('GET', `${API}/tenants/${tenant.id}/resource-groups`, org.ownerKey)).json()
        expect(groups.items).toEqual([])

        // A resource's record, and its chart: each day is the sum of its rows.
        const chosen = items.find((r) => r.armId === expectedOfAccount[0])!
        const record = await t.request('GET', `${API}/tenants/${tenant.id}/resources/${chosen.id}`, org.ownerKey)
        expect(record.statusCode, record.body).toBe(200)
        expect(record.json()).toMatchObject({ armId: chosen.armId, resourceGroupName: null })
        const byDay = costByDayOfRows(expected.get(chosen.armId)!.rows)
        const chart = await t.request(
          'GET',
          `${API}/tenants/${tenant.id}/costs/daily?scope=resource:${chosen.id}&from=2025-09-10&to=2025-10-19`,
          org.ownerKey,
        )
        expect(chart.statusCode, chart.body).toBe(200)
        const points = chart.json().points as { date: string; cost: number }[]
        expect(points.length).toBe(40)
        for (const point of points) expect(point.cost, point.date).toBeCloseTo(byDay[point.date] ?? 0, 2)
        expect(points.reduce((sum, p) => sum + p.cost, 0)).toBeGreaterThan(0)

        // Their tags split the tenant's chart (and so budgets by tag) as an Azure tenant's do.
        const byEnv = new Map<string, number>()
        for (const row of sample.rows) {
          const env = row.Tags ? (JSON.parse(row.Tags) as Record<string, string>).env : undefined
          const label = env ?? '(no env tag)'
          byEnv.set(label, (byEnv.get(label) ?? 0) + Number(row.EffectiveCost))
        }
        const byTag = await t.request(
          'GET',
          `${API}/tenants/${tenant.id}/costs/daily?from=2025-09-10&to=2025-10-19&groupBy=tag:env`,
          org.ownerKey,
        )
        expect(byTag.statusCode, byTag.body).toBe(200)
        const values = byTag.json().groups as { label: string; cost: number }[]
        expect(values.map((g) => g.label).sort()).toEqual([...byEnv.keys()].sort())
        for (const g of values) expect(g.cost, g.label).toBeCloseTo(byEnv.get(g.label)!, 1)
      })
    }
    it('keeps the newer tags when an older billing period is imported alone', async () => {
      const sample = sampleExport('aws-1.2', { seed: 9, days: 40, resources: 3, firstDay: '2025-09-10' })
      const period = (row: (typeof sample.rows)[number]) => row.BillingPeriodStart!.slice(0, 7)
      const ofPeriod = (month: string, tags: string | null) => ({
        ...sample,
        rows: sample.rows
          .filter((row) => period(row) === month)
          .map((row) => (row.ResourceId && tags ? { ...row, Tags: tags } : row)),
      })
      const org = await t.given.organisation()
      const tenant = (
        await t.request('POST', `${API}/tenants`, org.ownerKey, { name: 'AWS', costSource: 'FocusUpload' })
      ).json()
      const tagsOf = async () =>
        (
          (await t.request('GET', `${API}/tenants/${tenant.id}/resources?pageSize=100`, org.ownerKey)).json()
            .items as Resource[]
        ).map((r) => r.tags)
      const september = exportCsv(ofPeriod('2025-09', '{"env":"legacy"}'))
      const october = exportCsv(ofPeriod('2025-10', '{"env":"prod"}'))
      expect((await uploadAndWait(t, org, tenant.id, september, 'september.csv')).status).toBe('Succeeded')
      expect(await tagsOf()).toEqual([{ env: 'legacy' }, { env: 'legacy' }, { env: 'legacy' }])
      expect((await uploadAndWait(t, org, tenant.id, october, 'october.csv')).status).toBe('Succeeded')
      expect(await tagsOf()).toEqual([{ env: 'prod' }, { env: 'prod' }, { env: 'prod' }])
      // September restated alone: its rows are older than October's, so the resources keep October's tags, and a
      // chart by tag groups every day by them.
      const restated = exportCsv(ofPeriod('2025-09', '{"env":"restated"}'))
      expect((await uploadAndWait(t, org, tenant.id, restated, 'september-restated.csv')).status).toBe('Succeeded')
      expect(await tagsOf()).toEqual([{ env: 'prod' }, { env: 'prod' }, { env: 'prod' }])
      const byTag = (
        await t.request(
          'GET',
          `${API}/tenants/${tenant.id}/costs/daily?from=2025-09-10&to=2025-10-19&groupBy=tag:env`,
          org.ownerKey,
        )
      ).json().groups as { label: string }[]
      expect(byTag.map((g) => g.label).sort()).toEqual(['(no env tag)', 'prod'])
    })
  })
}
