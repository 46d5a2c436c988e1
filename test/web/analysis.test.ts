import { beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '../../src/app.js'
import type { AnomalyRecord } from '../../src/features/anomalies/schemas.js'
import type { InsightRecord } from '../../src/features/insights/schemas.js'
import { addDays } from '../../src/platform/time.js'
import type { OrgContext } from '../support/app.js'
import { noHorizontalScroll, useBrowserApp } from '../support/browser.js'
import { plantedEstate, writeFocusFiles } from '../support/focus-estate.js'

/**
 * The Anomalies and Insights pages and the anomalies on the explorer's chart, in a real browser against the real
 * app. One tenant has the simulated estate's 30 days of deep history (every category of insight, and the changes
 * it plants in them); a second tenant imports a planted estate of 59 days ending yesterday: a spike of vm-web-1
 * nine days ago (High, at every scope) and an outage of db-1 nineteen days ago (Medium).
 */

const { t, base, problems, ...browser } = await useBrowserApp()
const TODAY = new Date().toISOString().slice(0, 10)
const SPIKE_DAY = addDays(TODAY, -9)
const VIEWER = 'vera.viewer@analysis.test'

describe('web interface: anomalies and insights', () => {
  let org: OrgContext
  let shopId: string
  let viewerId: string
  const apiGet = async <T>(path: string) => {
    const res = await t.request('GET', `${API_PREFIX}${path}`, org.ownerKey)
    expect(res.statusCode, res.body).toBe(200)
    return res.json() as T
  }

  beforeAll(async () => {
    org = await t.given.organisation('Analysis Org')
    const contoso = await t.given.tenant(org, { name: 'Contoso estate' })
    const shop = await t.given.tenant(org, { name: 'Web shop' })
    shopId = shop.id
    const queued = await t.request(
      'POST',
      `${API_PREFIX}/tenants/${contoso.id}/snapshots?deepHistory=true`,
      org.ownerKey,
    )
    expect(queued.statusCode).toBe(202)
    const estate = plantedEstate()
    const days = estate.days.map((_, d) => addDays(TODAY, d - estate.days.length))
    await t.services.importFocus(shop.id, writeFocusFiles({ ...estate, days }))
    // The import stands for today's scheduled collection, which would add the simulated estate's last days to it.
    await t.db.kysely.updateTable('snapshotRuns').set({ scheduledFor: TODAY }).where('tenantId', '=', shop.id).execute()
    const marker = await t.request('POST', `${API_PREFIX}/tenants/${shop.id}/events`, org.ownerKey, {
      occurredAt: `${SPIKE_DAY}T08:30:00Z`,
      title: 'Deploy web v3.1',
      category: 'Deployment',
    })
    expect(marker.statusCode).toBe(201)
    const worker = t.worker()
    while (await worker.runOnce()) {}
    for (const tenant of [contoso, shop]) {
      const [analysis] = await t.services.analysisStore.ofTenant(tenant.id)
      expect(analysis?.status).toBe('Succeeded')
    }
    await browser.setPassword(org.ownerId)
    // A member who may only look at the simulated estate.
    const invited = await t.request('POST', `${API_PREFIX}/users`, org.ownerKey, { email: VIEWER })
    expect(invited.statusCode, invited.body).toBe(202)
    viewerId = invited.json().id
    await t.db.kysely
      .updateTable('users')
      .set({ status: 'Active', displayName: 'Vera Viewer' })
      .where('id', '=', viewerId)
      .execute()
    await browser.setPassword(viewerId)
    const granted = await t.request('PUT', `${API_PREFIX}/tenancies/${contoso.id}/users/${viewerId}`, org.ownerKey, {
      role: 'Viewer',
    })
    expect(granted.statusCode, granted.body).toBe(200)
  }, 120_000)

  it('filters the anomalies, opens one on its chart, acknowledges it, and finds it on the explorer', async () => {
    // The lists and the chart show one item per incident (the anomalies one change explains), its others inside.
    const incidents = (anomalies: AnomalyRecord[]) => new Set(anomalies.map((a) => a.incidentId)).size
    const shopAnomalies = (await apiGet<{ items: AnomalyRecord[] }>(`/anomalies?tenancyId=${shopId}&pageSize=200`))
      .items
    const page = await browser.newPage()
    await browser.signInAsOwner(page, org)
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Anomalies' }).click()
    const list = page.getByRole('list', { name: 'Anomalies' })
    const items = list.locator(':scope > li')
    await list.getByRole('link').first().waitFor()
    const heads = (query: string) =>
      apiGet<{ items: AnomalyRecord[] }>(`/anomalies?view=incidents&pageSize=25${query}`).then((p) => p.items.length)
    expect(await items.count()).toBe(await heads(''))

    await page.getByLabel('Tenant', { exact: true }).selectOption({ label: 'Web shop' })
    await page.getByLabel('Severity').selectOption('High')
    await page.waitForURL(/severity=High/)
    await expect.poll(() => items.count()).toBe(await heads(`&tenancyId=${shopId}&severity=High`))
    for (const text of await list.getByRole('link').allTextContents()) expect(text).toContain('High')
    await page.getByLabel('Raised on').fill(addDays(SPIKE_DAY, -1))
    await page.getByText('No anomaly matches these filters.').waitFor()
    await page.getByLabel('Raised on').fill(SPIKE_DAY)
    await page.screenshot({ path: '/work/shots/analysis-anomalies-1280.png', fullPage: true })
    await list.getByRole('link', { name: `Whole tenant on ${SPIKE_DAY}` }).click()

    await page.getByRole('heading', { name: `Whole tenant on ${SPIKE_DAY}` }).waitFor()
    await page.locator('.chart canvas').first().waitFor()
    const tenantAnomaly = (
      await apiGet<{ items: AnomalyRecord[] }>(`/anomalies?tenancyId=${shopId}&dateRaised=${SPIKE_DAY}`)
    ).items.find((a) => a.scope.kind === 'Tenant')!
    expect(page.url()).toBe(`${base}/anomalies/${tenantAnomaly.id}`)
    await page.getByText(tenantAnomaly.description, { exact: true }).waitFor()
    const drivers = page.getByRole('table', { name: 'Parts of the scope that moved the same way on the day' })
    expect(await drivers.getByRole('row').count()).toBe(1 + tenantAnomaly.drivers.length)
    expect(await drivers.textContent()).toContain(tenantAnomaly.drivers[0]!.label)
    // The anomaly's own day is marked on its chart, and says what it is on focus.
    await page.getByRole('link', { name: new RegExp(`^High anomaly on ${SPIKE_DAY}`) }).focus()
    expect(await page.getByRole('tooltip').textContent()).toContain(tenantAnomaly.description)
    await page.getByRole('list', { name: 'Event markers' }).getByText('Deploy web v3.1').waitFor()
    await page.getByText('Nobody has acknowledged or resolved it yet.').waitFor()

    await page.getByRole('button', { name: 'Acknowledge' }).click()
    await page.getByRole('status').filter({ hasText: 'Marked Acknowledged.' }).waitFor()
    const acknowledged = await apiGet<AnomalyRecord>(`/anomalies/${tenantAnomaly.id}`)
    expect(acknowledged).toMatchObject({ status: 'Acknowledged', statusChangedBy: { type: 'User', id: org.ownerId } })
    await page.getByRole('heading', { name: 'Status: Acknowledged' }).waitFor()
    await page.getByText(`by ${org.owner.actor.name}`).waitFor()
    expect(await page.getByRole('button', { name: 'Acknowledge' }).isDisabled()).toBe(true)
    await page.screenshot({ path: '/work/shots/analysis-anomaly-1280.png', fullPage: true })

    // The explorer shades both episodes once each; the spike's link names its incident and leads to its head.
    await page.goto(`${base}/tenants/${shopId}`)
    const spikeIncident = shopAnomalies.filter((a) => a.incidentId === tenantAnomaly.incidentId).length
    const onChart = page.getByRole('link', {
      name: new RegExp(
        `^High anomaly on ${SPIKE_DAY}, Whole tenant${spikeIncident > 1 ? ` \\(incident of ${spikeIncident} anomalies\\)` : ':'}`,
      ),
    })
    await onChart.focus()
    expect(await page.getByRole('tooltip').textContent()).toContain(
      `${spikeIncident > 1 ? `Incident of ${spikeIncident} anomalies` : 'Anomaly'} on ${SPIKE_DAY}`,
    )
    expect(await page.locator('.anomaly-handle').count()).toBe(incidents(shopAnomalies))
    expect(await page.getByRole('list', { name: 'Anomalies' }).getByRole('link').count()).toBe(incidents(shopAnomalies))
    await page.screenshot({ path: '/work/shots/analysis-explorer-1280.png', fullPage: true })
    await onChart.click()
    await page.waitForURL(`${base}/anomalies/${tenantAnomaly.id}`)

    await page.setViewportSize({ width: 390, height: 844 })
    await page.getByRole('heading', { name: 'Status: Acknowledged' }).waitFor()
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/analysis-anomaly-390.png', fullPage: true })
    await page.goBack()
    await page.getByRole('list', { name: 'Anomalies' }).getByRole('link').first().waitFor()
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/analysis-explorer-390.png', fullPage: true })

    // A group's chart shades its own anomalies and its resources' only: vm-web-1's spike in web-prod, not the
    // outage of db-1 in data-prod; db-1's chart, the outage alone.
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`${base}/tenants/${shopId}?scope=resourceGroup:web-prod`)
    const chartList = page.getByRole('list', { name: 'Anomalies' })
    const inGroup = shopAnomalies.filter((a) => a.scope.resourceGroupName === 'web-prod')
    await page
      .getByRole('link', { name: new RegExp(`^High anomaly on ${SPIKE_DAY}, Resource group web-prod`) })
      .waitFor()
    expect(await page.locator('.anomaly-handle').count()).toBe(incidents(inGroup))
    await expect.poll(() => chartList.getByRole('link').count()).toBe(incidents(inGroup))
    await page.screenshot({ path: '/work/shots/analysis-explorer-group-1280.png', fullPage: true })
    const [db1] = (await apiGet<{ items: { id: string }[] }>(`/tenants/${shopId}/resources?armResourceName=db-1`)).items
    await page.goto(`${base}/tenants/${shopId}?scope=resource:${db1!.id}`)
    const outage = shopAnomalies.find((a) => a.scope.resourceId === db1!.id)!
    await page
      .getByRole('link', {
        name: `${outage.severity} anomaly from ${outage.episode.start} to ${outage.episode.end} (2 days), Resource`,
        exact: false,
      })
      .waitFor()
    expect(await page.locator('.anomaly-handle').count()).toBe(1)
    await expect.poll(() => chartList.getByRole('link').count()).toBe(1)
    await page.close()
    expect(problems).toEqual([])
  })

  it('lists the insights by category, refuses a bad snooze in words and snoozes one for 30 days', async () => {
    // Still signed in from the first test: the browser keeps the session cookie.
    const page = await browser.newPage()
    await page.goto(`${base}/tenants`)
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Insights' }).click()
    const list = page.getByRole('list', { name: 'Insights' })
    await list.getByRole('link').first().waitFor()
    await page.screenshot({ path: '/work/shots/analysis-insights-1280.png', fullPage: true })
    await page.getByLabel('Category').selectOption({ label: 'Orphaned resource' })
    await page.waitForURL(/category=OrphanedResource/)
    const orphaned = await apiGet<{ items: InsightRecord[]; totalCount: number }>(
      '/insights?category=OrphanedResource&pageSize=200',
    )
    expect(orphaned.totalCount).toBeGreaterThan(0)
    await expect.poll(() => list.getByRole('link').count()).toBe(Math.min(25, orphaned.totalCount))
    const insight = orphaned.items[0]!
    await list.getByRole('link', { name: insight.title }).click()
    await page.getByRole('heading', { name: insight.title }).waitFor()
    await page.getByText(insight.recommendation).waitFor()
    await page.getByText(insight.resourceName!, { exact: true }).waitFor()

    await page.getByLabel('Snooze for (days, 1 to 365)').fill('0')
    await page.getByRole('button', { name: 'Snooze' }).click()
    await page.getByText('The number of days must be at least 1.').waitFor()
    expect(await page.getByRole('alert').textContent()).toContain('One or more fields are invalid.')
    await page.screenshot({ path: '/work/shots/analysis-insight-1280.png', fullPage: true })
    expect((await apiGet<InsightRecord>(`/insights/${insight.id}`)).status).toBe('Active')
    // The refused change is the one failed request Chromium logs; nothing else went wrong so far.
    expect(problems).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)'])
    problems.length = 0

    await page.getByLabel('Snooze for (days, 1 to 365)').fill('30')
    await page.getByRole('button', { name: 'Snooze' }).click()
    await page.getByRole('status').filter({ hasText: 'Snoozed until' }).waitFor()
    const snoozed = await apiGet<InsightRecord>(`/insights/${insight.id}`)
    expect(snoozed).toMatchObject({ status: 'Snoozed', lastAction: { action: 'Snoozed', snoozeDays: 30 } })
    const days = (Date.parse(snoozed.snoozedUntil!) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29.9)
    expect(days).toBeLessThanOrEqual(30)
    await page.getByRole('heading', { name: 'Status: Snoozed' }).waitFor()
    await page.getByText('Snoozed for 30 days by').waitFor()

    await page.setViewportSize({ width: 390, height: 844 })
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/analysis-insight-390.png', fullPage: true })
    // The snoozed insight leaves the list, and comes back with the dismissed ones.
    // The way back keeps the list's filters: the reader returns to the orphaned resources.
    await page.getByRole('link', { name: '← All insights' }).click()
    await page.waitForURL(/\/insights\?category=OrphanedResource$/)
    expect(await page.getByLabel('Category').inputValue()).toBe('OrphanedResource')
    await list.getByRole('link').first().waitFor()
    // Polled: the list first shown may be the one loaded before the snooze, until its new answer replaces it.
    await expect.poll(() => list.getByRole('link', { name: insight.title }).count()).toBe(0)
    await page.getByLabel('Include dismissed and snoozed').check()
    await list.getByRole('link', { name: insight.title }).waitFor()
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/analysis-insights-390.png', fullPage: true })

    // A Viewer of the tenancy reads the insight and is offered no action on it.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await browser.signIn(page, VIEWER)
    await page.goto(`${base}/insights/${insight.id}`)
    await page.getByText('Acting on an insight needs the Editor role on this tenant.').waitFor()
    expect(await page.getByRole('button', { name: 'Snooze' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Mark implemented' }).count()).toBe(0)
    await page.close()
    expect(problems).toEqual([])
  })

  it('snoozes for the days the field shows, also when they were set without an input event', async () => {
    const page = await browser.newPage()
    await page.goto(`${base}/tenants`)
    // The previous test ends signed in as the Viewer.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await browser.signIn(page, org.owner.actor.name ?? '')
    const { items } = await apiGet<{ items: InsightRecord[] }>('/insights?category=OrphanedResource&pageSize=200')
    const insight = items.find((i) => i.status === 'Active')!
    await page.goto(`${base}/insights/${insight.id}`)
    const field = page.getByLabel('Snooze for (days, 1 to 365)')
    // An autofill or an assistive tool sets the value and fires only `change`: the person sees 7 days.
    await field.evaluate((input) => {
      ;(input as unknown as { value: string }).value = '7'
      input.dispatchEvent(new Event('change', { bubbles: true }))
    })
    expect(await field.inputValue()).toBe('7')
    await page.getByRole('button', { name: 'Snooze' }).click()
    await page.getByRole('status').filter({ hasText: 'Snoozed until' }).waitFor()
    const snoozed = await apiGet<InsightRecord>(`/insights/${insight.id}`)
    expect(snoozed).toMatchObject({ status: 'Snoozed', lastAction: { action: 'Snoozed', snoozeDays: 7 } })
    const days = (Date.parse(snoozed.snoozedUntil!) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(6.9)
    expect(days).toBeLessThanOrEqual(7)
    await page.getByText('Snoozed for 7 days by').waitFor()
    await page.close()
    expect(problems).toEqual([])
  })
})
