import { beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '../../src/app.js'
import type { AnomalyRecord } from '../../src/features/anomalies/schemas.js'
import { addDays } from '../../src/platform/time.js'
import type { OrgContext } from '../support/app.js'
import { noHorizontalScroll, useBrowserApp } from '../support/browser.js'
import { plantedEstate, writeFocusFiles } from '../support/focus-estate.js'

/**
 * Anomalies as people meet them in a real browser: one item per incident, episodes, feedback and the likely cause.
 * A tenant imports the planted estate of 59 days ending yesterday: a one-day spike of vm-web-1 nine days ago (seen
 * on the resource, its service, group, subscription and the tenant), a two-day outage of db-1 nineteen days ago,
 * and vm-web-2 at three times its cost over the last three days (an episode that goes on). A Deployment marker was
 * placed at 22:00 UTC the evening before the spike.
 */

const { t, base, problems, ...browser } = await useBrowserApp()
const TODAY = new Date().toISOString().slice(0, 10)
const SPIKE_DAY = addDays(TODAY, -9)
const VIEWER = 'vic.viewer@anomalies.test'

describe('web interface: anomalies as incidents and episodes', () => {
  let org: OrgContext
  let shopId: string
  let anomalies: AnomalyRecord[]
  const apiGet = async <T>(path: string) => {
    const res = await t.request('GET', `${API_PREFIX}${path}`, org.ownerKey)
    expect(res.statusCode, res.body).toBe(200)
    return res.json() as T
  }
  const spikeHead = () => anomalies.find((a) => a.dateRaised === SPIKE_DAY && a.scope.kind === 'Tenant')!
  const ongoingHead = () => anomalies.find((a) => a.episode.ongoing && a.scope.kind === 'Tenant')!

  beforeAll(async () => {
    org = await t.given.organisation('Incidents Org')
    const shop = await t.given.tenant(org, { name: 'Web shop' })
    shopId = shop.id
    const estate = plantedEstate()
    const vm2 = estate.resources.find((r) => r.name === 'vm-web-2')!
    for (let d = estate.days.length - 3; d < estate.days.length; d++) vm2.costs[d]! *= 3
    const days = estate.days.map((_, d) => addDays(TODAY, d - estate.days.length))
    await t.services.importFocus(shop.id, writeFocusFiles({ ...estate, days }))
    // The import stands for today's scheduled collection, which would add the simulated estate's last days to it.
    await t.db.kysely.updateTable('snapshotRuns').set({ scheduledFor: TODAY }).where('tenantId', '=', shop.id).execute()
    const marker = await t.request('POST', `${API_PREFIX}/tenants/${shop.id}/events`, org.ownerKey, {
      occurredAt: `${addDays(SPIKE_DAY, -1)}T22:00:00Z`,
      title: 'api v2.3.1',
      category: 'Deployment',
    })
    expect(marker.statusCode, marker.body).toBe(201)
    const worker = t.worker()
    while (await worker.runOnce()) {}
    anomalies = (await apiGet<{ items: AnomalyRecord[] }>(`/anomalies?tenancyId=${shopId}&pageSize=200`)).items
    expect(spikeHead(), JSON.stringify(anomalies.map((a) => [a.dateRaised, a.scope.kind]))).toBeDefined()
    expect(ongoingHead()).toBeDefined()

    await browser.setPassword(org.ownerId)
    const invited = await t.request('POST', `${API_PREFIX}/users`, org.ownerKey, { email: VIEWER })
    expect(invited.statusCode, invited.body).toBe(202)
    const viewerId = invited.json().id
    await t.db.kysely
      .updateTable('users')
      .set({ status: 'Active', displayName: 'Vic Viewer' })
      .where('id', '=', viewerId)
      .execute()
    await browser.setPassword(viewerId)
    const granted = await t.request('PUT', `${API_PREFIX}/tenancies/${shop.id}/users/${viewerId}`, org.ownerKey, {
      role: 'Viewer',
    })
    expect(granted.statusCode, granted.body).toBe(200)
    // The browser keeps the session cookie: every test but the last one is the owner's.
    const page = await browser.newPage()
    await browser.signInAsOwner(page, org)
    await page.close()
  }, 120_000)

  it('lists one item per incident, its related anomalies inside, and an ongoing episode as ongoing', async () => {
    const spike = anomalies.filter((a) => a.dateRaised === SPIKE_DAY)
    // One change, one incident: every scope the spike moved shares the tenant's incident.
    expect(spike.map((a) => a.scope.kind).sort()).toEqual([
      'Resource',
      'ResourceGroup',
      'Service',
      'Subscription',
      'Tenant',
    ])
    expect(new Set(spike.map((a) => a.incidentId))).toEqual(new Set([spikeHead().id]))

    const page = await browser.newPage()
    await page.goto(`${base}/anomalies?tenancyId=${shopId}`)
    const list = page.getByRole('list', { name: 'Anomalies' })
    const items = list.locator(':scope > li')
    await items.first().waitFor()
    expect(await items.count()).toBe(new Set(anomalies.map((a) => a.incidentId)).size)
    const spikeItems = items.filter({ hasText: `Whole tenant on ${SPIKE_DAY}` })
    expect(await spikeItems.count()).toBe(1)
    const members = spikeItems.getByRole('list', { name: `Related to Whole tenant on ${SPIKE_DAY}` })
    expect(await members.isVisible()).toBe(false)
    await spikeItems.getByText('and 4 related anomalies').click()
    await expect.poll(() => members.getByRole('link').count()).toBe(4)
    // A subscription is named by its display name, not its id.
    const [subscription] = (
      await apiGet<{ items: { subscriptionId: string; displayName: string }[] }>(`/tenants/${shopId}/subscriptions`)
    ).items
    const subscriptionLink = await members.getByRole('link').first().textContent()
    expect(subscriptionLink).toContain(`Subscription ${subscription!.displayName} on ${SPIKE_DAY}`)
    expect(subscriptionLink).not.toContain(subscription!.subscriptionId)
    // The head reads its episode's total impact with its percentage.
    const head = spikeHead()
    expect(await spikeItems.getByRole('link').first().textContent()).toContain(
      `${head.episode.totalImpactPercent >= 0 ? '+' : '−'}${Math.abs(head.episode.totalImpactPercent).toFixed(0)}%`,
    )

    const ongoing = ongoingHead()
    const ongoingItem = items.filter({ hasText: `Whole tenant from ${ongoing.episode.start}, ongoing` })
    expect(await ongoingItem.count()).toBe(1)
    expect(await ongoingItem.getByRole('link').first().textContent()).toContain(
      `ongoing (${ongoing.episode.days} days so far)`,
    )
    await page.screenshot({ path: '/work/shots/anomalies-incidents-1280.png', fullPage: true })
    await page.setViewportSize({ width: 390, height: 844 })
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/anomalies-incidents-390.png', fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })

    await ongoingItem.getByRole('link').first().click()
    await page.getByRole('heading', { name: `Whole tenant on ${ongoing.episode.start}` }).waitFor()
    expect(await page.getByRole('definition').filter({ hasText: 'ongoing' }).first().textContent()).toBe(
      `${ongoing.episode.start} – ongoing (${ongoing.episode.days} days so far)`,
    )
    await page.close()
    expect(problems).toEqual([])
  })

  it('shows the likely cause and the incident, and sets feedback that the API then holds', async () => {
    const head = spikeHead()
    expect(head.likelyCause?.title).toBe('api v2.3.1')
    const page = await browser.newPage()
    await page.goto(`${base}/anomalies/${head.id}`)
    await page.getByRole('heading', { name: `Whole tenant on ${SPIKE_DAY}` }).waitFor()
    const cause = page.getByText('Likely cause:').locator('..')
    expect(await cause.textContent()).toContain('Likely cause: Deployment “api v2.3.1”, 2 hours before')
    await cause.getByRole('link', { name: 'Deployment “api v2.3.1”' }).click()
    // The link leads to the marker under the chart, highlighted there and on the chart.
    expect(page.url()).toBe(`${base}/anomalies/${head.id}#marker-${head.likelyCause!.id}`)
    await page.getByRole('button', { name: /api v2\.3\.1/, pressed: true }).waitFor()

    const others = page.getByRole('list', { name: 'Other anomalies of the incident' })
    await expect.poll(() => others.getByRole('link').count()).toBe(4)
    await page.getByText('This anomaly heads an incident of 5 anomalies').waitFor()

    await page.getByRole('heading', { name: 'Feedback: none yet' }).waitFor()
    await page.getByRole('button', { name: 'Expected — a planned change' }).waitFor()
    await page.getByRole('button', { name: 'Not an anomaly' }).waitFor()
    await page.getByRole('button', { name: 'Confirmed' }).click()
    await page.getByRole('status').filter({ hasText: 'Feedback saved: Confirmed.' }).waitFor()
    const judged = await apiGet<AnomalyRecord>(`/anomalies/${head.id}`)
    expect(judged).toMatchObject({ feedback: 'Confirmed', feedbackBy: { type: 'User', id: org.ownerId } })
    await page.getByRole('heading', { name: 'Feedback: Confirmed' }).waitFor()
    await page.getByText(`by ${org.owner.actor.name}`).first().waitFor()
    expect(await page.getByRole('button', { name: 'Confirmed' }).getAttribute('aria-pressed')).toBe('true')
    await page.screenshot({ path: '/work/shots/anomaly-incident-1280.png', fullPage: true })
    await page.setViewportSize({ width: 390, height: 844 })
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/anomaly-incident-390.png', fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })

    // The list says the feedback; a member of the incident leads back to its head.
    await page.goto(`${base}/anomalies?tenancyId=${shopId}`)
    const item = page
      .getByRole('list', { name: 'Anomalies' })
      .locator(':scope > li')
      .filter({ hasText: `Whole tenant on ${SPIKE_DAY}` })
    await item.getByText('Feedback: Confirmed').waitFor()
    await page.close()
    expect(problems).toEqual([])
  })

  it('marks each incident once on the chart over its episode, saying its size', async () => {
    const page = await browser.newPage()
    await page.goto(`${base}/tenants/${shopId}`)
    const spikeMark = page.getByRole('link', {
      name: new RegExp(`^High anomaly on ${SPIKE_DAY}, Whole tenant \\(incident of 5 anomalies\\)`),
    })
    await spikeMark.focus()
    const tooltip = page.getByRole('tooltip')
    expect(await tooltip.textContent()).toContain(`Incident of 5 anomalies on ${SPIKE_DAY}`)
    const marks = page.locator('.anomaly-handle')
    const incidents = new Set(anomalies.filter((a) => a.dateRaised >= addDays(TODAY, -29)).map((a) => a.incidentId))
    expect(await marks.count()).toBe(incidents.size)
    const ongoing = ongoingHead()
    const ongoingMark = page.getByRole('link', {
      name: new RegExp(`anomaly from ${ongoing.episode.start}, ongoing \\(${ongoing.episode.days} days so far\\)`),
    })
    // The ongoing episode's band spans its days: wider than the one-day spike's.
    const [spikeBox, ongoingBox] = [await spikeMark.boundingBox(), await ongoingMark.boundingBox()]
    expect(ongoingBox!.width).toBeGreaterThan(spikeBox!.width * (ongoing.episode.days - 0.5))
    await page.screenshot({ path: '/work/shots/anomalies-explorer-1280.png', fullPage: true })
    await page.close()
    expect(problems).toEqual([])
  })

  it('offers a Viewer no feedback or status buttons', async () => {
    const page = await browser.newPage()
    await page.goto(`${base}/tenants`)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await browser.signIn(page, VIEWER)
    await page.goto(`${base}/anomalies/${spikeHead().id}`)
    await page.getByText('Giving feedback needs the Editor role on this tenant.').waitFor()
    await page.getByRole('heading', { name: 'Feedback: Confirmed' }).waitFor()
    for (const name of ['Confirmed', 'Not an anomaly', 'Expected — a planned change', 'Acknowledge', 'Resolve']) {
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0)
    }
    await page.close()
    expect(problems).toEqual([])
  })
})
