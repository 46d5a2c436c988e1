import SqliteDatabase from 'better-sqlite3'
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import type { DailyCostRow } from '../../src/connectors/types.js'
import { type CostIngest, createCostIngest } from '../../src/features/costs/ingest.js'
import { rebuildSeries } from '../../src/features/costs/rebuild.js'
import { createTempStaging, SORT_CACHE_KIB } from '../../src/features/costs/staging.js'
import { currentResourceTags } from '../../src/features/inventory/store.js'
import type { DialectName } from '../../src/platform/db/index.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { costRow, costRowsOf } from '../support/cost-rows.js'
import { testDialects } from '../support/dialects.js'

const SUB = '44444444-dddd-4ddd-8ddd-444444444444'
const VM = `/subscriptions/${SUB}/resourceGroups/App/providers/Microsoft.Compute/virtualMachines/VM-1`
const DISK = `/subscriptions/${SUB}/resourceGroups/App/providers/Microsoft.Compute/disks/Disk-1`

const row = (over: Partial<DailyCostRow>) =>
  costRow({ subscriptionId: SUB, resourceArmId: VM, resourceGroupName: 'App', ...over })

// SQLite holds a stage's rows in memory up to a limit, then in a TEMP table: both, the table from the first row.
const variants = testDialects().flatMap((dialect): { dialect: DialectName; memoryRows?: number; name: string }[] =>
  dialect === 'sqlite'
    ? [
        { dialect, memoryRows: undefined, name: 'sqlite' },
        { dialect, memoryRows: 0, name: 'sqlite, rows staged in a table' },
      ]
    : [{ dialect, memoryRows: undefined, name: dialect }],
)

