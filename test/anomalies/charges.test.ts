import { readFileSync, writeFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AnomalyRecord } from '../../src/features/anomalies/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { DROP_DAY, plantedEstate, SPIKE_DAY, writeFocusFiles } from '../support/focus-estate.js'

const API = '/api/public/v1'

/** Adds, beside vm-web-1's usage of `day`, a row of another charge category costing `cost`. */
function addCharge(file: string, day: string, category: 'Purchase' | 'Tax', cost: number) {
  const text = readFileSync(file, 'utf8')
  const [header, ...lines] = text.split('\n')
  const start = header!.split(',').indexOf('ChargePeriodStart')
  const usage = lines.find((l) => l.split(',')[start] === `${day}T00:00:00Z` && l.includes('/vm-web-1,'))!
  const billed = usage.split(',')[0]! // BilledCost comes first; EffectiveCost and the USD cost repeat it
  const charge = usage.replaceAll(billed, cost.toFixed(6)).replace(',Usage,', `,${category},`)
  writeFileSync(file, `${text}${charge}\n`)
}

for (const dialect of testDialects()) {
  describe(`${dialect}: anomalies judge usage only`, () => {
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z', env: { COSTWATCH_SNAPSHOT_HOUR: '23' } })
    let org: OrgContext
    let tenantId: string

    beforeAll(async () => {
      org = await t.given.organisation()
      tenantId = (await t.given.tenant(org)).id
      const files = writeFocusFiles(plantedEstate())
      const february = files.find((f) => f.endsWith('focus-2026-02.csv'))!
      addCharge(february, '2026-02-15', 'Purchase', 4000) // a one-year reservation bought on the 15th
      addCharge(february, '2026-02-16', 'Tax', 800)
      await t.services.importFocus(tenantId, files)
      const worker = t.worker()
      while (await worker.runOnce()) {}
    })

    it('a purchase or a tax row, however large, raises no anomaly at any scope; the charts still count it', async () => {
      const res = await t.request('GET', `${API}/anomalies?tenancyId=${tenantId}&pageSize=200`, org.ownerKey)
      const days = new Set((res.json().items as AnomalyRecord[]).map((a) => a.dateRaised))
      expect([...days].sort()).toEqual([DROP_DAY, SPIKE_DAY])

      const chart = await t.request(
        'GET',
        `${API}/tenants/${tenantId}/costs/daily?from=2026-02-14&to=2026-02-16`,
        org.ownerKey,
      )
      expect(chart.statusCode, chart.body).toBe(200)
      const totals = chart.json().points.map((d: { cost: number }) => d.cost)
      expect(totals[1] - totals[0]).toBeGreaterThan(3900)
      expect(totals[2] - totals[0]).toBeGreaterThan(700)
    })
  })
}
