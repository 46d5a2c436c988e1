import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { FOCUS_HEADER, focusLine, PAYMENTS, SEARCH } from './focus-lines.js'

for (const dialect of testDialects()) {
  describe(`${dialect}: a budget scope's daily costs`, () => {
    const t = useTestApp({ dialect, now: '2026-11-20T09:00:00.000Z' })
    let org: OrgContext
    let dir: string
    let tenantId: string

    beforeAll(async () => {
      org = await t.given.organisation()
      tenantId = (await t.given.tenant(org)).id
      dir = mkdtempSync(join(tmpdir(), 'costwatch-budget-scope-'))
      const file = join(dir, 'focus.csv')
      writeFileSync(
        file,
        [
          FOCUS_HEADER,
          focusLine('2026-11-01', 'Pay-Prod', 'vm-pay', 'Virtual Machines', PAYMENTS, '10'),
          focusLine('2026-11-01', 'pay-prod', 'db-pay', 'SQL Database', PAYMENTS, '5'),
          focusLine('2026-11-01', 'search', 'vm-search', 'Virtual Machines', SEARCH, '7'),
          focusLine('2026-11-02', 'Pay-Prod', 'vm-pay', 'Virtual Machines', PAYMENTS, '11'),
          focusLine('2026-11-02', 'Pay-Prod', 'vm-pay', 'Virtual Machines', PAYMENTS, '3', 'Purchase'),
        ].join('\n'),
      )
      await t.services.importFocus(tenantId, [file])
    })
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    it('sums the resources carrying every tag, in a resource group, under a service, by charge kind', async () => {
      const reads = t.services.costReads
      const daily = async (
        filter: { tags?: { key: string; value: string }[]; resourceGroup?: string; service?: string },
        charges?: 'all' | 'usage' | 'nonUsage',
      ) =>
        (
          await reads.filteredDaily(
            tenantId,
            { tags: filter.tags ?? [], resourceGroup: filter.resourceGroup ?? null, service: filter.service ?? null },
            '2026-11-01',
            '2026-11-30',
            charges,
          )
        )
          .map((r) => [r.date, r.cost])
          .sort()
      expect(await daily({})).toEqual([
        ['2026-11-01', 22],
        ['2026-11-02', 14],
      ])
      // The key in any letter case, the value exactly.
      expect(await daily({ tags: [{ key: 'TEAM', value: 'payments' }] })).toEqual([
        ['2026-11-01', 15],
        ['2026-11-02', 14],
      ])
      expect(await daily({ tags: [{ key: 'team', value: 'Payments' }] })).toEqual([])
      expect(
        await daily({
          tags: [
            { key: 'team', value: 'payments' },
            { key: 'env', value: 'prod' },
          ],
        }),
      ).toEqual([
        ['2026-11-01', 15],
        ['2026-11-02', 14],
      ])
      expect(await daily({ resourceGroup: 'PAY-PROD', service: 'Virtual Machines' })).toEqual([
        ['2026-11-01', 10],
        ['2026-11-02', 14],
      ])
      expect(await daily({ resourceGroup: 'pay-prod' }, 'usage')).toEqual([
        ['2026-11-01', 15],
        ['2026-11-02', 11],
      ])
      expect(await daily({}, 'nonUsage')).toEqual([['2026-11-02', 3]])
    })
  })
}
