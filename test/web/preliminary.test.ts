import { beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '../../src/app.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { addDays, toDay } from '../../src/platform/time.js'
import type { OrgContext } from '../support/app.js'
import { useBrowserApp } from '../support/browser.js'

/**
 * Preliminary days on the cost chart in a real browser: the days after the tenant's last settled one are hatched,
 * with a note in the legend, and the settled ones are not.
 */

const { t, problems, ...browser } = await useBrowserApp()

describe('web interface: preliminary days on the cost chart', () => {
  let org: OrgContext
  let tenant: TenantRecord

  beforeAll(async () => {
    org = await t.given.organisation('Settling Org')
    tenant = await t.given.tenant(org, { name: 'Restated estate' })
    const queued = await t.request(
      'POST',
      `${API_PREFIX}/tenants/${tenant.id}/snapshots?deepHistory=true`,
      org.ownerKey,
    )
    expect(queued.statusCode).toBe(202)
    expect(await t.worker().runOnce()).toBeTruthy()
  }, 120_000)

  it('hatches the days a collection still restates and says so under the chart', async () => {
    const today = toDay(t.clock.now())
    // The chart's API says which days are settled: a collection's newest two are not.
    const chart = await t.request('GET', `${API_PREFIX}/tenants/${tenant.id}/costs/daily`, org.ownerKey)
    expect(chart.json().settledThrough).toBe(addDays(today, -2))

    const page = await browser.newPage()
    await browser.signInAsOwner(page, org)
    await page.getByRole('link', { name: /Restated estate/ }).click()
    const canvas = page.locator('.chart canvas').first()
    await canvas.waitFor()
    const band = page.locator('.preliminary-days')
    await band.waitFor()
    expect(await band.getAttribute('data-from')).toBe(addDays(today, -1))
    await page.getByText(`From ${addDays(today, -1)}: preliminary, still being restated`).waitFor()

    // The band covers the last two of the chart's 30 days and no more: it starts past nine tenths of the plot.
    const plot = (await page.locator('.chart .u-over').first().boundingBox())!
    const hatched = (await band.boundingBox())!
    expect(hatched.x + hatched.width).toBeCloseTo(plot.x + plot.width, 0)
    expect(hatched.x).toBeGreaterThan(plot.x + plot.width * 0.9)
    expect(hatched.width).toBeGreaterThan(plot.width * 0.03)
    await page.screenshot({ path: '/work/shots/preliminary-chart-1280.png', fullPage: true })
    expect(problems).toEqual([])
  })
})
