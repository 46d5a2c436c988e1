import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type Estate, focusFiles } from '../../eval/estate.js'
import { createSimulatedConnector } from '../../src/connectors/simulated/index.js'
import type { Connector, DailyCostRow } from '../../src/connectors/types.js'
import type { AnomalyRecord } from '../../src/features/anomalies/schemas.js'
import type { ResourceRecord } from '../../src/features/inventory/schemas.js'
import { addDays } from '../../src/platform/time.js'
import { type TestApp, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import {
  DROP_DAY,
  ESTATE_DAYS,
  plantedEstate,
  SPIKE_DAY,
  SUBSCRIPTION,
  writeFocusFiles,
} from '../support/focus-estate.js'

const API = '/api/public/v1'

/** Every anomaly of a tenant, through the API. */
async function anomaliesOf(t: TestApp, key: string, tenantId: string): Promise<AnomalyRecord[]> {
  const res = await t.request('GET', `${API}/anomalies?tenancyId=${tenantId}&pageSize=200`, key)
  expect(res.statusCode, res.body).toBe(200)
  return res.json().items
}

/** Every resource of a tenant, through the API. */
async function resourcesOf(t: TestApp, key: string, tenantId: string): Promise<ResourceRecord[]> {
  const res = await t.request('GET', `${API}/tenants/${tenantId}/resources?pageSize=200`, key)
  expect(res.statusCode, res.body).toBe(200)
  return res.json().items
}

const drops = (items: AnomalyRecord[]) => items.filter((a) => a.impact < 0)
const labelled = (items: AnomalyRecord[]) => items.map((a) => `${a.dateRaised} ${a.scope.kind} ${a.impact}`).sort()

/**
 * Removes the rows of the resources named (by a part of their ARM id) from `from` on from FOCUS files written by
 * writeFocusFiles: as an export that lost them (a deleted resource), or one written while a day was still billed.
 */
function withoutRows(files: string[], from: string, armIdParts: string[]): void {
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n')
    const kept = lines.filter((line) => {
      const day = /T00:00:00Z,(\d{4}-\d{2}-\d{2})T00:00:00Z/.exec(line)?.[1]
      return !(day && day >= from && armIdParts.some((part) => line.includes(part)))
    })
    writeFileSync(file, kept.join('\n'))
  }
}

/** The estate as FOCUS files billed in `currency`, in a new temporary folder. */
function focusFilesIn(estate: Estate, currency: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'costwatch-focus-'))
  return [...focusFiles(estate, currency)].map(([month, text]) => {
    const file = join(dir, `focus-${month}.csv`)
    writeFileSync(file, text)
    return file
  })
}

/** Runs every queued run (collections, then the analysis each queues). */
async function drain(t: TestApp, connectors?: Record<string, Connector>): Promise<void> {
  const worker = t.worker(connectors ? { connectors } : {})
  while (await worker.runOnce()) {}
}

/**
 * The simulated connector as Azure answers: its newest two days still incomplete (today a third billed, yesterday
 * most of it), and without the resources named in `deleted` by lower-cased ARM id (from inventory, and from
 * cost from the day given on).
 */
function azureLike(deleted: Map<string, string> = new Map()): Connector {
  const simulated = createSimulatedConnector()
  return {
    ...simulated,
    async inventory(conn, context) {
      const inventory = await simulated.inventory(conn, context)
      return { ...inventory, resources: inventory.resources.filter((r) => !deleted.has(r.armId.toLowerCase())) }
    },
    async *dailyCosts(conn, window, context) {
      for await (const batch of simulated.dailyCosts(conn, window, context)) {
        const partial = (r: DailyCostRow) => (r.date === window.to ? 0.3 : r.date === addDays(window.to, -1) ? 0.85 : 1)
        yield batch
          .filter((r) => {
            const gone = r.resourceArmId ? deleted.get(r.resourceArmId.toLowerCase()) : undefined
            return gone === undefined || r.date < gone
          })
          .map((r) => ({ ...r, cost: r.cost * partial(r) }))
      }
    },
  }
}

