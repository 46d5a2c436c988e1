import { sql } from 'kysely'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { rebuildSeries } from '../../src/features/costs/rebuild.js'
import { currentResourceTags } from '../../src/features/inventory/store.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { addDays } from '../../src/platform/time.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { costRowsOf } from '../support/cost-rows.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
type Point = { date: string; cost: number }
type Group = { key: string; label: string; cost: number; points: Point[] }
/** A row of the tag series: one tag value's cost of a day, currency, charge category, service and group. */
type TagCell = {
  tagKey: string
  tagValue: string
  date: string
  currency: string
  chargeCategory: string
  serviceName: string
  resourceGroupKey: string
  cost: number
}
const STORED_TAG_CELLS = sql`
  select tag_key as "tagKey", tag_value as "tagValue", date, currency, charge_category as "chargeCategory",
    service_name as "serviceName", resource_group_key as "resourceGroupKey", cost
  from tag_cost_series`
const sum = (points: Point[]) => points.reduce((a, p) => a + p.cost, 0)
/** Each point is rounded to the cent, and so is the record's total: their sums may differ by half a cent a day. */
function expectSameTotal(points: Point[], total: number) {
  expect(Math.abs(sum(points) - total)).toBeLessThanOrEqual(0.005 * (points.length + 1))
}

