import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '../../src/app.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { noHorizontalScroll, TEST_PASSWORD, useBrowserApp } from '../support/browser.js'

/**
 * The web interface in a real browser against the real app on a real port. SQLite only: the API under it has its
 * own tests on both databases; this checks the interface.
 */

const { t, base, problems, ...browser } = await useBrowserApp()

describe('web interface', () => {
  let org: OrgContext
  let tenantName: string

  beforeAll(async () => {
    org = await t.given.organisation('Browser Org')
    const tenant = await t.given.tenant(org, { name: 'Production estate' })
    tenantName = tenant.name
    await t.given.tenant(org, { name: 'Staging estate' })
    const queued = await t.request(
      'POST',
      `${API_PREFIX}/tenants/${tenant.id}/snapshots?deepHistory=true`,
      org.ownerKey,
    )
    expect(queued.statusCode).toBe(202)
    expect(await t.worker().runOnce()).toBeTruthy()
    const marker = await t.request('POST', `${API_PREFIX}/tenants/${tenant.id}/events`, org.ownerKey, {
      occurredAt: new Date(Date.now() - 10 * 86_400_000).toISOString(),
      title: 'Deploy checkout v2.4',
      category: 'Deployment',
      description: 'Moved checkout to the premium tier.',
      tagKey: 'service',
      tagValue: 'checkout',
    })
    expect(marker.statusCode).toBe(201)
    // One at the very end of the range too: its line must stay on the chart, and the page no wider.
    const latest = await t.request('POST', `${API_PREFIX}/tenants/${tenant.id}/events`, org.ownerKey, {
      occurredAt: new Date().toISOString(),
      title: 'Database failover',
      category: 'Incident',
    })
    expect(latest.statusCode).toBe(201)
    await browser.setPassword(org.ownerId)
  }, 120_000)

  it('serves the page with a strict Content-Security-Policy and hashed assets with a long cache', async () => {
    const page = await fetch(`${base}/tenants/some-id`)
    expect(page.status).toBe(200)
    const csp = page.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('unsafe-eval')
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    const html = await page.text()
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1]
    expect(script).toBeDefined()
    const asset = await fetch(base + script)
    expect(asset.status).toBe(200)
    expect(asset.headers.get('content-type')).toContain('text/javascript')
    expect(asset.headers.get('cache-control')).toContain('immutable')
    expect((await fetch(`${base}/assets/..%2f..%2fpackage.json`)).status).toBe(404)
  })

  it('refuses a wrong password in words, then signs in, picks the tenant and shows the chart and its marker', async () => {
    const page = await browser.newPage()
    await page.goto(`${base}/`)
    await page.getByLabel('E-mail address').fill(org.owner.actor.name ?? '')
    await page.getByLabel('Password').fill('not the password at all')
    await page.getByRole('button', { name: 'Sign in' }).click()
    const alert = page.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/e-mail address or password/i)
    await page.screenshot({ path: '/work/ui-signin.png' })

    await page.getByRole('button', { name: 'Forgot password?' }).click()
    expect(await page.getByRole('status').textContent()).toMatch(/link to set your password is on its way/)

    await page.getByLabel('Password').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    // Signed in, the app opens the overview; the tenants are one click away.
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor()
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tenants' }).click()
    await page.getByRole('heading', { name: 'Tenants' }).waitFor()
    // The heading shows before the list has loaded: wait for the list, then count it.
    const tenantLinks = page.getByRole('link').filter({ hasText: 'estate' })
    await tenantLinks.first().waitFor()
    expect(await tenantLinks.count()).toBe(2)
    await page.getByRole('link', { name: new RegExp(tenantName) }).click()

    await page.locator('.chart canvas').first().waitFor()
    const markers = page.getByRole('list', { name: 'Event markers' })
    await markers.getByText('Deploy checkout v2.4').waitFor()
    await markers.getByText('Database failover').waitFor()
    // The marker's handle on the chart shows its details on keyboard focus.
    await page.getByRole('button', { name: 'Deployment marker: Deploy checkout v2.4' }).focus()
    const tooltip = page.getByRole('tooltip')
    await tooltip.waitFor()
    expect(await tooltip.textContent()).toContain('service=checkout')
    await page.screenshot({ path: '/work/ui-1280.png', fullPage: true })
    await page.keyboard.press('Escape')
    await tooltip.waitFor({ state: 'detached' })

    await page.setViewportSize({ width: 390, height: 844 })
    await page.getByRole('combobox', { name: 'Group by' }).selectOption('service')
    await page.locator('.u-legend').getByText('Total').waitFor()
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/ui-390.png', fullPage: true })

    // A tenant without costs says so, and has no markers.
    await page.getByRole('link', { name: 'Tenants' }).click()
    await page.getByRole('link', { name: /Staging estate/ }).click()
    await page.getByText('No costs in this range yet.').waitFor()
    await page.getByText('No event markers in this range.').waitFor()

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    expect(problems).toEqual([])
  })
})

describe('web interface of a large organisation', () => {
  it('pages through more tenants than one page of the API holds, and offers every one of them in a filter', async () => {
    const large = await t.given.organisation('Many Tenants Org')
    const names: string[] = []
    for (let i = 1; i <= 205; i++)
      names.push((await t.given.tenant(large, { name: `Estate ${String(i).padStart(3, '0')}` })).name)
    const page = await browser.newPage()
    await browser.signInAsOwner(page, large)
    await page.getByRole('heading', { name: 'Tenants' }).waitFor()
    const pager = page.getByRole('navigation', { name: 'Pages of tenants' })
    await pager.getByText('Page 1 of 5 (205 tenants)').waitFor()
    const links = page.getByRole('link').filter({ hasText: 'Estate' })
    expect(await links.count()).toBe(50)
    await pager.getByRole('button', { name: 'Next page' }).click()
    await pager.getByText('Page 2 of 5 (205 tenants)').waitFor()
    await page.waitForURL(/[?&]page=2/)
    const second = await t.request('GET', `${API_PREFIX}/tenants?page=2&pageSize=50`, large.ownerKey)
    const secondNames = (second.json() as { items: { name: string }[] }).items.map((tenant) => tenant.name)
    await expect.poll(() => links.first().textContent()).toContain(secondNames[0])
    expect(await links.allTextContents()).toEqual(secondNames.map((name) => expect.stringContaining(name)))
    // A reload keeps the page; the last one holds the rest.
    await page.goto(`${base}/tenants?page=5`)
    await pager.getByText('Page 5 of 5 (205 tenants)').waitFor()
    await expect.poll(() => links.count()).toBe(5)
    await page.screenshot({ path: '/work/shots/tenants-paged-1280.png', fullPage: true })
    await page.setViewportSize({ width: 390, height: 844 })
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/tenants-paged-390.png', fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })
    // A list's tenant filter offers all of them, not the first page of 200 alone.
    await page.goto(`${base}/anomalies`)
    const filter = page.getByLabel('Tenant')
    await expect.poll(() => filter.locator('option').count()).toBe(206)
    expect(await filter.locator('option').last().textContent()).toBe(names.toSorted().at(-1))
    await page.close()
  })
})

describe('web interface not built', () => {
  const missing = join(tmpdir(), 'costwatch-web-never-built')
  const bare = useTestApp({ dialect: 'sqlite', webDir: missing })

  it('answers / with a page saying how to build it, and the API all the same', async () => {
    const page = await bare.request('GET', '/')
    expect(page.statusCode).toBe(404)
    expect(page.body).toContain('npm run build')
    expect((await bare.request('GET', '/healthz')).statusCode).toBe(200)
  })
})