for (const { dialect, memoryRows, name } of variants) {
  describe(`${name}: staged cost rows`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z' })
    let org: OrgContext
    let ingest: CostIngest | undefined
    beforeAll(async () => {
      org = await t.given.organisation()
    })
    /** The services' cost ingest, or one whose stages put every row in their table. */
    const costIngest = () => {
      if (memoryRows === undefined) return t.services.costIngest
      ingest ??= createCostIngest(t.db.kysely, dialect, currentResourceTags, { memoryRows })
      return ingest
    }

    const stored = async (tenantId: string) =>
      costRowsOf(t.db.kysely, tenantId)
        .select(['resourceKey', 'date', 'meterId', 'chargeClass', 'meterName', 'resourceGroupKey', 'cost'])
        .orderBy('resourceKey')
        .orderBy('date')
        .orderBy('meterId')
        .orderBy('chargeClass')
        .execute()
    /** What is left staged anywhere: rows of cost_staging, and on SQLite the connection's TEMP tables. */
    const leftStaged = async () => {
      const rows = await t.db.kysely.selectFrom('costStaging').select('runId').execute()
      if (dialect !== 'sqlite') return rows.length
      const temp = await sql<{ name: string }>`select name from temp.sqlite_master where type = 'table'`.execute(
        t.db.kysely,
      )
      return rows.length + temp.rows.length
    }

    it('sums rows of one key across batches, keeps the greater description, and merges in one transaction', async () => {
      const tenant = await t.given.tenant(org)
      const store = costIngest()
      await store.stage('merge-1:1', tenant.id, [
        row({ cost: 2 }),
        row({ meterId: 'meter-disk', resourceArmId: DISK, serviceName: 'Storage', meterName: null, cost: 0.5 }),
        row({ date: '2026-02-02', cost: 3 }),
      ])
      await store.stage('merge-1:1', tenant.id, [
        row({ cost: 5, meterName: 'D4s v3' }), // the same key again, in another batch
        row({ meterId: 'meter-disk', resourceArmId: DISK, serviceName: 'Storage', meterName: 'P10', cost: 0.25 }),
        row({ chargeClass: 'Correction', cost: -1 }), // another key: the class is part of it
      ])
      expect(await stored(tenant.id)).toEqual([])
      const written = await t.db.kysely.transaction().execute(async (trx) => {
        const n = await store.mergeStaged(trx, 'merge-1:1')
        await store.clearStaged('merge-1', trx)
        return n
      })
      expect(written).toBe(4)
      expect(await stored(tenant.id)).toEqual([
        {
          resourceKey: DISK.toLowerCase(),
          date: '2026-02-01',
          meterId: 'meter-disk',
          chargeClass: '',
          meterName: 'P10',
          resourceGroupKey: 'app',
          cost: 0.75,
        },
        {
          resourceKey: VM.toLowerCase(),
          date: '2026-02-01',
          meterId: 'meter-vm',
          chargeClass: '',
          meterName: 'D4s v3',
          resourceGroupKey: 'app',
          cost: 7,
        },
        {
          resourceKey: VM.toLowerCase(),
          date: '2026-02-01',
          meterId: 'meter-vm',
          chargeClass: 'Correction',
          meterName: 'D2s v3',
          resourceGroupKey: 'app',
          cost: -1,
        },
        {
          resourceKey: VM.toLowerCase(),
          date: '2026-02-02',
          meterId: 'meter-vm',
          chargeClass: '',
          meterName: 'D2s v3',
          resourceGroupKey: 'app',
          cost: 3,
        },
      ])
      // The series of the staged days, rewritten in the same transaction.
      const tenantSeries = await sql<{ date: string; cost: number }>`
        select date, sum(cost) as cost from cost_series where tenant_id = ${tenant.id} and level = 'tenant'
        group by date order by date`.execute(t.db.kysely)
      expect(tenantSeries.rows.map((r) => [r.date, Number(r.cost)])).toEqual([
        ['2026-02-01', 6.75],
        ['2026-02-02', 3],
      ])
      expect(await leftStaged()).toBe(0)
    })

    it('keeps each day’s own currency and names when they change during the staged days', async () => {
      const tenant = await t.given.tenant(org)
      const store = costIngest()
      await store.stage('changed:1', tenant.id, [
        row({ date: '2026-02-01', cost: 2 }),
        row({ date: '2026-02-02', cost: 3, currency: 'USD', meterName: 'D2s v3 (renamed)' }),
      ])
      await t.db.kysely.transaction().execute(async (trx) => {
        await store.mergeStaged(trx, 'changed:1')
        await store.clearStaged('changed', trx)
      })
      const rows = await costRowsOf(t.db.kysely, tenant.id)
        .select(['date', 'currency', 'meterName', 'cost'])
        .orderBy('date')
        .execute()
      expect(rows).toEqual([
        { date: '2026-02-01', currency: 'EUR', meterName: 'D2s v3', cost: 2 },
        { date: '2026-02-02', currency: 'USD', meterName: 'D2s v3 (renamed)', cost: 3 },
      ])
      expect(await leftStaged()).toBe(0)
    })

    if (dialect === 'sqlite') {
      it('merges a large staging under a smaller page cache (its sorts in smaller pieces), then gives the connection its own back', async () => {
        const tenant = await t.given.tenant(org)
        // A staging that counts three rows as large.
        const staging = createTempStaging(t.db.kysely, { sortCacheFromRows: 3 })
        const cacheSize = async (db: typeof t.db.kysely) =>
          Number(
            (await sql<{ size: number }>`select cache_size as size from pragma_cache_size()`.execute(db)).rows[0]!.size,
          )
        const own = await cacheSize(t.db.kysely)
        await staging.stage('large-1:1', tenant.id, [
          row({ cost: 2 }),
          row({ date: '2026-02-02', cost: 3 }),
          row({ date: '2026-02-03', cost: 4 }),
        ])
        const during = await t.db.kysely.transaction().execute(async (trx) =>
          staging.withMergeCache(trx, 'large-1:1', async () => {
            await staging.merge(trx, 'large-1:1')
            return cacheSize(trx)
          }),
        )
        expect(during).toBe(-SORT_CACHE_KIB)
        expect(SORT_CACHE_KIB).toBeLessThan(-own)
        expect(await cacheSize(t.db.kysely)).toBe(own)
        expect((await stored(tenant.id)).map((r) => [r.date, r.cost])).toEqual([
          ['2026-02-01', 2],
          ['2026-02-02', 3],
          ['2026-02-03', 4],
        ])
        // A failed merge gives it back too; a small staging never changes it.
        await staging.stage('large-2:1', tenant.id, [
          row({ cost: 1 }),
          row({ date: '2026-02-03', cost: 1 }),
          row({ date: '2026-02-04', cost: 1 }),
        ])
        await expect(
          t.db.kysely.transaction().execute((trx) =>
            staging.withMergeCache(trx, 'large-2:1', async () => {
              throw new Error('the merge failed')
            }),
          ),
        ).rejects.toThrow('the merge failed')
        expect(await cacheSize(t.db.kysely)).toBe(own)
        await staging.stage('small-1:1', tenant.id, [row({ cost: 1 }), row({ date: '2026-02-04', cost: 1 })])
        const small = await t.db.kysely
          .transaction()
          .execute((trx) => staging.withMergeCache(trx, 'small-1:1', () => cacheSize(trx)))
        expect(small).toBe(own)
        for (const run of ['large-1', 'large-2', 'small-1']) await staging.clear(run)
        expect(await leftStaged()).toBe(0)
      })
    }

    /**
     * Every series of a tenant, costs rounded to 1e-6 (sums in another order differ past that), each resource by
     * its key (the numbers of two tenants' resources differ).
     */
    const seriesOf = async (tenantId: string) => {
      const read = async (table: string, cost: string, byResource = false) =>
        (
          await sql<Record<string, unknown>>`
            select x.*${byResource ? sql`, c.resource_key as resource` : sql``} from ${sql.table(table)} x
            ${byResource ? sql`join cost_resources c on c.id = x.resource_id` : sql``}
            where x.tenant_id = ${tenantId}`.execute(t.db.kysely)
        ).rows
          .map(({ resourceId: _id, ...r }) => JSON.stringify({ ...r, [cost]: Math.round(Number(r[cost]) * 1e6) / 1e6 }))
          .sort()
      // Running totals and month ends name no tenant: theirs are those of its resources.
      const ofResources = async (table: string, columns: string) =>
        (
          await sql<Record<string, unknown>>`
            select c.resource_key as resource, ${sql.raw(columns)}
            from ${sql.table(table)} x join cost_resources c on c.id = x.resource_id
            where c.tenant_id = ${tenantId}`.execute(t.db.kysely)
        ).rows
          .map((r) => JSON.stringify({ ...r, runningCost: Math.round(Number(r.runningCost) * 1e6) / 1e6 }))
          .sort()
      const running = await ofResources('resource_running_costs', 'x.currency, x.date, x.running_cost, x.cost')
      const monthEnds = await ofResources('resource_month_ends', 'x.currency, x.month, x.date, x.running_cost')
      return {
        resources: await read('resource_cost_series', 'cost', true),
        groups: await read('group_cost_series', 'cost'),
        levels: await read('cost_series', 'cost'),
        running,
        monthEnds,
        totals: await read('resource_cost_totals', 'runningCost', true),
      }
    }

    it('sums the series of a first merge from the staged rows as from the stored rows, a moved resource too', async () => {
      const store = costIngest()
      const days = ['2026-02-01', '2026-02-02', '2026-02-03', '2026-02-04']
      const rowsOf = (moved: boolean) =>
        days.flatMap((date, i) => [
          row({ date, cost: 1 + i }),
          row({ date, meterId: 'meter-ip', serviceName: 'Network', cost: 0.1 }),
          row({ date, meterId: 'meter-usd', currency: 'USD', cost: 2 }),
          row({ date, resourceArmId: DISK, serviceName: 'Storage', meterId: 'meter-disk', cost: 0.5 * i }),
          // The VM moves to group Data from the third day (Azure reports it under its new group).
          ...(moved && i >= 2 ? [row({ date, resourceGroupName: 'Data', meterId: 'meter-x', cost: 3 })] : []),
        ])
      for (const moved of [false, true]) {
        const tenant = await t.given.tenant(org)
        const window = { tenantId: tenant.id, from: days[0]!, to: days.at(-1)! }
        const key = `first-${moved}:1`
        await store.stage(key, tenant.id, rowsOf(moved))
        await t.db.kysely.transaction().execute(async (trx) => {
          await store.mergeStaged(trx, key, window)
          await store.clearStaged(`first-${moved}`, trx)
        })
        const merged = await seriesOf(tenant.id)
        expect(merged.resources).toHaveLength(days.length * 4)
        expect(merged.running).toHaveLength(days.length * 3)
        // The same days summed again from daily_costs, as a later run's merge sums them.
        await t.db.kysely
          .transaction()
          .execute((trx) => rebuildSeries(trx, currentResourceTags, tenant.id, window.from, window.to))
        expect(merged).toEqual(await seriesOf(tenant.id))
      }
      expect(await leftStaged()).toBe(0)
    })

    it('sums a first merge of two tenants’ rows, staged in two batches that repeat a key and day, as a rebuild does', async () => {
      const store = costIngest()
      const tenants = [await t.given.tenant(org), await t.given.tenant(org)]
      const days = ['2026-05-01', '2026-05-02', '2026-05-03']
      // The second tenant's days start later: each tenant's series cover its own days only.
      const batchOf = (n: number, offset: number) =>
        days.slice(n).flatMap((date, i) => [
          row({ date, cost: 1 + i + offset }),
          row({ date, meterId: 'meter-ip', serviceName: 'Network', cost: 0.25 }),
          // A second meter of the VM's series (same service and currency): one series row a day for both.
          row({ date, meterId: 'meter-2', cost: 0.125 }),
          row({ date, resourceArmId: DISK, serviceName: 'Storage', meterId: 'meter-disk', cost: 0.5 * (i + n) }),
        ])
      for (const [n, tenant] of tenants.entries()) {
        await store.stage('two-tenants:1', tenant.id, batchOf(n, 0))
        await store.stage('two-tenants:1', tenant.id, batchOf(n, 10))
      }
      await t.db.kysely.transaction().execute(async (trx) => {
        await store.mergeStaged(trx, 'two-tenants:1')
        await store.clearStaged('two-tenants', trx)
      })
      for (const [n, tenant] of tenants.entries()) {
        const merged = await seriesOf(tenant.id)
        expect(merged.resources).toHaveLength((days.length - n) * 3)
        // The VM's two batches summed per day: (1 + i) + (11 + i) + 2 x 0.25 + 2 x 0.125, and its running
        // totals from them.
        const vm = merged.running
          .map((r) => JSON.parse(r))
          .filter((r) => r.resource === VM.toLowerCase())
          .map((r) => [r.date, r.cost])
          .sort()
        expect(vm).toEqual(days.slice(n).map((date, i) => [date, 12 + 2 * i + 0.75]))
        await t.db.kysely
          .transaction()
          .execute((trx) => rebuildSeries(trx, currentResourceTags, tenant.id, days[n]!, days.at(-1)!))
        expect(merged).toEqual(await seriesOf(tenant.id))
      }
      expect(await leftStaged()).toBe(0)
    })

    it('sums a first merge of more days than are written resource by resource (70) as a rebuild does', async () => {
      const store = costIngest()
      const tenant = await t.given.tenant(org)
      const days = Array.from({ length: 70 }, (_, i) => new Date(Date.UTC(2026, 5, 1 + i)).toISOString().slice(0, 10))
      const rows = days.flatMap((date, i) => [
        row({ date, cost: 1 + (i % 7) }),
        row({ date, meterId: 'meter-2', cost: 0.5 }),
        row({ date, resourceArmId: DISK, serviceName: 'Storage', meterId: 'meter-disk', cost: 0.25 * (i % 3) }),
      ])
      await store.stage('seventy:1', tenant.id, rows)
      const window = { tenantId: tenant.id, from: days[0]!, to: days.at(-1)! }
      await t.db.kysely.transaction().execute(async (trx) => {
        await store.mergeStaged(trx, 'seventy:1', window)
        await store.clearStaged('seventy', trx)
      })
      const merged = await seriesOf(tenant.id)
      expect(merged.resources).toHaveLength(70 * 2)
      expect(merged.running).toHaveLength(70 * 2)
      await t.db.kysely
        .transaction()
        .execute((trx) => rebuildSeries(trx, currentResourceTags, tenant.id, window.from, window.to))
      expect(merged).toEqual(await seriesOf(tenant.id))
    })

    it('continues the running totals of fresh days after the tenant’s last from its stored ones, as a rebuild sums them', async () => {
      const store = costIngest()
      const tenant = await t.given.tenant(org)
      const first = ['2026-03-01', '2026-03-02']
      const later = ['2026-03-03', '2026-03-04']
      // The disk has costs in the first days only, the USD meter in the later days only: their totals must hold.
      const rowsOf = (days: string[], disk: boolean, usd: boolean) =>
        days.flatMap((date, i) => [
          row({ date, cost: 1 + i }),
          ...(disk
            ? [row({ date, resourceArmId: DISK, serviceName: 'Storage', meterId: 'meter-disk', cost: 0.5 })]
            : []),
          ...(usd ? [row({ date, meterId: 'meter-usd', currency: 'USD', cost: 2 })] : []),
        ])
      for (const [n, [days, rows]] of [
        [first, rowsOf(first, true, false)],
        [later, rowsOf(later, false, true)],
      ].entries() as IterableIterator<[number, [string[], ReturnType<typeof rowsOf>]]>) {
        const key = `appended-${n}:1`
        await store.stage(key, tenant.id, rows)
        await t.db.kysely.transaction().execute(async (trx) => {
          await store.mergeStaged(trx, key, { tenantId: tenant.id, from: days[0]!, to: days.at(-1)! })
          await store.clearStaged(`appended-${n}`, trx)
        })
      }
      const merged = await seriesOf(tenant.id)
      expect(merged.running).toHaveLength(4 + 2 + 2)
      // Every day summed again from daily_costs.
      await t.db.kysely
        .transaction()
        .execute((trx) => rebuildSeries(trx, currentResourceTags, tenant.id, first[0]!, later.at(-1)!))
      expect(merged).toEqual(await seriesOf(tenant.id))
    })

    it('finds a resource’s running total in an earlier month when the months between have none (month ends)', async () => {
      const store = costIngest()
      const tenant = await t.given.tenant(org)
      const disk = { resourceArmId: DISK, serviceName: 'Storage', meterId: 'meter-disk' }
      // Three months merged one after the other, as a pull's periods are: the VM has no cost in December, and none
      // in January before the 20th, so its running totals go on from November's last.
      const steps = [
        [row({ date: '2025-11-10', cost: 1 }), row({ date: '2025-11-11', cost: 2 })],
        [row({ ...disk, date: '2025-12-05', cost: 4 })],
        [row({ date: '2026-01-20', cost: 8 }), row({ ...disk, date: '2026-01-21', cost: 16 })],
      ]
      for (const [n, rows] of steps.entries()) {
        await store.stage(`months-${n}:1`, tenant.id, rows)
        const days = rows.map((r) => r.date).sort()
        await t.db.kysely.transaction().execute(async (trx) => {
          await store.mergeStaged(trx, `months-${n}:1`, { tenantId: tenant.id, from: days[0]!, to: days.at(-1)! })
          await store.clearStaged(`months-${n}`, trx)
        })
      }
      const merged = await seriesOf(tenant.id)
      const runningOf = (resource: string) =>
        merged.running
          .map((r) => JSON.parse(r))
          .filter((r) => r.resource === resource.toLowerCase())
          .map((r) => [r.date, r.runningCost])
          .sort()
      expect(runningOf(VM)).toEqual([
        ['2025-11-10', 1],
        ['2025-11-11', 3],
        ['2026-01-20', 11],
      ])
      expect(runningOf(DISK)).toEqual([
        ['2025-12-05', 4],
        ['2026-01-21', 20],
      ])
      expect(merged.monthEnds.map((r) => JSON.parse(r)).map((r) => [r.month, r.date, r.runningCost])).toEqual(
        expect.arrayContaining([
          ['2025-11', '2025-11-11', 3],
          ['2025-12', '2025-12-05', 4],
          ['2026-01', '2026-01-20', 11],
          ['2026-01', '2026-01-21', 20],
        ]),
      )
      // A chart by resource ranks by running totals: each range's cost per resource, through the API.
      const byResource = async (from: string, to: string) => {
        const response = await t.request(
          'GET',
          `/api/public/v1/tenants/${tenant.id}/costs/daily?groupBy=resource&from=${from}&to=${to}`,
          org.ownerKey,
        )
        expect(response.statusCode).toBe(200)
        const groups: { key: string; cost: number }[] = response.json().groups
        return Object.fromEntries(groups.map((g) => [g.key.toLowerCase(), g.cost]))
      }
      expect(await byResource('2025-12-01', '2026-01-31')).toEqual({ [VM.toLowerCase()]: 8, [DISK.toLowerCase()]: 20 })
      expect(await byResource('2025-12-01', '2025-12-31')).toEqual({ [DISK.toLowerCase()]: 4 })
      expect(await byResource('2025-11-11', '2026-01-20')).toEqual({ [VM.toLowerCase()]: 10, [DISK.toLowerCase()]: 4 })
      // Every day summed again from daily_costs, as a restatement's rebuild does: the same running totals,
      // month ends and summaries.
      await t.db.kysely
        .transaction()
        .execute((trx) => rebuildSeries(trx, currentResourceTags, tenant.id, '2025-12-01', '2026-01-31'))
      expect(await seriesOf(tenant.id)).toEqual(merged)
      await t.db.kysely
        .transaction()
        .execute((trx) => rebuildSeries(trx, currentResourceTags, tenant.id, '2025-11-01', '2026-01-31'))
      expect(await seriesOf(tenant.id)).toEqual(merged)
    })

    it('deletes the running totals a restatement leaves without cost, past the tenant’s new last day too', async () => {
      const store = costIngest()
      const tenant = await t.given.tenant(org)
      const disk = { resourceArmId: DISK, serviceName: 'Storage', meterId: 'meter-disk' }
      const periods: Record<string, DailyCostRow[]> = {
        '2026-01': [row({ date: '2026-01-10', cost: 1 }), row({ date: '2026-01-11', cost: 2 })],
        '2026-02': [row({ date: '2026-02-03', cost: 4 }), row({ ...disk, date: '2026-02-14', cost: 8 })],
        '2026-03': [row({ date: '2026-03-05', cost: 16 }), row({ ...disk, date: '2026-03-27', cost: 32 })],
      }
      /** Imports one version of a billing period, replacing the one stored, as a pull or an upload does. */
      const importPeriod = async (billingPeriod: string, rows: DailyCostRow[], n: number) => {
        const key = `restated-${n}`
        await store.stage(
          `${key}:1`,
          tenant.id,
          rows.map((r) => ({ ...r, billingPeriod })),
        )
        const days = rows.map((r) => r.date).sort()
        await t.db.kysely.transaction().execute(async (trx) => {
          const old = await store.replaceBillingPeriods(trx, tenant.id, [
            { billingPeriod, from: days[0]!, to: days.at(-1)!, files: [], rows: rows.length, runId: key, at: '' },
          ])
          const all = [old.from, old.to, ...days].filter((d): d is string => !!d).sort()
          await store.mergeStaged(trx, `${key}:1`, { tenantId: tenant.id, from: all[0]!, to: all.at(-1)! })
          await store.clearStaged(key, trx)
        })
      }
      for (const [n, [period, rows]] of Object.entries(periods).entries()) await importPeriod(period, rows, n)
      const runningOf = async (resource: string) =>
        (await seriesOf(tenant.id)).running
          .map((r) => JSON.parse(r))
          .filter((r) => r.resource === resource.toLowerCase())
          .map((r) => [r.date, r.runningCost])
          .sort()
      expect(await runningOf(DISK)).toEqual([
        ['2026-02-14', 8],
        ['2026-03-27', 40],
      ])
      // March restated without the disk: the tenant's last day goes from the 27th back to the 5th.
      await importPeriod('2026-03', [row({ date: '2026-03-05', cost: 16 })], 3)
      expect(await runningOf(DISK)).toEqual([['2026-02-14', 8]])
      // February restated without the disk: it has no cost left at all.
      await importPeriod('2026-02', [row({ date: '2026-02-03', cost: 4 })], 4)
      const restated = await seriesOf(tenant.id)
      expect(await runningOf(DISK)).toEqual([])
      expect(restated.monthEnds.map((r) => JSON.parse(r)).map((r) => [r.resource, r.month, r.runningCost])).toEqual([
        [VM.toLowerCase(), '2026-01', 3],
        [VM.toLowerCase(), '2026-02', 7],
        [VM.toLowerCase(), '2026-03', 23],
      ])
      expect(restated.totals.map((r) => JSON.parse(r)).map((r) => [r.resource, r.lastDate, r.runningCost])).toEqual([
        [VM.toLowerCase(), '2026-03-05', 23],
      ])
      const chart = await t.request(
        'GET',
        `/api/public/v1/tenants/${tenant.id}/costs/daily?groupBy=resource&from=2026-02-01&to=2026-03-31`,
        org.ownerKey,
      )
      expect(chart.statusCode).toBe(200)
      expect(chart.json().groups.map((g: { key: string; cost: number }) => [g.key.toLowerCase(), g.cost])).toEqual([
        [VM.toLowerCase(), 20],
      ])
      // Every day summed again from daily_costs gives the same.
      await t.db.kysely
        .transaction()
        .execute((trx) => rebuildSeries(trx, currentResourceTags, tenant.id, '2026-01-01', '2026-03-31'))
      expect(await seriesOf(tenant.id)).toEqual(restated)
    })

    it('merges a cost key of two billing periods on days of their own, and sums them on a day they share', async () => {
      const store = costIngest()
      for (const shared of [false, true]) {
        const tenant = await t.given.tenant(org)
        const rows = [
          row({ date: '2026-02-27', billingPeriod: '2026-02', cost: 1 }),
          row({ date: '2026-02-28', billingPeriod: '2026-02', cost: 1 }),
          // A charge of the same meter billed in March: on a day of its own, or on February's last (a correction).
          row({ date: shared ? '2026-02-28' : '2026-03-01', billingPeriod: '2026-03', cost: 2 }),
          row({ date: '2026-03-02', billingPeriod: '2026-03', cost: 2 }),
        ]
        const key = `periods-${shared}:1`
        await store.stage(key, tenant.id, rows)
        const window = { tenantId: tenant.id, from: '2026-02-27', to: '2026-03-02' }
        await t.db.kysely.transaction().execute(async (trx) => {
          await store.mergeStaged(trx, key, window)
          await store.clearStaged(`periods-${shared}`, trx)
        })
        const byDay = Object.fromEntries((await stored(tenant.id)).map((r) => [r.date, Number(r.cost)]))
        expect(byDay).toEqual(
          shared
            ? { '2026-02-27': 1, '2026-02-28': 3, '2026-03-02': 2 }
            : { '2026-02-27': 1, '2026-02-28': 1, '2026-03-01': 2, '2026-03-02': 2 },
        )
        const merged = await seriesOf(tenant.id)
        await t.db.kysely
          .transaction()
          .execute((trx) => rebuildSeries(trx, currentResourceTags, tenant.id, window.from, window.to))
        expect(merged).toEqual(await seriesOf(tenant.id))
      }
    })

    it('merges each tenant of one staging key over its own days', async () => {
      const first = await t.given.tenant(org)
      const second = await t.given.tenant(org)
      const store = costIngest()
      await store.stage('two-tenants:1', first.id, [row({ date: '2026-01-05', cost: 4 })])
      await store.stage('two-tenants:1', second.id, [
        row({ date: '2026-01-20', cost: 8 }),
        row({ date: '2026-01-22', cost: 1 }),
      ])
      await t.db.kysely.transaction().execute(async (trx) => {
        await store.mergeStaged(trx, 'two-tenants:1')
        await store.clearStaged('two-tenants', trx)
      })
      const series = async (tenantId: string) =>
        (
          await sql<{ date: string; cost: number }>`
            select date, cost from cost_series where tenant_id = ${tenantId} and level = 'tenant' order by date`.execute(
            t.db.kysely,
          )
        ).rows.map((r) => [r.date, Number(r.cost)])
      expect(await series(first.id)).toEqual([['2026-01-05', 4]])
      expect(await series(second.id)).toEqual([
        ['2026-01-20', 8],
        ['2026-01-22', 1],
      ])
      expect(await leftStaged()).toBe(0)
    })

    it('leaves nothing staged nor stored when the final transaction rolls back and the run is cleared', async () => {
      const tenant = await t.given.tenant(org)
      const store = costIngest()
      await store.stage('rolled-back:1', tenant.id, [row({ cost: 9 })])
      await expect(
        t.db.kysely.transaction().execute(async (trx) => {
          await store.mergeStaged(trx, 'rolled-back:1')
          await store.clearStaged('rolled-back', trx)
          throw new Error('the run lost its lease')
        }),
      ).rejects.toThrow('the run lost its lease')
      expect(await stored(tenant.id)).toEqual([])
      await store.clearStaged('rolled-back') // as a failed run's afterFailure does
      expect(await leftStaged()).toBe(0)
    })

    if (dialect === 'sqlite') {
      it('stages without taking the database file’s write lock', async () => {
        const tenant = await t.given.tenant(org)
        const other = new SqliteDatabase(t.databaseUrl)
        try {
          other.pragma('busy_timeout = 0')
          await t.db.kysely.transaction().execute(async (trx) => {
            await costIngest().stage('no-lock:1', tenant.id, [row({ cost: 1 }), row({ cost: 2 })], trx)
            // Mid-staging, another process can still write.
            other.exec('begin immediate')
            other.prepare('update tenants set name = name where id = ?').run(tenant.id)
            other.exec('commit')
          })
        } finally {
          other.close()
        }
        await costIngest().clearStaged('no-lock')
        expect(await leftStaged()).toBe(0)
      })
    }
  })
}
