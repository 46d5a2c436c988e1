import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { type BudgetDefinition, createBudgetStore } from '../../src/features/budgets/store.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const noAudit = async () => {}

for (const dialect of testDialects()) {
  describe(`${dialect}: the budget store`, () => {
    const t = useTestApp({ dialect, now: '2026-11-20T09:00:00.000Z' })
    let org: OrgContext
    let tenancies: string[]
    const budget = (over: Partial<BudgetDefinition>): BudgetDefinition => ({
      id: randomUUID(),
      organisationId: org.organisationId,
      name: 'Payments',
      scope: { tenancyIds: [tenancies[0]!], tags: [{ key: 'team', value: 'payments' }] },
      period: 'Monthly',
      amount: 12000,
      periods: null,
      currency: 'USD',
      startDate: '2026-12-01',
      costBasis: 'Effective',
      thresholds: [{ kind: 'Percent', value: 80, basis: 'Actual' }],
      createdAt: '2026-11-20T09:00:00.000Z',
      updatedAt: '2026-11-20T09:00:00.000Z',
      ...over,
    })

    beforeAll(async () => {
      org = await t.given.organisation()
      tenancies = [(await t.given.tenant(org)).id, (await t.given.tenant(org)).id]
    })

    it('keeps a budget whole, shows it to those who see its tenancies, and latches a threshold once a period', async () => {
      const store = createBudgetStore(t.db.kysely)
      const mine = budget({})
      const wide = budget({ name: 'Everything', scope: { tenancyIds: null } })
      const custom = budget({
        name: 'Launch',
        period: 'Custom',
        amount: null,
        periods: [{ from: '2026-12-01', to: '2027-02-28', amount: 30000 }],
        scope: { tenancyIds: tenancies },
      })
      for (const b of [mine, wide, custom]) await store.insert(b, noAudit)
      expect(await store.byId(mine.id)).toEqual(mine)
      expect(await store.byId(custom.id)).toEqual(custom)

      const names = async (visibility: 'all' | string[]) =>
        (await store.list(org.organisationId, visibility, { page: 1, pageSize: 50 })).items.map((b) => b.name)
      expect(await names('all')).toEqual(['Everything', 'Launch', 'Payments'])
      expect(await names([tenancies[0]!])).toEqual(['Payments'])
      expect(await names(tenancies)).toEqual(['Launch', 'Payments'])
      expect(await names([])).toEqual([])

      expect((await store.allVisible(org.organisationId, [tenancies[0]!])).map((b) => b.name)).toEqual(['Payments'])
      const covering = async (tenancyId: string) =>
        (await store.covering(org.organisationId, tenancyId)).map((b) => b.name).sort()
      expect(await covering(tenancies[0]!)).toEqual(['Everything', 'Launch', 'Payments'])
      expect(await covering(tenancies[1]!)).toEqual(['Everything', 'Launch'])
      expect(await store.anyOf(t.db.kysely, org.organisationId)).toBe(true)

      const latched = async (periodFrom: string) =>
        (await store.latchedIn([{ budgetId: mine.id, periodFrom }])).get(mine.id) ?? new Map()
      const latch = (index: number) =>
        t.db.kysely
          .transaction()
          .execute((tx) => store.latch(tx, mine.id, '2026-12-01', [{ index, since: '2026-12-20' }]))
      expect(await latch(0)).toEqual([0])
      expect(await latch(0)).toEqual([])
      expect(await latched('2026-12-01')).toEqual(new Map([[0, '2026-12-20']]))
      expect(await latched('2027-01-01')).toEqual(new Map())

      await store.update({ ...mine, amount: 15000 }, noAudit, true)
      expect((await store.byId(mine.id))!.amount).toBe(15000)
      expect(await latched('2026-12-01')).toEqual(new Map())
      await store.delete(mine.id, noAudit)
      expect(await store.byId(mine.id)).toBeNull()
    })
  })
}
