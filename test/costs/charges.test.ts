import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DailyCostRow } from '../../src/connectors/types.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { costRow, costRowsOf } from '../support/cost-rows.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
const SUB = '33333333-cccc-4ccc-8ccc-333333333333'
const VM = `/subscriptions/${SUB}/resourcegroups/app/providers/microsoft.compute/virtualmachines/vm-1`
const HEADER =
  'BilledCost,BillingCurrency,ChargeCategory,ChargeClass,ChargeDescription,ChargePeriodStart,EffectiveCost,ResourceId,ResourceName,ServiceName,SubAccountId,SubAccountName,Tags,x_ResourceGroupName,x_SkuMeterId'
const line = (category: string, chargeClass: string, description: string, resource: string, cost: string) =>
  [
    cost,
    'EUR',
    category,
    chargeClass,
    description,
    '2025-10-15T00:00:00Z',
    cost,
    resource,
    resource ? 'vm-1' : '',
    resource ? 'Virtual Machines' : 'Support',
    `/subscriptions/${SUB}`,
    'Charges',
    resource ? '"{""team"":""platform""}"' : '',
    resource ? 'app' : '',
    resource ? 'meter-vm' : '',
  ].join(',')
// One day of one subscription: usage of a VM's meter, a correction of that usage (same meter, category and day),
// a support purchase and the tax on it.
const FILE = [
  HEADER,
  line('Usage', '', 'D2s v3', VM, '10.00'),
  line('Usage', 'Correction', 'D2s v3', VM, '-1.50'),
  line('Purchase', '', 'Support plan', '', '100.00'),
  line('Tax', '', 'VAT', '', '19.00'),
].join('\n')

const row = (over: Partial<DailyCostRow>) => costRow({ subscriptionId: SUB, resourceArmId: VM, ...over })

