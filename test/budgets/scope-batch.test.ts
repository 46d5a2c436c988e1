import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scopeCostsFor } from '../../src/features/budgets/costs.js'
import type { BudgetDefinition } from '../../src/features/budgets/store.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { FOCUS_HEADER, focusLine, PAYMENTS, PAYMENTS_DEV, SEARCH } from './focus-lines.js'

/** Filters of every shape, more than a batch's threshold of each kind (with tags and without). */
const SCOPES: { tags?: { key: string; value: string }[]; resourceGroup?: string; service?: string }[] = [
  {},
  { resourceGroup: 'PAY-PROD' },
  { resourceGroup: 'pay-prod', service: 'Virtual Machines' },
  { service: 'SQL Database' },
  { resourceGroup: 'nowhere' },
  { tags: [{ key: 'team', value: 'payments' }] },
  { tags: [{ key: 'TEAM', value: 'search' }] },
  { tags: [{ key: 'team', value: 'Payments' }] },
  {
    tags: [
      { key: 'team', value: 'payments' },
      { key: 'env', value: 'prod' },
    ],
  },
  { tags: [{ key: 'team', value: 'payments' }], resourceGroup: 'Pay-Dev' },
  { tags: [{ key: 'env', value: 'prod' }], service: 'Virtual Machines' },
]

for (const dialect of testDialects()) {
  describe(`${dialect}: budget scopes read together`, () => {
    const t = useTestApp({ dialect, now: '2026-11-20T09:00:00.000Z' })
    let org: OrgContext
    let dir: string
    let tenantId: string

    beforeAll(async () => {
      org = await t.given.organisation()
      tenantId = (await t.given.tenant(org)).id
      dir = mkdtempSync(join(tmpdir(), 'costwatch-budget-batch-'))
      const file = join(dir, 'focus.csv')
      const rows = [FOCUS_HEADER]
      for (const day of ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-05']) {
        const d = Number(day.slice(8))
        rows.push(focusLine(day, 'Pay-Prod', 'vm-pay', 'Virtual Machines', PAYMENTS, String(10 + d)))
        rows.push(focusLine(day, 'pay-prod', 'db-pay', 'SQL Database', PAYMENTS, String(5.25 * d)))
        rows.push(focusLine(day, 'pay-dev', 'vm-pay-dev', 'Virtual Machines', PAYMENTS_DEV, String(2 + d / 10)))
        rows.push(focusLine(day, 'search', 'vm-search', 'Virtual Machines', SEARCH, String(7 * d)))
      }
      rows.push(focusLine('2026-11-02', 'Pay-Prod', 'vm-pay', 'Virtual Machines', PAYMENTS, '3', 'Purchase'))
      rows.push(focusLine('2026-11-03', 'search', 'vm-search', 'Virtual Machines', SEARCH, '-4', 'Credit'))
      writeFileSync(file, rows.join('\n'))
      await t.services.importFocus(tenantId, [file])
    })
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    it("sums each scope's days as its own read does, whatever the ranges and charges asked together", async () => {
      const reads = t.services.costReads
      const budget = (scope: (typeof SCOPES)[number], i: number, currency = 'USD'): BudgetDefinition => ({
        id: `b${i}`,
        organisationId: org.organisationId,
        name: `b${i}`,
        scope: {
          tenancyIds: [tenantId],
          tags: scope.tags ?? [],
          resourceGroup: scope.resourceGroup ?? null,
          service: scope.service ?? null,
        },
        period: 'Monthly',
        amount: 100,
        periods: null,
        currency,
        startDate: '2026-11-01',
        costBasis: 'Effective',
        thresholds: [],
        createdAt: '2026-11-01T00:00:00.000Z',
        updatedAt: '2026-11-01T00:00:00.000Z',
      })
      const costsOf = scopeCostsFor(reads, async () => [tenantId])
      const asked = SCOPES.flatMap((scope, i) =>
        (['all', 'usage'] as const).flatMap((charges) =>
          [
            ['2026-11-01', '2026-11-30'],
            ['2026-11-02', '2026-11-03'],
          ].flatMap(([from, to]) =>
            (['USD', 'EUR'] as const).map((currency) => ({ scope, i, charges, from: from!, to: to!, currency })),
          ),
        ),
      )
      // Asked in the same turn, as an evaluation of many budgets asks.
      const together = await Promise.all(
        asked.map((a) => costsOf(budget(a.scope, a.i, a.currency)).daily(a.from, a.to, a.charges)),
      )
      let nonEmpty = 0
      for (const [n, a] of asked.entries()) {
        const alone = await reads.filteredDaily(
          tenantId,
          { tags: a.scope.tags ?? [], resourceGroup: a.scope.resourceGroup ?? null, service: a.scope.service ?? null },
          a.from,
          a.to,
          a.charges,
        )
        const expected = alone
          .filter((r) => r.currency === a.currency)
          .map((r) => [r.date, r.cost])
          .sort()
        const got = [...together[n]!].sort()
        expect(
          got.map(([d]) => d),
          JSON.stringify(a),
        ).toEqual(expected.map(([d]) => d))
        for (const [k, [, cost]] of got.entries()) expect(cost).toBeCloseTo(expected[k]![1] as number, 9)
        if (got.length) nonEmpty++
      }
      // The comparison is of something: most scopes have costs.
      expect(nonEmpty).toBeGreaterThan(asked.length / 4)
    })
  })
}
