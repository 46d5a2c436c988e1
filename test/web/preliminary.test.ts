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

  it('draws the forecast dashed with its band past the last settled day, and says the month-end in words', async () => {
    const today = toDay(t.clock.now())
    const forecast = await t.request('GET', `${API_PREFIX}/tenants/${tenant.id}/costs/forecast`, org.ownerKey)
    expect(forecast.statusCode, forecast.body).toBe(200)
    const monthEnd = forecast.json().series[0].monthEnd

    // Still signed in from the test before.
    const page = await browser.newPage()
    await page.goto(`${browser.base}/tenants`)
    await page.getByRole('link', { name: /Restated estate/ }).click()
    await page.locator('.chart canvas').first().waitFor()
    const plot = page.locator('.chart .u-over').first()
    const before = (await plot.boundingBox())!
    const preliminary = (await page.locator('.preliminary-days').boundingBox())!
    await page.getByLabel('Forecast').check()
    const summary = page.locator('.forecast-summary')
    await summary.waitFor()
    const money = (v: number) =>
      new Intl.NumberFormat('en-US', { style: 'currency', currency: forecast.json().currency }).format(v)
    expect(await summary.textContent()).toContain(`this month ends near ${money(monthEnd.expected)}`)
    expect(await summary.textContent()).toContain(`${money(monthEnd.lower)} to ${money(monthEnd.upper)}`)
    // The legend names the dashed line; the days forecast reach past the chart's last day when the month goes on.
    await page.locator('.u-legend').getByText('Forecast').waitFor()
    const after = (await plot.boundingBox())!
    expect(after.width).toBeCloseTo(before.width, 0)
    if (monthEnd.date > today) {
      const hatched = (await page.locator('.preliminary-days').boundingBox())!
      expect(hatched.x + hatched.width).toBeLessThan(preliminary.x + preliminary.width - 1)
    }
    await page.screenshot({ path: '/work/shots/forecast-chart-1280.png', fullPage: true })

    // A tenant without four weeks of history says why there is no forecast.
    const young = await t.given.tenant(org, { name: 'Young estate' })
    await page.goto(`${browser.base}/tenants/${young.id}`)
    await page.getByLabel('Forecast').check()
    await page.getByText('No forecast yet: A forecast needs at least 28 settled days of usage cost').waitFor()
    expect(problems).toEqual([
      'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
    ])
    problems.length = 0
  })
})