for (const dialect of testDialects()) {
  describe(`${dialect}: charge categories and the daily series`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z' })
    let org: OrgContext
    let dir: string
    const get = async (tenant: TenantRecord, path: string) => {
      const res = await t.request('GET', `${API}/tenants/${tenant.id}${path}`, org.ownerKey)
      expect(res.statusCode, res.body).toBe(200)
      return res.json()
    }
    const storedRows = async (tenantId: string) =>
      (
        await costRowsOf(t.db.kysely, tenantId)
          .select(['resourceKey', 'meterId', 'chargeCategory', 'chargeClass', 'cost'])
          .orderBy('chargeCategory')
          .orderBy('chargeClass')
          .orderBy('resourceKey')
          .execute()
      ).map((r) => [r.resourceKey, r.chargeCategory, r.chargeClass, r.cost])

    beforeAll(async () => {
      org = await t.given.organisation()
      dir = mkdtempSync(join(tmpdir(), 'costwatch-charges-'))
    })
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    it('keeps usage, a correction, a purchase and a tax apart in the key, counts them all in charts, and re-imports idempotently', async () => {
      const tenant = await t.given.tenant(org)
      const file = join(dir, `${dialect}.csv`)
      writeFileSync(file, FILE)
      const expected = [
        ['', 'Purchase', '', 100],
        ['', 'Tax', '', 19],
        [VM, 'Usage', '', 10],
        [VM, 'Usage', 'Correction', -1.5],
      ]
      for (let i = 0; i < 2; i++) {
        await t.services.importFocus(tenant.id, [file])
        expect(await storedRows(tenant.id)).toEqual(expected)
        const chart = await get(tenant, '/costs/daily?from=2025-10-14&to=2025-10-15')
        expect(chart.points).toEqual([
          { date: '2025-10-14', cost: 0 },
          { date: '2025-10-15', cost: 127.5 },
        ])
        const byService = await get(tenant, '/costs/daily?from=2025-10-15&to=2025-10-15&groupBy=service')
        expect(byService.groups.map((g: { key: string; cost: number }) => [g.key, g.cost])).toEqual([
          ['Support', 119],
          ['Virtual Machines', 8.5],
        ])
        for (const groupBy of ['resource', 'resourceGroup', 'tag:Team']) {
          const chart = await get(tenant, `/costs/daily?from=2025-10-15&to=2025-10-15&groupBy=${groupBy}`)
          expect(
            chart.groups.reduce((a: number, g: { cost: number }) => a + g.cost, 0),
            groupBy,
          ).toBeCloseTo(127.5, 9)
        }
        const byTeam = await get(tenant, '/costs/daily?from=2025-10-15&to=2025-10-15&groupBy=tag:TEAM')
        expect(byTeam.groups.map((g: { label: string; cost: number }) => [g.label, g.cost])).toEqual([
          ['(no TEAM tag)', 119],
          ['platform', 8.5],
        ])
      }
      // Detection reads usage alone: the correction is usage, the purchase and the tax are not.
      const usage = await t.services.costReads.usageSeries(tenant.id, 'subscription', '2025-10-15', '2025-10-16')
      expect(usage.map((s) => [s.scopeKey, s.currency, [...s.costs]])).toEqual([[SUB, 'EUR', [8.5, 0]]])
      const byResource = await t.services.costReads.usageSeries(tenant.id, 'resource', '2025-10-15', '2025-10-15')
      expect(byResource.map((s) => [s.scopeKey, [...s.costs]])).toEqual([[VM, [8.5]]])
    })

    it('groups every day by the tags a resource has now, when a later import changes them', async () => {
      const tenant = await t.given.tenant(org)
      const file = join(dir, `${dialect}-tags.csv`)
      writeFileSync(file, FILE)
      await t.services.importFocus(tenant.id, [file])
      const teams = async () =>
        (await get(tenant, '/costs/daily?from=2025-10-15&to=2025-10-16&groupBy=tag:team')).groups.map(
          (g: { label: string; points: { cost: number }[] }) => [g.label, g.points.map((p) => p.cost)],
        )
      expect(await teams()).toEqual([
        ['(no team tag)', [119, 0]],
        ['platform', [8.5, 0]],
      ])
      // The billing period again with the next day's usage, the VM moved to another team: the day before
      // regroups too. (An import replaces each billing period it holds, so the file holds the whole period.)
      const nextDay = line('Usage', '', 'D2s v3', VM, '4.00')
        .replace('2025-10-15T', '2025-10-16T')
        .replace('""platform""', '""search""')
      writeFileSync(file, [FILE, nextDay].join('\n'))
      await t.services.importFocus(tenant.id, [file])
      expect(await teams()).toEqual([
        ['(no team tag)', [119, 0]],
        ['search', [8.5, 4]],
      ])
      // A tag removed: its costs join those without it.
      writeFileSync(file, [FILE, nextDay.replace('"{""team"":""search""}"', '"{""Owner"":""ana""}"')].join('\n'))
      await t.services.importFocus(tenant.id, [file])
      expect(await teams()).toEqual([['(no team tag)', [127.5, 4]]])
      const owners = await get(tenant, '/costs/daily?from=2025-10-15&to=2025-10-16&groupBy=tag:OWNER')
      expect(owners.groups.map((g: { key: string; cost: number }) => [g.key, g.cost])).toEqual([
        ['', 119],
        ['ana', 12.5],
      ])
    })

    it('keeps every series equal to its rows after re-collections of overlapping windows', async () => {
      const tenant = await t.given.tenant(org)
      const store = t.services.costIngest
      const other = `/subscriptions/${SUB}/resourcegroups/data/providers/microsoft.storage/storageaccounts/st1`
      let run = 0
      const collect = async (from: number, to: number, factor: number) => {
        const rows: DailyCostRow[] = []
        for (let d = from; d <= to; d++) {
          const date = `2026-02-${String(d).padStart(2, '0')}`
          rows.push(row({ date, cost: d * factor }))
          rows.push(row({ date, meterId: 'meter-disk', cost: 0.5 * factor }))
          rows.push(
            row({
              date,
              resourceArmId: other,
              resourceGroupName: 'data',
              serviceName: 'Storage',
              meterId: 'meter-st',
              cost: 2 * factor,
            }),
          )
          if (d === 1)
            rows.push(
              row({
                date,
                resourceArmId: null,
                resourceGroupName: null,
                chargeCategory: 'Purchase',
                serviceName: 'Support',
                meterId: 'support',
                cost: 100,
              }),
            )
        }
        const key = `run-${++run}:1`
        await store.stage(key, tenant.id, rows)
        const window = { tenantId: tenant.id, from: rows[0]!.date, to: rows.at(-1)!.date }
        await t.db.kysely.transaction().execute(async (trx) => {
          await store.mergeStaged(trx, key, run % 2 === 0 ? window : undefined)
          await store.clearStaged(`run-${run}`, trx)
        })
      }
      await collect(1, 10, 1)
      await collect(6, 14, 2) // re-collects 6..10 with new figures
      await collect(1, 3, 3) // an older window: every later running total moves
      await collect(12, 20, 1)

      const level = async (column: string) =>
        (
          await sql<{ key: string; date: string; category: string; cost: number }>`
            select ${sql.raw(column)} as key, date, charge_category as category, sum(cost) as cost
            from daily_costs join cost_resources on cost_resources.id = daily_costs.resource_id
            where tenant_id = ${tenant.id} group by ${sql.raw(column)}, date, charge_category
            order by 1, 2, 3`.execute(t.db.kysely)
        ).rows.map((r) => [r.key, r.date, r.category, Number(r.cost)])
      const series = async (table: string, column: string, where = '') =>
        (
          await sql<{ key: string; date: string; category: string; cost: number }>`
            select ${sql.raw(column)} as key, date, charge_category as category, sum(cost) as cost
            from ${sql.table(table)} where tenant_id = ${tenant.id} ${sql.raw(where)}
            group by ${sql.raw(column)}, date, charge_category order by 1, 2, 3`.execute(t.db.kysely)
        ).rows.map((r) => [r.key, r.date, r.category, Number(r.cost)])
      const close = (a: unknown[][], b: unknown[][]) => {
        expect(a.map((r) => r.slice(0, 3))).toEqual(b.map((r) => r.slice(0, 3)))
        for (const [i, r] of a.entries()) expect(r[3]).toBeCloseTo(b[i]![3] as number, 9)
      }
      const resources = (
        await sql<{ key: string; date: string; category: string; cost: number }>`
          select c.resource_key as key, s.date, s.charge_category as category, sum(s.cost) as cost
          from resource_cost_series s join cost_resources c on c.id = s.resource_id
          where s.tenant_id = ${tenant.id} group by c.resource_key, s.date, s.charge_category
          order by 1, 2, 3`.execute(t.db.kysely)
      ).rows.map((r) => [r.key, r.date, r.category, Number(r.cost)])
      close(resources, await level('resource_key'))
      close(await series('group_cost_series', 'service_name'), await level('service_name'))
      close(await series('cost_series', 'scope_key', "and level = 'service'"), await level('service_name'))
      close(
        await series('cost_series', 'scope_key', "and level = 'resourceGroup'"),
        await level("subscription_id || '/' || resource_group_key"),
      )
      close(await series('cost_series', 'scope_key', "and level = 'subscription'"), await level('subscription_id'))
      close(await series('cost_series', 'tenant_id', "and level = 'tenant'"), await level('tenant_id'))
      const vmDay = async (date: string) =>
        (await level('resource_key')).find((r) => r[0] === VM.toLowerCase() && r[1] === date)?.[3]
      expect(await vmDay('2026-02-02')).toBe(6 + 1.5) // the third collection replaced the first's 2 + 0.5
      expect(await vmDay('2026-02-08')).toBe(16 + 1) // the second collection's figures
      expect(await vmDay('2026-02-13')).toBe(13 + 0.5) // the fourth collection replaced the second's

      // Charts agree with the rows, every day and group, including the ranking by running totals.
      const chart = await get(tenant, '/costs/daily?from=2026-02-02&to=2026-02-19&groupBy=resource')
      const rows = await level('resource_key')
      const inRange = rows.filter((r) => (r[1] as string) >= '2026-02-02' && (r[1] as string) <= '2026-02-19')
      const sumOf = (key: string) => inRange.filter((r) => r[0] === key).reduce((a, r) => a + (r[3] as number), 0)
      expect(chart.groups.map((g: { key: string; cost: number }) => [g.key, g.cost])).toEqual([
        [VM.toLowerCase(), Math.round(sumOf(VM.toLowerCase()) * 100) / 100],
        [other, Math.round(sumOf(other) * 100) / 100],
      ])
      for (const p of chart.points) {
        const expected = inRange.filter((r) => r[1] === p.date).reduce((a, r) => a + (r[3] as number), 0)
        expect(p.cost, p.date).toBeCloseTo(expected, 9)
      }
      // A range holding every day of the resources: their totals come from their summary rows alone.
      const whole = await get(tenant, '/costs/daily?from=2026-01-25&to=2026-02-28&groupBy=resource')
      const allOf = (key: string) => rows.filter((r) => r[0] === key).reduce((a, r) => a + (r[3] as number), 0)
      expect(whole.groups.map((g: { key: string; cost: number }) => [g.key, g.cost])).toEqual(
        [VM.toLowerCase(), other, '']
          .map((key) => [key, Math.round(allOf(key) * 100) / 100])
          .sort((a, b) => (b[1] as number) - (a[1] as number)),
      )
      for (const g of whole.groups as { key: string; points: { date: string; cost: number }[] }[])
        for (const p of g.points) {
          const expected = rows
            .filter((r) => r[0] === g.key && r[1] === p.date)
            .reduce((a, r) => a + (r[3] as number), 0)
          expect(p.cost, `${g.key} ${p.date}`).toBeCloseTo(expected, 9)
        }
      const withSupport = await get(tenant, '/costs/daily?from=2026-02-01&to=2026-02-01&groupBy=resource')
      expect(withSupport.groups.map((g: { label: string }) => g.label)).toContain('(subscription charges)')
    })
  })
}