for (const dialect of testDialects()) {
  describe(`${dialect}: daily cost series for charts`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z' })
    let org: OrgContext
    let tenant: TenantRecord
    const chart = (query: string, key = org.ownerKey) =>
      t.request('GET', `${API}/tenants/${tenant.id}/costs/daily${query}`, key)

    beforeAll(async () => {
      org = await t.given.organisation()
      tenant = await t.given.tenant(org)
      await t.services.snapshots.trigger(org.owner, tenant.id, true)
      while (await t.worker().runOnce()) {}
    })

    it('defaults to the last 30 days, every day present, matching the tenant totals', async () => {
      const res = await chart('')
      expect(res.statusCode, res.body).toBe(200)
      const body = res.json()
      expect(body).toMatchObject({
        scope: 'tenant',
        from: '2026-01-31',
        to: '2026-03-01',
        currency: 'USD',
        groupBy: null,
        markers: [],
      })
      expect(body.points).toHaveLength(30)
      expect(body.points[0].date).toBe('2026-01-31')
      expect(body.groups).toBeUndefined()
      const tenantRecord = (await t.request('GET', `${API}/tenants/${tenant.id}`, org.ownerKey)).json()
      expect(sum(body.points)).toBeCloseTo(tenantRecord.costs.last30Days, 0)
      // Days without data are zeros, not gaps.
      const early = (await chart('?from=2025-12-25&to=2026-01-05')).json()
      expect(early.points).toHaveLength(12)
      expect(early.points.filter((p: Point) => p.cost === 0).map((p: Point) => p.date)).toEqual(
        [
          '2025-12-25',
          '2025-12-26',
          '2025-12-27',
          '2025-12-28',
          '2025-12-29',
          '2025-12-30',
          '2025-12-31',
          '2026-01-01',
          '2026-01-02',
          '2026-01-03',
          '2026-01-04',
          '2026-01-05',
        ].filter((d) => d < '2026-01-30'),
      )
    })

    it('groups by service, resource group, resource and tag, largest first, adding up to the total', async () => {
      const total = sum((await chart('')).json().points)
      for (const groupBy of ['service', 'resourceGroup', 'resource', 'tag:TEAM']) {
        const body = (await chart(`?groupBy=${groupBy}`)).json()
        const groups: Group[] = body.groups
        expect(groups.length, groupBy).toBeGreaterThan(1)
        expect(
          groups.reduce((a, g) => a + g.cost, 0),
          groupBy,
        ).toBeCloseTo(total, 0)
        const ranked = groups.filter((g) => g.key !== '(other)') // the remainder comes last, whatever its size
        for (let i = 1; i < ranked.length; i++) expect(ranked[i - 1]!.cost).toBeGreaterThanOrEqual(ranked[i]!.cost)
        for (const g of groups) expect(g.points).toHaveLength(30)
      }
      const byService = (await chart('?groupBy=service')).json().groups.map((g: Group) => g.label)
      expect(byService).toContain('Virtual Machines')
      const byTeam = (await chart('?groupBy=tag:team')).json().groups.map((g: Group) => g.label)
      // The estate's teams, drawn per resource group from its cloud tenant id: which ones depends on the id.
      expect(byTeam.length).toBeGreaterThanOrEqual(2)
      for (const label of byTeam)
        expect(['platform', 'checkout', 'search', 'insights', '(no team tag)']).toContain(label)
      const byResource = (await chart('?groupBy=resource')).json().groups
      expect(byResource).toHaveLength(51) // 50 largest and "(other)"
      expect(byResource.at(-1).key).toBe('(other)')
    })

    it('narrows to a subscription, a resource group and a resource', async () => {
      const resources =
        // Names sort `vm-...` last: ask for the VMs themselves, not the first page of everything.
        (
          await t.request(
            'GET',
            `${API}/tenants/${tenant.id}/resources?resourceType=Microsoft.Compute/virtualMachines&pageSize=200`,
            org.ownerKey,
          )
        ).json().items
      const vm = resources.find(
        (r: { resourceType: string; costs: { last30Days: number } }) =>
          r.resourceType === 'Microsoft.Compute/virtualMachines' && r.costs.last30Days > 0,
      )
      const one = (await chart(`?scope=resource:${vm.id}`)).json()
      expectSameTotal(one.points, vm.costs.last30Days)
      // One resource's own rows, grouped every way: its groups add up to its total; by tag, its team's value.
      for (const groupBy of ['service', 'resourceGroup', 'resource', 'tag:TEAM']) {
        const grouped = (await chart(`?scope=resource:${vm.id}&groupBy=${groupBy}`)).json()
        expectSameTotal(grouped.points, vm.costs.last30Days)
        const groups: Group[] = grouped.groups
        expect(groups.length, groupBy).toBeGreaterThanOrEqual(1)
        expect(
          groups.reduce((a, g) => a + g.cost, 0),
          groupBy,
        ).toBeCloseTo(vm.costs.last30Days, 1)
        if (groupBy === 'tag:TEAM') expect(groups.map((g) => g.label)).toEqual([vm.tags.team ?? '(no team tag)'])
        if (groupBy === 'resource') expect(groups.map((g) => g.key)).toEqual([vm.armId.toLowerCase()])
      }
      const sub = (
        await t.request('GET', `${API}/tenants/${tenant.id}/subscriptions/${vm.subscriptionId}`, org.ownerKey)
      ).json()
      expectSameTotal((await chart(`?scope=subscription:${vm.subscriptionId}`)).json().points, sub.costs.last30Days)
      const group = (
        await t.request(
          'GET',
          `${API}/tenants/${tenant.id}/resource-groups/${vm.resourceGroupName}?subscriptionId=${vm.subscriptionId}`,
          org.ownerKey,
        )
      ).json()
      const groupChart = await chart(
        `?scope=resourceGroup:${vm.resourceGroupName.toUpperCase()}&subscriptionId=${vm.subscriptionId}`,
      )
      expect(groupChart.statusCode, groupChart.body).toBe(200)
      expectSameTotal(groupChart.json().points, group.costs.last30Days)
    })

    it('draws the markers visible on each chart', async () => {
      const resources: { id: string; tags: Record<string, string> }[] = []
      for (const page of [1, 2]) {
        const res = await t.request(
          'GET',
          `${API}/tenants/${tenant.id}/resources?pageSize=200&page=${page}`,
          org.ownerKey,
        )
        resources.push(...res.json().items)
      }
      expect(resources).toHaveLength(240)
      const prod = resources.find((r) => r.tags.environment === 'prod')!
      const staging = resources.find((r) => r.tags.environment === 'staging')!
      const create = (body: object) => t.request('POST', `${API}/tenants/${tenant.id}/events`, org.ownerKey, body)
      const everywhere = (
        await create({ title: 'Release 7', category: 'Deployment', occurredAt: '2026-02-20T10:00:00Z' })
      ).json()
      const prodOnly = (
        await create({
          title: 'Prod config',
          category: 'Configuration',
          occurredAt: '2026-02-21T10:00:00Z',
          tagKey: 'Environment',
          tagValue: 'prod',
        })
      ).json()
      await create({ title: 'Too old', category: 'Other', occurredAt: '2026-01-01T10:00:00Z' })
      const ids = async (query: string) => (await chart(query)).json().markers.map((m: { id: string }) => m.id)
      expect(await ids('')).toEqual([everywhere.id, prodOnly.id])
      expect(await ids(`?scope=resource:${prod.id}`)).toEqual([everywhere.id, prodOnly.id])
      expect(await ids(`?scope=resource:${staging.id}`)).toEqual([everywhere.id])
      expect(await ids('?from=2026-02-21&to=2026-02-21')).toEqual([prodOnly.id])
    })

    it('finds a chart scope in the inventory once for its costs and its markers', async () => {
      const vm = (await t.request('GET', `${API}/tenants/${tenant.id}/resources?pageSize=1`, org.ownerKey)).json()
        .items[0] as { id: string; subscriptionId: string; resourceGroupName: string }
      const resolve = vi.spyOn(t.services.inventory, 'resolveChartScope')
      // The markers' own lookup of a scope, which a cost chart must not make a second time.
      const selfResolving = vi.spyOn(t.services.events, 'visible')
      try {
        for (const scope of [
          'tenant',
          `subscription:${vm.subscriptionId}`,
          `resourceGroup:${vm.resourceGroupName}&subscriptionId=${vm.subscriptionId}`,
          `resource:${vm.id}`,
        ]) {
          for (const groupBy of ['', '&groupBy=resourceGroup']) {
            resolve.mockClear()
            const res = await chart(`?scope=${scope}${groupBy}`)
            expect(res.statusCode, res.body).toBe(200)
            expect(resolve, scope).toHaveBeenCalledTimes(1)
          }
        }
        expect(selfResolving).not.toHaveBeenCalled()
        // An unknown scope is still a 404, found by that one lookup.
        resolve.mockClear()
        expect((await chart(`?scope=resourceGroup:nope`)).statusCode).toBe(404)
        expect(resolve).toHaveBeenCalledTimes(1)
      } finally {
        resolve.mockRestore()
        selfResolving.mockRestore()
      }
    })

    it('draws a chart that ends on the last day the API accepts', async () => {
      const res = await chart('?from=9999-12-30&to=9999-12-31')
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().points).toEqual([
        { date: '9999-12-30', cost: 0 },
        { date: '9999-12-31', cost: 0 },
      ])
    })

    it('refuses bad input precisely', async () => {
      const bad = async (query: string, field: string) => {
        const res = await chart(query)
        expect(res.statusCode, `${query}: ${res.body}`).toBe(400)
        expect(Object.keys(res.json().errors), query).toContain(field)
      }
      await bad('?from=2026-03-02&to=2026-03-01', 'from')
      await bad('?from=2024-01-01&to=2026-03-01', 'from')
      await bad('?from=yesterday', 'from')
      await bad('?groupBy=colour', 'groupBy')
      await bad('?scope=galaxy:far', 'scope')
      expect((await chart('?scope=resource:00000000-0000-4000-8000-000000000000')).statusCode).toBe(404)
      expect((await chart('?scope=subscription:nope')).statusCode).toBe(404)
    })

    it('rewrites the same resource series whichever way it reads the cost rows', async () => {
      const resourceSeries = () =>
        t.db.kysely
          .selectFrom('resourceCostSeries')
          .selectAll()
          .where('tenantId', '=', tenant.id)
          .orderBy('date')
          .orderBy('resourceId')
          .orderBy('serviceName')
          .orderBy('chargeCategory')
          .orderBy('currency')
          .execute()
      const span = await costRowsOf(t.db.kysely, tenant.id)
        .select((eb) => [eb.fn.min('date').as('first'), eb.fn.max('date').as('last')])
        .executeTakeFirstOrThrow()
      const collected = await resourceSeries()
      expect(collected.length).toBeGreaterThan(0)
      const lastDays = { from: addDays(span.last, -2), to: span.last }
      await t.db.kysely.transaction().execute(async (trx) => {
        await rebuildSeries(trx, currentResourceTags, tenant.id, span.first, span.last)
      })
      expect(await resourceSeries()).toEqual(collected)
      await t.db.kysely
        .transaction()
        .execute((trx) => rebuildSeries(trx, currentResourceTags, tenant.id, lastDays.from, lastDays.to))
      expect(await resourceSeries()).toEqual(collected)
    })

    it('sums the tag series the same whether resources share their tags or each has one of its own', async () => {
      // Each (tag, day, currency) summed straight from the resource series and the tags each resource has.
      const expected = async () =>
        (
          await sql<TagCell>`
            select t.tag_key as "tagKey", t.tag_value as "tagValue", s.date, s.currency,
              s.charge_category as "chargeCategory", s.service_name as "serviceName",
              s.resource_group_key as "resourceGroupKey", sum(s.cost) as cost
            from resource_cost_series s
            join cost_resources c on c.id = s.resource_id
            join resource_tags t on t.tenant_id = s.tenant_id and t.resource_key = c.resource_key
            where s.tenant_id = ${tenant.id}
            group by t.tag_key, t.tag_value, s.date, s.currency, s.charge_category, s.service_name,
              s.resource_group_key
            order by 1, 2, 3, 4, 5, 6, 7`.execute(t.db.kysely)
        ).rows.map((r) => ({ ...r, cost: Math.round(Number(r.cost) * 1e6) / 1e6 }))
      const stored = async () =>
        (
          await sql<TagCell>`${STORED_TAG_CELLS} where tenant_id = ${tenant.id} order by 1, 2, 3, 4, 5, 6, 7`.execute(
            t.db.kysely,
          )
        ).rows.map((r) => ({ ...r, cost: Math.round(Number(r.cost) * 1e6) / 1e6 }))
      const tagSets = async () =>
        Number(
          (
            await sql<{ n: number }>`select count(distinct tags) as n from resources
              where tenant_id = ${tenant.id} and tags <> '{}'`.execute(t.db.kysely)
          ).rows[0]!.n,
        )
      const tagged = async () =>
        Number(
          (
            await sql<{ n: number }>`select count(*) as n from resources
              where tenant_id = ${tenant.id} and tags <> '{}'`.execute(t.db.kysely)
          ).rows[0]!.n,
        )
      const span = await costRowsOf(t.db.kysely, tenant.id)
        .select((eb) => [eb.fn.min('date').as('first'), eb.fn.max('date').as('last')])
        .executeTakeFirstOrThrow()

      // The simulated estate tags its resources with a few combinations: summed per set of tags first.
      expect((await tagSets()) * 2).toBeLessThanOrEqual(await tagged())
      expect((await stored()).length).toBeGreaterThan(0)
      expect(await stored()).toEqual(await expected())

      // A tag of its own on every resource (a name): summed per resource.
      const resources = await t.db.kysely
        .selectFrom('resources')
        .select(['id', 'tags', 'armIdLower'])
        .where('tenantId', '=', tenant.id)
        .execute()
      for (const r of resources) {
        const tags = { ...JSON.parse(String(r.tags)), name: r.armIdLower.split('/').pop() }
        await t.db.kysely
          .updateTable('resources')
          .set({ tags: JSON.stringify(tags) })
          .where('id', '=', r.id)
          .execute()
      }
      expect(await tagSets()).toBe(await tagged())
      await t.db.kysely
        .transaction()
        .execute((trx) => rebuildSeries(trx, currentResourceTags, tenant.id, span.first, span.last))
      const named = await stored()
      expect(named.some((s) => s.tagKey === 'name')).toBe(true)
      expect(named).toEqual(await expected())
    })

    it('keeps the tag series equal to the cost rows summed by the tags resources have now, after a tag changes', async () => {
      const rounded = (rows: TagCell[]) => rows.map((r) => ({ ...r, cost: Math.round(Number(r.cost) * 1e6) / 1e6 }))
      // Straight from the cost rows and the tags the series were summed with, every column of the tag series.
      const fromCostRows = async () =>
        rounded(
          (
            await sql<TagCell>`
              select t.tag_key as "tagKey", t.tag_value as "tagValue", d.date, d.currency,
                d.charge_category as "chargeCategory", d.service_name as "serviceName",
                d.resource_group_key as "resourceGroupKey", sum(d.cost) as cost
              from daily_costs d
              join cost_resources c on c.id = d.resource_id
              join resource_tags t on t.tenant_id = c.tenant_id and t.resource_key = c.resource_key
              where c.tenant_id = ${tenant.id}
              group by t.tag_key, t.tag_value, d.date, d.currency, d.charge_category, d.service_name,
                d.resource_group_key
              order by 1, 2, 3, 4, 5, 6, 7`.execute(t.db.kysely)
          ).rows,
        )
      const stored = async () =>
        rounded(
          (
            await sql<TagCell>`${STORED_TAG_CELLS} where tenant_id = ${tenant.id} order by 1, 2, 3, 4, 5, 6, 7`.execute(
              t.db.kysely,
            )
          ).rows,
        )
      const tagsNow = async () =>
        (
          await sql<{ resourceKey: string; tagKey: string; tagValue: string }>`
            select resource_key as "resourceKey", tag_key as "tagKey", tag_value as "tagValue"
            from (${currentResourceTags(t.db.kysely, tenant.id)}) tags order by 1, 2`.execute(t.db.kysely)
        ).rows
      const span = await costRowsOf(t.db.kysely, tenant.id)
        .select((eb) => [eb.fn.min('date').as('first'), eb.fn.max('date').as('last')])
        .executeTakeFirstOrThrow()
      const before = await stored()
      expect(before.some((r) => r.tagKey === 'team')).toBe(true)
      expect(before).toEqual(await fromCostRows())

      // One resource moves to another team, one loses its owner and one gains a key of another spelling: only
      // the last two days rebuilt, as a snapshot of recent days does.
      // Of the resources with cost on the first day, so the change shows on days the rebuild did not cover, and on
      // the last (the rebuild's days), as a snapshot sees the resources it collects.
      const costedOn = (date: string) =>
        costRowsOf(t.db.kysely, tenant.id).select('costResources.resourceKey').where('dailyCosts.date', '=', date)
      const resources = await t.db.kysely
        .selectFrom('resources')
        .select(['id', 'tags'])
        .where('tenantId', '=', tenant.id)
        .where('armIdLower', 'in', costedOn(span.first))
        .where('armIdLower', 'in', costedOn(span.last))
        .orderBy('id')
        .execute()
      const withTeam = resources.filter((r) => 'team' in JSON.parse(String(r.tags)))
      const withOwner = resources.filter((r) => 'owner' in JSON.parse(String(r.tags)))
      expect(withTeam.length).toBeGreaterThan(1)
      expect(withOwner.length).toBeGreaterThan(0)
      // From the tags stored now: one resource may be picked twice (a team's and an owner's).
      const retag = async (id: string, change: (tags: Record<string, string>) => Record<string, string>) => {
        const now = await t.db.kysely
          .selectFrom('resources')
          .select('tags')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
        await t.db.kysely
          .updateTable('resources')
          .set({ tags: JSON.stringify(change(JSON.parse(String(now.tags)))) })
          .where('id', '=', id)
          .execute()
      }
      await retag(withTeam[0]!.id, (tags) => ({ ...tags, team: 'moved-team' }))
      await retag(withOwner[0]!.id, ({ owner: _, ...tags }) => tags)
      await retag(withTeam[1]!.id, (tags) => ({ ...tags, 'Cost-Owner': 'finance' }))
      await t.db.kysely
        .transaction()
        .execute((trx) => rebuildSeries(trx, currentResourceTags, tenant.id, addDays(span.last, -1), span.last))

      const after = await stored()
      expect(after).not.toEqual(before)
      expect(after.some((r) => r.tagKey === 'team' && r.tagValue === 'moved-team' && r.date === span.first)).toBe(true)
      expect(after.some((r) => r.tagKey === 'cost-owner' && r.date === span.first)).toBe(true)
      expect(after).toEqual(await fromCostRows())
      // The charts' sums per value are those rows summed.
      const valueSums = new Map<string, number>()
      for (const r of after) {
        const key = JSON.stringify([r.tagKey, r.tagValue, r.date, r.currency])
        valueSums.set(key, (valueSums.get(key) ?? 0) + r.cost)
      }
      const chartRows = (
        await sql<{ tagKey: string; tagValue: string; date: string; currency: string; cost: number }>`
          select tag_key as "tagKey", tag_value as "tagValue", date, currency, cost from tag_value_series
          where tenant_id = ${tenant.id}`.execute(t.db.kysely)
      ).rows
      expect(chartRows.length).toBe(valueSums.size)
      for (const r of chartRows)
        expect(Number(r.cost)).toBeCloseTo(
          valueSums.get(JSON.stringify([r.tagKey, r.tagValue, r.date, r.currency]))!,
          6,
        )
      // The tags summed with are the resources' tags now.
      expect(
        (
          await t.db.kysely
            .selectFrom('resourceTags')
            .select(['resourceKey', 'tagKey', 'tagValue'])
            .where('tenantId', '=', tenant.id)
            .orderBy('resourceKey')
            .orderBy('tagKey')
            .execute()
        ).map((r) => ({ ...r })),
      ).toEqual(await tagsNow())

      // Its readers sum over the new columns: a chart by tag, and a budget's reads of one tag (with a service).
      const moved = after.filter((r) => r.tagKey === 'team' && r.tagValue === 'moved-team')
      const chartByTeam = (await chart(`?from=${span.first}&to=${span.last}&groupBy=tag:team`)).json() as {
        groups: Group[]
      }
      const movedGroup = chartByTeam.groups.find((g) => g.label === 'moved-team')
      expect(movedGroup).toBeDefined()
      expectSameTotal(
        movedGroup!.points,
        moved.reduce((a, r) => a + r.cost, 0),
      )
      const service = moved[0]!.serviceName
      const filter = { tags: [{ key: 'TEAM', value: 'moved-team' }], resourceGroup: null, service }
      const budgetDays = await t.services.costReads.filteredDaily(tenant.id, filter, span.first, span.last)
      const expectedDays = new Map<string, number>()
      for (const r of moved.filter((r) => r.serviceName === service))
        expectedDays.set(r.date, (expectedDays.get(r.date) ?? 0) + r.cost)
      expect(budgetDays.length).toBe(expectedDays.size)
      for (const d of budgetDays) expect(d.cost).toBeCloseTo(expectedDays.get(d.date)!, 6)
      const cells = await t.services.costReads.scopeCells(tenant.id, 'team', span.first, span.last)
      const cellSum = cells.filter((c) => c.tagValue === 'moved-team').reduce((a, c) => a + c.cost, 0)
      expect(cellSum).toBeCloseTo(
        moved.reduce((a, r) => a + r.cost, 0),
        6,
      )
    })

    it('rewrites a tag key over every day only when a resource that changed has cost outside the days rebuilt', async () => {
      const span = await costRowsOf(t.db.kysely, tenant.id)
        .select((eb) => [eb.fn.min('date').as('first'), eb.fn.max('date').as('last')])
        .executeTakeFirstOrThrow()
      const rebuilt = addDays(span.last, -1)
      const rebuild = (from: string) =>
        t.db.kysely.transaction().execute((trx) => rebuildSeries(trx, currentResourceTags, tenant.id, from, span.last))
      const resourceWithTeam = async (costedOn: string) => {
        const rows = await t.db.kysely
          .selectFrom('resources')
          .select(['id', 'armIdLower', 'tags'])
          .where('tenantId', '=', tenant.id)
          .where(
            'armIdLower',
            'in',
            costRowsOf(t.db.kysely, tenant.id)
              .select('costResources.resourceKey')
              .where('dailyCosts.date', '=', costedOn),
          )
          .orderBy('id')
          .execute()
        return rows.find((r) => 'team' in JSON.parse(String(r.tags)))!
      }
      const retag = (id: string, tags: string, team: string) =>
        t.db.kysely
          .updateTable('resources')
          .set({ tags: JSON.stringify({ ...JSON.parse(tags), team }) })
          .where('id', '=', id)
          .execute()
      // A resource whose cost is only on the days rebuilt, as a resource new in a pull's next month is: its other
      // days' cost rows go, and the series of every day are summed again without them.
      const late = await resourceWithTeam(span.last)
      const lateId = (
        await t.db.kysely
          .selectFrom('costResources')
          .select('id')
          .where('tenantId', '=', tenant.id)
          .where('resourceKey', '=', late.armIdLower)
          .executeTakeFirstOrThrow()
      ).id
      await t.db.kysely.deleteFrom('dailyCosts').where('resourceId', '=', lateId).where('date', '<', rebuilt).execute()
      await rebuild(span.first)
      // A mark on the first day's team series: a rewrite of the key's every day would take it away.
      const marked = sql`update tag_cost_series set cost = cost + 1000
        where tenant_id = ${tenant.id} and tag_key = 'team' and date = ${span.first}`
      const markedRows = Number((await marked.execute(t.db.kysely)).numAffectedRows)
      expect(markedRows).toBeGreaterThan(0)
      const firstDayTeams = async () =>
        Number(
          (
            await sql<{ cost: number }>`select sum(cost) as cost from tag_cost_series
              where tenant_id = ${tenant.id} and tag_key = 'team' and date = ${span.first}`.execute(t.db.kysely)
          ).rows[0]!.cost,
        )
      const markedTotal = await firstDayTeams()
      const lateTeam = async () =>
        Number(
          (
            await sql<{ cost: number }>`select sum(cost) as cost from tag_cost_series
              where tenant_id = ${tenant.id} and tag_key = 'team' and tag_value = 'late-team'`.execute(t.db.kysely)
          ).rows[0]!.cost,
        )

      await retag(late.id, late.tags, 'late-team')
      await rebuild(rebuilt)
      expect(await firstDayTeams()).toBeCloseTo(markedTotal, 6)
      const lateCost = await costRowsOf(t.db.kysely, tenant.id)
        .where('dailyCosts.resourceId', '=', lateId)
        .select((eb) => eb.fn.sum<number>('dailyCosts.cost').as('cost'))
        .executeTakeFirstOrThrow()
      expect(await lateTeam()).toBeCloseTo(Number(lateCost.cost), 6)

      // A resource with cost on the first day changes team: the key's every day is summed again, the mark gone.
      const early = await resourceWithTeam(span.first)
      await retag(early.id, early.tags, 'early-team')
      await rebuild(rebuilt)
      expect(await firstDayTeams()).toBeCloseTo(markedTotal - 1000 * markedRows, 6)
      expect(await lateTeam()).toBeCloseTo(Number(lateCost.cost), 6)
    })
  })
}
