import { mkdirSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '../../src/app.js'
import type { Overview } from '../../src/features/overview/schemas.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { addDays } from '../../src/platform/time.js'
import type { OrgContext } from '../support/app.js'
import { noHorizontalScroll, TEST_PASSWORD, useBrowserApp } from '../support/browser.js'

/**
 * The overview in a real browser: where sign-in lands, and each of its items leading to its page. A tenant with a
 * simulated deep history (months of costs, analysed), and a marker in this week. Screenshots: /work/shots/overview-*.
 */

const { t, base, problems, ...browser } = await useBrowserApp()
const SHOTS = '/work/shots'

describe('web interface: the overview', () => {
  let org: OrgContext
  let tenant: TenantRecord
  let expected: Overview

  beforeAll(async () => {
    org = await t.given.organisation('Overview Org')
    tenant = await t.given.tenant(org, { name: 'Shop estate' })
    const queued = await t.request(
      'POST',
      `${API_PREFIX}/tenants/${tenant.id}/snapshots?deepHistory=true`,
      org.ownerKey,
    )
    expect(queued.statusCode).toBe(202)
    const worker = t.worker()
    // The snapshot, then the analysis it queues (anomalies and insights), then whatever follows.
    while (await worker.runOnce()) {}
    const yesterday = addDays(new Date().toISOString().slice(0, 10), -3)
    const marker = await t.request('POST', `${API_PREFIX}/tenants/${tenant.id}/events`, org.ownerKey, {
      occurredAt: `${yesterday}T10:00:00Z`,
      title: 'Checkout release',
      category: 'Deployment',
    })
    expect(marker.statusCode, marker.body).toBe(201)
    await browser.setPassword(org.ownerId)
  }, 180_000)

  it('is where sign-in lands, first in the navigation, and each item leads to its page', async () => {
    const page = await browser.newPage()
    await page.goto(`${base}/`)
    await page.getByLabel('E-mail address').fill(org.owner.actor.name ?? '')
    await page.getByLabel('Password').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toBe('/overview')
    expect(await page.title()).toBe('Overview · Costwatch')
    const nav = page.getByRole('navigation', { name: 'Sections' })
    expect((await nav.getByRole('link').first().innerText()).trim()).toBe('Overview')
    expect(await nav.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe('page')
    await page.getByRole('heading', { name: 'Month to date' }).waitFor()

    // What the page shows is what the API answers.
    const answer = await page.evaluate(async () => (await fetch('/api/app/overview')).json())
    expected = answer as Overview
    const usd = expected.currencies[0]!
    expect(usd.movers.length).toBeGreaterThan(0)
    expect(usd.forecast.total).not.toBeNull()
    const movers = page.getByRole('list', { name: 'Top movers this week' })
    expect(await movers.locator(':scope > li').count()).toBe(usd.movers.length)
    expect(await page.getByRole('heading', { name: 'Month-end forecast' }).count()).toBe(1)
    await page.getByText('80% likely between').waitFor()
    const severities = page.getByRole('list', { name: 'Active anomalies by severity' })
    for (const s of expected.anomalies.bySeverity) {
      expect(await severities.getByRole('link', { name: `${s.count} ${s.severity}` }).count(), s.severity).toBe(1)
    }
    expect(await page.getByRole('heading', { name: 'Budgets at risk' }).count()).toBe(0)
    mkdirSync(SHOTS, { recursive: true })
    await page.screenshot({ path: `${SHOTS}/overview-1280.png`, fullPage: true })

    // A mover opens the explorer on its scope over both weeks.
    const first = usd.movers[0]!
    await movers.getByRole('link', { name: first.name, exact: true }).first().click()
    await page.waitForURL((url) => url.pathname === `/tenants/${tenant.id}`)
    expect(page.url()).toBe(base + first.link)
    expect(await page.getByLabel('From').inputValue()).toBe(first.previousFrom)
    expect(await page.getByLabel('To').inputValue()).toBe(first.to)
    await page.locator('.chart canvas').first().waitFor()
    await page.goBack()

    // A severity opens the anomalies list filtered to it.
    await severities.getByRole('link', { name: /High/ }).click()
    await page.waitForURL((url) => url.pathname === '/anomalies')
    expect(new URL(page.url()).searchParams.get('severity')).toBe('High')
    expect(new URL(page.url()).searchParams.get('status')).toBe('Active')
    expect(await page.getByLabel('Severity').inputValue()).toBe('High')
    await page.goBack()

    // The savings open the insights; the month to date the tenant's costs.
    await page.getByRole('link', { name: /active insights?$/ }).click()
    await page.getByRole('heading', { name: 'Insights', level: 1 }).waitFor()
    await page.goBack()
    await page.getByRole('link', { name: 'Explore the costs' }).click()
    await page.waitForURL((url) => url.pathname === `/tenants/${tenant.id}`)
    await page.goBack()

    // On a phone: one column, nothing scrolls sideways. Opened by its address, as a bookmark or a reload does.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${base}/overview`)
    await page.getByRole('heading', { name: 'Month to date' }).waitFor()
    await noHorizontalScroll(page)
    await page.screenshot({ path: `${SHOTS}/overview-390.png`, fullPage: true })
    expect(problems).toEqual([])
    await page.close()
  })
})
