import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'
import { useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { DROP_DAY, plantedEstate, writeFocusFiles } from '../support/focus-estate.js'

const API = '/api/public/v1'

describe('anomaly detection settings', () => {
  it('default to the documented thresholds and name a bad value', () => {
    const base = { COSTWATCH_SECRET_KEY: Buffer.alloc(32, 1).toString('base64') }
    expect(loadConfig(base).anomalyDetection).toEqual({
      minImpact: 25,
      minImpactPercent: 20,
      scoreThreshold: 4,
      minHistoryDays: 14,
      seasonWeeks: 8,
      shiftConfirmDays: 3,
    })
    expect(loadConfig({ ...base, COSTWATCH_ANOMALY_MIN_IMPACT: '12.5' }).anomalyDetection.minImpact).toBe(12.5)
    for (const [name, value] of [
      ['COSTWATCH_ANOMALY_MIN_IMPACT', 'lots'],
      ['COSTWATCH_ANOMALY_SCORE', '0'],
      ['COSTWATCH_ANOMALY_SEASON_WEEKS', '1.5'],
    ] as const) {
      expect(() => loadConfig({ ...base, [name]: value })).toThrow(ConfigError)
      expect(() => loadConfig({ ...base, [name]: value })).toThrow(name)
    }
  })
})

for (const dialect of testDialects()) {
  describe(`${dialect}: anomaly thresholds from the settings`, () => {
    const t = useTestApp({
      dialect,
      now: '2026-03-01T09:00:00.000Z',
      env: { COSTWATCH_SNAPSHOT_HOUR: '23', COSTWATCH_ANOMALY_MIN_IMPACT: '10' },
    })

    it('a smaller minimum impact makes the same outage High (10 times the minimum, over 50%)', async () => {
      const org = await t.given.organisation()
      const tenant = await t.given.tenant(org)
      await t.services.importFocus(tenant.id, writeFocusFiles(plantedEstate()))
      const worker = t.worker()
      while (await worker.runOnce()) {}
      const res = await t.request('GET', `${API}/anomalies?dateRaised=${DROP_DAY}&pageSize=200`, org.ownerKey)
      const drop = res.json().items.find((a: { scope: { kind: string } }) => a.scope.kind === 'Resource')
      expect(drop).toMatchObject({ severity: 'High' }) // Medium with the default minimum of 25
    })
  })
}