for (const dialect of testDialects()) {
  describe(`${dialect}: only settled days are judged`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z', env: { COSTWATCH_SNAPSHOT_HOUR: '23' } })

    it('a FOCUS import whose newest day holds part of its rows raises nothing on it; the earlier days are judged', async () => {
      const org = await t.given.organisation()
      const tenant = (await t.given.tenant(org)).id
      const files = writeFocusFiles(plantedEstate())
      // The newest day (2026-02-28) exported before two of its four resources were billed.
      withoutRows(files, '2026-02-28', ['/db-1', '/vm-web-2'])
      await t.services.importFocus(tenant, files)
      await drain(t)

      expect(await t.services.costReads.settledThrough(tenant)).toBe('2026-02-27')
      const items = await anomaliesOf(t, org.ownerKey, tenant)
      expect(items.filter((a) => a.dateRaised > '2026-02-27')).toEqual([])
      // The settled days are judged as before: the planted outage and spike at every scope.
      expect(new Set(items.map((a) => a.dateRaised))).toEqual(new Set([DROP_DAY, SPIKE_DAY]))
    })

    it('an Azure-like collection raises nothing on its newest two days, which it restates', async () => {
      const org = await t.given.organisation()
      const tenant = (await t.given.tenant(org)).id
      await t.services.snapshots.trigger(org.owner, tenant, true)
      await drain(t, { simulated: azureLike() })

      // Collected through 2026-03-01 (today): settled two days before.
      expect(await t.services.costReads.settledThrough(tenant)).toBe('2026-02-27')
      const coverage = await t.services.costReads.costCoverage(tenant)
      expect(coverage.sources).toEqual([
        expect.objectContaining({ source: 'simulated', coveredTo: '2026-03-01', settledThrough: '2026-02-27' }),
      ])
      const items = await anomaliesOf(t, org.ownerKey, tenant)
      // Today at 30% and yesterday at 85% are drops everywhere were they judged.
      expect(labelled(items.filter((a) => a.dateRaised > '2026-02-27'))).toEqual([])
    })

    it('a tenant with a FOCUS import and a collection of other resources sees no outage on the imported ones', async () => {
      const org = await t.given.organisation()
      const tenant = (await t.given.tenant(org)).id
      // Billed in US dollars, as the simulated estate is: one billing currency, every scope judged in it.
      await t.services.importFocus(tenant, focusFilesIn(plantedEstate(), 'USD'))
      await drain(t)
      // The next days' scheduled collections write their days for the simulated estate's resources only.
      for (const day of ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']) {
        t.clock.set(`${day}T23:30:00.000Z`)
        expect(await t.services.snapshots.scheduleDaily(t.clock.now(), 23, async () => [tenant])).toBe(1)
        await drain(t, { simulated: azureLike() })
      }
      // The import's newest day bounds what is judged: a day it has not covered is no day of zero cost.
      expect(await t.services.costReads.settledThrough(tenant)).toBe('2026-02-27')
      const items = await anomaliesOf(t, org.ownerKey, tenant)
      expect(labelled(drops(items).filter((a) => a.dateRaised !== DROP_DAY))).toEqual([])
      expect(items.filter((a) => a.dateRaised > '2026-02-27')).toEqual([])
      t.clock.set('2026-03-01T09:00:00.000Z')
    })
  })

  describe(`${dialect}: a settling window of another length`, () => {
    const t = useTestApp({
      dialect,
      now: '2026-03-01T09:00:00.000Z',
      env: { COSTWATCH_SNAPSHOT_HOUR: '23', COSTWATCH_AZURE_SETTLING_DAYS: '4' },
    })

    it("COSTWATCH_AZURE_SETTLING_DAYS sets how many of a collection's newest days are preliminary", async () => {
      const org = await t.given.organisation()
      const tenant = (await t.given.tenant(org)).id
      await t.services.snapshots.trigger(org.owner, tenant, true)
      await drain(t, { simulated: azureLike() })
      expect(await t.services.costReads.settledThrough(tenant)).toBe('2026-02-25')
      const chart = await t.request('GET', `${API}/tenants/${tenant}/costs/daily`, org.ownerKey)
      expect(chart.json()).toMatchObject({ to: '2026-03-01', settledThrough: '2026-02-25' })
      expect((await anomaliesOf(t, org.ownerKey, tenant)).filter((a) => a.dateRaised > '2026-02-25')).toEqual([])
    })
  })

  describe(`${dialect}: removals are not outages`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z', env: { COSTWATCH_SNAPSHOT_HOUR: '23' } })

    it('a resource whose FOCUS rows stop while the import covers later days raises no drop, nor do its parents', async () => {
      const org = await t.given.organisation()
      const tenant = (await t.given.tenant(org)).id
      const files = writeFocusFiles(plantedEstate())
      // vm-web-2 (80 a day) deleted on 2026-02-15: no rows from then on.
      withoutRows(files, '2026-02-15', ['/vm-web-2'])
      await t.services.importFocus(tenant, files)
      await drain(t)

      const items = await anomaliesOf(t, org.ownerKey, tenant)
      expect(labelled(items.filter((a) => a.dateRaised >= '2026-02-14' && a.dateRaised <= '2026-02-16'))).toEqual([])
      // The planted outage and spike are still raised on every scope.
      expect(drops(items).map((a) => a.dateRaised)).toEqual(Array(5).fill(DROP_DAY))
      expect(items.filter((a) => a.dateRaised === SPIKE_DAY && a.scope.subscriptionId === SUBSCRIPTION).length).toBe(3)

      // The removal is information on the resource's record instead, in the list and on its own; others have none.
      const resources = await resourcesOf(t, org.ownerKey, tenant)
      const removed = resources.filter((r) => r.removal)
      expect(removed.map((r) => [r.name, r.removal])).toEqual([
        ['vm-web-2', { lastCostDate: '2026-02-14', basis: 'NotInLaterImports' }],
      ])
      const one = await t.request('GET', `${API}/tenants/${tenant}/resources/${removed[0]!.id}`, org.ownerKey)
      expect(one.json().removal).toEqual({ lastCostDate: '2026-02-14', basis: 'NotInLaterImports' })
    })

    it('a removal under the thresholds on its first days and over them at the weekend raises no drop', async () => {
      const org = await t.given.organisation()
      const tenant = (await t.given.tenant(org)).id
      // A batch machine busier at weekends (60 on weekdays, 90 at weekends), removed on Friday 2026-02-06: the
      // tenant falls by 14% on Friday (under the 20% minimum) and by 25% on Saturday.
      const estate = plantedEstate()
      const vm1 = estate.resources[0]!
      estate.resources.push({
        ...vm1,
        name: 'vm-batch-3',
        armId: vm1.armId.replace('vm-web-1', 'vm-batch-3'),
        meterId: '00000000-0000-4000-8000-000000000009',
        costs: ESTATE_DAYS.map((day, d) => {
          const dow = (d + 4) % 7
          return day >= '2026-02-06' ? 0 : (dow === 0 || dow === 6 ? 90 : 60) * (1 + 0.02 * Math.sin(d * 1.3))
        }),
        rowsThrough: ESTATE_DAYS.indexOf('2026-02-05'),
      })
      await t.services.importFocus(tenant, writeFocusFiles(estate))
      await drain(t)

      const items = await anomaliesOf(t, org.ownerKey, tenant)
      expect(
        labelled(drops(items).filter((a) => a.dateRaised >= '2026-02-05' && a.dateRaised <= '2026-02-09')),
      ).toEqual([])
      // The planted outage is still raised on every scope.
      expect(drops(items).map((a) => a.dateRaised)).toEqual(Array(5).fill(DROP_DAY))
      const removed = (await resourcesOf(t, org.ownerKey, tenant)).filter((r) => r.removal)
      expect(removed.map((r) => [r.name, r.removal])).toEqual([
        ['vm-batch-3', { lastCostDate: '2026-02-05', basis: 'NotInLaterImports' }],
      ])
    })

    it('a resource the latest collection no longer lists raises no drop, nor do its parents', async () => {
      const org = await t.given.organisation()
      const tenant = (await t.given.tenant(org)).id
      const deleted = new Map<string, string>()
      await t.services.snapshots.trigger(org.owner, tenant, true)
      await drain(t, { simulated: azureLike(deleted) })

      // The tenant's costliest resource is deleted on 2026-03-04 (billed in part that day, as Azure does).
      const totals = new Map<string, number>()
      for (const r of await t.services.costReads.resourceDailyCosts(tenant, '2026-02-20', '2026-02-26'))
        totals.set(r.resourceKey, (totals.get(r.resourceKey) ?? 0) + r.cost)
      const [top] = [...totals].sort((a, b) => b[1] - a[1])[0]!
      t.clock.set('2026-03-07T09:00:00.000Z')
      deleted.set(top, '2026-03-04')
      await t.services.snapshots.trigger(org.owner, tenant, false)
      await drain(t, { simulated: azureLike(deleted) })

      expect(await t.services.costReads.settledThrough(tenant)).toBe('2026-03-05')
      const items = await anomaliesOf(t, org.ownerKey, tenant)
      expect(labelled(drops(items).filter((a) => a.dateRaised >= '2026-03-03'))).toEqual([])

      // The removal is information on the resource's record: its last day with cost, and how it is known.
      const resources = await resourcesOf(t, org.ownerKey, tenant)
      expect(resources.filter((r) => r.removal).map((r) => [r.armId.toLowerCase(), r.removal])).toEqual([
        [top, { lastCostDate: '2026-03-03', basis: 'NotInLatestCollection' }],
      ])
      t.clock.set('2026-03-01T09:00:00.000Z')
    })
  })
}
