import { beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '../../src/app.js'
import type { EventRecord } from '../../src/features/events/schemas.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import type { OrgContext } from '../support/app.js'
import { focusLandsOn, noHorizontalScroll, useBrowserApp } from '../support/browser.js'

/**
 * The Markers tab and the live markers of the cost chart in a real browser, against the real app (SQLite; the API
 * under them has its own tests on both databases).
 */

const { t, base, problems, ...browser } = await useBrowserApp()

describe('web interface: event markers', () => {
  let org: OrgContext
  let tenant: TenantRecord
  /** A tag the tenant's resources really carry, as the suggestions offer it. */
  let tag: { key: string; value: string }

  beforeAll(async () => {
    org = await t.given.organisation('Marker Org')
    tenant = await t.given.tenant(org, { name: 'Shop estate' })
    const queued = await t.request(
      'POST',
      `${API_PREFIX}/tenants/${tenant.id}/snapshots?deepHistory=true`,
      org.ownerKey,
    )
    expect(queued.statusCode).toBe(202)
    expect(await t.worker().runOnce()).toBeTruthy()
    const tags = await t.request('GET', `${API_PREFIX}/tenants/${tenant.id}/tags?key=environment`, org.ownerKey)
    const environment = tags.json().keys[0]
    tag = { key: environment.key, value: environment.values[0] }
  }, 120_000)

  const markersOf = async () =>
    (await t.request('GET', `${API_PREFIX}/tenants/${tenant.id}/events?pageSize=200`, org.ownerKey)).json()
      .items as EventRecord[]

  it('shows a marker made through the API on the open chart, and creates, edits and deletes one by hand', async () => {
    const page = await browser.newPage()
    // The page's timers run on a clock the test can stop and run on (it runs like the real one until then).
    await page.clock.install()
    let polls = 0
    page.on('request', (request) => {
      if (request.url().includes('/events/visible')) polls++
    })
    await browser.signInAsOwner(page, org)
    await page.getByRole('link', { name: /Shop estate/ }).click()
    await page.locator('.chart canvas').first().waitFor()
    const chartMarkers = page.getByRole('list', { name: 'Event markers' }).or(page.getByText('No event markers'))
    await chartMarkers.first().waitFor()

    // A CI pipeline adds a marker while the chart is open: it appears without a reload.
    const fromCi = await t.request('POST', `${API_PREFIX}/tenants/${tenant.id}/events`, org.ownerKey, {
      occurredAt: new Date(Date.now() - 3 * 86_400_000).toISOString(),
      title: 'CI deploy 7.1',
      category: 'Deployment',
    })
    expect(fromCi.statusCode).toBe(201)
    await page.getByRole('list', { name: 'Event markers' }).getByText('CI deploy 7.1').waitFor({ timeout: 10_000 })
    await page.getByRole('button', { name: 'Deployment marker: CI deploy 7.1' }).waitFor()
    await page.screenshot({ path: '/work/shots/markers-chart-1280.png', fullPage: true })

    // A hidden page stops asking, and asks at once when shown again. With the clock stopped, no poll is due unless
    // the clock is run; the request of the shown page comes without it.
    const setVisibility = (state: 'hidden' | 'visible') =>
      page.evaluate(`Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => '${state}' });
        document.dispatchEvent(new Event('visibilitychange'))`)
    /** The polls seen so far: a request the page makes now is seen after every request it made before. */
    let probes = 0
    const pollsSoFar = async () => {
      const probe = `/?probe=${++probes}`
      const seen = page.waitForRequest((request) => request.url().endsWith(probe))
      await page.evaluate(`void fetch('${probe}')`)
      await seen
      return polls
    }
    await page.clock.pauseAt(Date.now() + 1_000)
    await setVisibility('hidden')
    const whenHidden = await pollsSoFar()
    await page.clock.runFor(10_000) // over three turns of the 3 s between polls
    expect(await pollsSoFar()).toBe(whenHidden)
    const asked = page.waitForRequest((request) => request.url().includes('/events/visible'))
    await setVisibility('visible')
    await asked
    expect(await pollsSoFar()).toBe(whenHidden + 1)
    await page.clock.resume()

    // The Markers tab lists it with its cost impact.
    await page.getByRole('link', { name: 'Markers' }).click()
    const cards = page.getByRole('list', { name: 'Markers' })
    const ciCard = cards.getByRole('listitem').filter({ hasText: 'CI deploy 7.1' })
    await ciCard.getByText('(API key)').waitFor()
    await ciCard.getByRole('definition').first().waitFor()
    expect(await ciCard.getByText('7 days before').count()).toBe(1)
    // Like with like: two settled days after it (the collection's newest two are not settled yet), each side's
    // daily average and the percentage the API gives; never seven days before against the three after.
    const ciImpact = (
      await t.request('GET', `${API_PREFIX}/tenants/${tenant.id}/events/${fromCi.json().id}/impact`, org.ownerKey)
    ).json()
    expect(ciImpact).toMatchObject({ daysBefore: 7, daysAfter: 2, complete: false })
    expect(ciImpact.changePercent).not.toBeNull()
    const inPage = (value: number, options: Intl.NumberFormatOptions) =>
      page.evaluate(([v, o]) => new Intl.NumberFormat(undefined, o).format(v), [value, options] as const)
    const money = (value: number) => inPage(value, { style: 'currency', currency: ciImpact.currency })
    const change = (value: number, currency?: string) =>
      inPage(
        value,
        currency
          ? { style: 'currency', currency, signDisplay: 'exceptZero' }
          : { maximumFractionDigits: 1, minimumFractionDigits: 1, signDisplay: 'exceptZero' },
      )
    await ciCard.getByText('2 days after so far').waitFor()
    expect(await ciCard.getByRole('definition').allTextContents()).toEqual([
      `${await money(ciImpact.before.dailyAverage)}/day`,
      `${await money(ciImpact.after.dailyAverage)}/day average`,
      `${await change(ciImpact.dailyChange, ciImpact.currency)}/day (${await change(ciImpact.changePercent)}%)`,
    ])
    expect(await ciCard.textContent()).not.toContain('7 days after')

    // A bad input: the server's field error shows next to the field, in words.
    await page.getByRole('button', { name: 'New marker' }).click()
    await page.getByRole('radio', { name: 'Incident' }).check()
    expect(await page.getByText('A production issue or outage.').isVisible()).toBe(true)
    const occurred = new Date(Date.now() - 2 * 86_400_000)
    await page.getByLabel('Date and time (UTC)').fill(occurred.toISOString().slice(0, 16))
    await page.getByLabel('Title').fill('   ')
    await page.getByRole('button', { name: 'Create marker' }).click()
    await page.getByText('Title must not be empty.').waitFor()
    expect(await page.getByLabel('Title').getAttribute('aria-invalid')).toBe('true')
    await page.screenshot({ path: '/work/shots/markers-error-1280.png', fullPage: true })

    await page.getByLabel('Title').fill('Cache cluster failover')
    await page.getByLabel('Description (optional)').fill('Primary cache node replaced.')
    await page.getByLabel('Tag key').fill(tag.key)
    expect(await page.locator('#tag-keys option').count()).toBeGreaterThan(1)
    await page.getByRole('button', { name: 'Create marker' }).click()
    await page.getByText('Tag value is required when a tag key is set.').waitFor()
    await page.getByLabel('Tag value').fill(tag.value)
    expect(await page.locator(`#tag-values option[value="${tag.value}"]`).count()).toBe(1)
    await page.getByRole('button', { name: 'Create marker' }).click()
    await page.getByRole('status').filter({ hasText: 'Marker “Cache cluster failover” created.' }).waitFor()
    const handMade = (await markersOf()).find((m) => m.title === 'Cache cluster failover')!
    // Two days after it, one settled day: averages, and no percentage yet, saying when one comes.
    const handCard = cards.getByRole('listitem').filter({ hasText: 'Cache cluster failover' })
    await handCard.getByText('1 day after so far').waitFor()
    const handChange = await handCard.getByRole('definition').nth(2).textContent()
    expect(handChange).toMatch(/\/day \(percentage after 2 settled days\)$/)
    expect(handChange).not.toContain('%')
    expect(handMade).toMatchObject({
      category: 'Incident',
      occurredAt: `${occurred.toISOString().slice(0, 16)}:00.000Z`,
      description: 'Primary cache node replaced.',
      tagKey: tag.key,
      tagValue: tag.value,
      createdBy: { type: 'User', id: org.ownerId },
    })

    // On the chart too.
    await page.getByRole('link', { name: 'Costs' }).click()
    await page.getByRole('button', { name: 'Incident marker: Cache cluster failover' }).waitFor()

    // Edit it: the change is in the API.
    await page.getByRole('link', { name: 'Markers' }).click()
    await page.getByRole('button', { name: 'Edit Cache cluster failover' }).click()
    await page.getByLabel('Title').fill('Cache cluster failover (eu-west)')
    await page.getByRole('radio', { name: 'Configuration' }).check()
    await page.getByRole('button', { name: 'Save changes' }).click()
    await cards.getByRole('heading', { name: 'Cache cluster failover (eu-west)' }).waitFor()
    const edited = (await markersOf()).find((m) => m.id === handMade.id)!
    expect(edited).toMatchObject({ title: 'Cache cluster failover (eu-west)', category: 'Configuration' })
    await page.screenshot({ path: '/work/shots/markers-1280.png', fullPage: true })

    // The category filter narrows the list; an empty result says so.
    await page.getByLabel('Category', { exact: true }).selectOption('Deployment')
    await cards.getByRole('heading', { name: 'Cache cluster failover (eu-west)' }).waitFor({ state: 'detached' })
    expect(await cards.getByRole('heading').allTextContents()).toEqual(['CI deploy 7.1'])
    await page.getByLabel('Category', { exact: true }).selectOption('Campaign')
    await page.getByText('No markers match these filters.').waitFor()
    await page.getByLabel('Category', { exact: true }).selectOption('')

    // Delete it, after confirming in a dialog that keyboards reach (focus on Cancel; Escape closes).
    await page.getByRole('button', { name: 'Delete Cache cluster failover (eu-west)' }).click()
    const dialog = page.getByRole('dialog', { name: /Delete “Cache cluster failover \(eu-west\)”/ })
    await dialog.waitFor()
    await focusLandsOn(page, 'Cancel')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect((await markersOf()).some((m) => m.id === handMade.id)).toBe(true)
    await page.getByRole('button', { name: 'Delete Cache cluster failover (eu-west)' }).click()
    await dialog.waitFor()
    await page.screenshot({ path: '/work/shots/markers-delete-1280.png' })
    await dialog.getByRole('button', { name: 'Delete marker' }).click()
    await page.getByRole('status').filter({ hasText: 'deleted' }).waitFor()
    await cards.getByText('Cache cluster failover').waitFor({ state: 'detached' })
    expect((await markersOf()).some((m) => m.id === handMade.id)).toBe(false)

    // A phone: no sideways scrolling, with the form open.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.getByRole('button', { name: 'New marker' }).click()
    await page.getByLabel('Title').waitFor()
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/markers-390.png', fullPage: true })

    await page.close()
  }, 120_000)

  it('lists a marker made through the API without a reload, as the chart does', async () => {
    const page = await browser.newPage()
    // Still signed in as the owner from the first test: the browser keeps the session cookie.
    await page.goto(`${base}/tenants/${tenant.id}/markers`)
    const cards = page.getByRole('list', { name: 'Markers' })
    await cards.getByRole('heading', { name: 'CI deploy 7.1' }).waitFor()

    // A CI pipeline adds a marker while the list is open: it appears without a reload, as on the chart.
    const fromCi = await t.request('POST', `${API_PREFIX}/tenants/${tenant.id}/events`, org.ownerKey, {
      occurredAt: new Date(Date.now() - 86_400_000).toISOString(),
      title: 'CI deploy 7.2',
      category: 'Deployment',
    })
    expect(fromCi.statusCode).toBe(201)
    const newCard = cards.getByRole('heading', { name: 'CI deploy 7.2' })
    await newCard.waitFor({ timeout: 10_000 })
    expect(await page.getByText('2 markers').count()).toBe(1)
    await page.screenshot({ path: '/work/shots/markers-live-1280.png', fullPage: true })
    await page.close()
  }, 60_000)

  it('takes a deleted marker off the list at once, and keeps it off', async () => {
    const made = await t.request('POST', `${API_PREFIX}/tenants/${tenant.id}/events`, org.ownerKey, {
      occurredAt: new Date(Date.now() - 86_400_000).toISOString(),
      title: 'Canary 7.3',
      category: 'Launch',
    })
    expect(made.statusCode).toBe(201)
    const page = await browser.newPage()
    await page.goto(`${base}/tenants/${tenant.id}/markers`)
    const cards = page.getByRole('list', { name: 'Markers' })
    const card = cards.getByRole('heading', { name: 'Canary 7.3' })
    await card.waitFor()
    const count = await cards.getByRole('listitem').count()

    // The list's answers after the delete are slow, and say what was true before it (as an answer to a request
    // sent before the delete would): the marker leaves at once all the same, and does not come back.
    const before = (
      await t.request('GET', `${API_PREFIX}/tenants/${tenant.id}/events?page=1&pageSize=20`, org.ownerKey)
    ).body
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let staleAnswers = 0
    await page.route(/\/api\/app\/tenants\/[^/]+\/events\?/, async (route) => {
      await held
      await route.fulfill({ status: 200, contentType: 'application/json', body: before })
      staleAnswers++
    })
    await page.getByRole('button', { name: 'Delete Canary 7.3' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete marker' }).click()
    await page.getByRole('status').filter({ hasText: 'Marker “Canary 7.3” deleted.' }).waitFor()
    await card.waitFor({ state: 'detached', timeout: 1_000 })
    expect(await cards.getByRole('listitem').count()).toBe(count - 1)
    expect((await markersOf()).some((m) => m.title === 'Canary 7.3')).toBe(false)
    release()
    await expect.poll(() => staleAnswers).toBeGreaterThan(0)
    await page.waitForTimeout(500)
    expect(await card.count()).toBe(0)
    expect(await cards.getByRole('listitem').count()).toBe(count - 1)
    await page.unroute(/\/api\/app\/tenants\/[^/]+\/events\?/)
    await page.close()
  }, 60_000)

  it('offers an Editor the edit and delete of their own markers only, as the server allows', async () => {
    const invited = await t.request('POST', `${API_PREFIX}/users`, org.ownerKey, {
      email: 'editor@marker-org.test',
      displayName: 'Eddie Editor',
    })
    expect(invited.statusCode, invited.body).toBe(202)
    const editorId = invited.json().id as string
    const granted = await t.request('PUT', `${API_PREFIX}/tenancies/${tenant.id}/users/${editorId}`, org.ownerKey, {
      role: 'Editor',
    })
    expect(granted.statusCode, granted.body).toBe(200)
    // As if the invitation had been accepted (its own tests cover that page).
    await t.db.kysely.updateTable('users').set({ status: 'Active' }).where('id', '=', editorId).execute()
    await browser.setPassword(editorId)

    const page = await browser.newPage()
    await page.goto(`${base}/`)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await browser.signIn(page, 'editor@marker-org.test')
    await page.getByRole('link', { name: /Shop estate/ }).click()
    await page.getByRole('link', { name: 'Markers' }).click()
    const cards = page.getByRole('list', { name: 'Markers' })
    // A marker of an API key: the server refuses an Editor its change and its delete, so the page offers neither.
    const ciCard = cards.getByRole('listitem').filter({ hasText: 'CI deploy 7.1' })
    await ciCard.waitFor()
    expect(await ciCard.getByRole('button').count()).toBe(0)

    // Their own marker: both offered, and the delete goes through.
    await page.getByRole('button', { name: 'New marker' }).click()
    await page.getByLabel('Date and time (UTC)').fill(new Date(Date.now() - 86_400_000).toISOString().slice(0, 16))
    await page.getByLabel('Title').fill('Eddie rollout')
    await page.getByRole('button', { name: 'Create marker' }).click()
    await page.getByText('Marker “Eddie rollout” created.').waitFor()
    const own = cards.getByRole('listitem').filter({ hasText: 'Eddie rollout' })
    await own.getByRole('button', { name: 'Edit Eddie rollout' }).waitFor()
    expect(await ciCard.getByRole('button').count()).toBe(0)
    await own.getByRole('button', { name: 'Delete Eddie rollout' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete marker' }).click()
    await expect.poll(async () => (await markersOf()).some((m) => m.title === 'Eddie rollout')).toBe(false)
    expect((await markersOf()).some((m) => m.title === 'CI deploy 7.1')).toBe(true)

    // The browser logs the refused create of the first test (its 400) as a failed load; it was the point.
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([])
  }, 60_000)
  it("shows a marker's estimate against the monthly change observed since", async () => {
    const created = await t.request('POST', `${API_PREFIX}/tenants/${tenant.id}/events`, org.ownerKey, {
      occurredAt: new Date(Date.now() - 12 * 86_400_000).toISOString(),
      title: 'Deploy estimated 8.0',
      category: 'Deployment',
      prediction: {
        monthlyDelta: 120,
        currency: 'USD',
        source: 'Infracost',
        commit: '1af413ad15ad6cbdfca667361231231231231231',
        pullRequestUrl: 'https://github.com/acme/infra/pull/1996',
      },
    })
    expect(created.statusCode, created.body).toBe(201)
    const impact = (
      await t.request('GET', `${API_PREFIX}/tenants/${tenant.id}/events/${created.json().id}/impact`, org.ownerKey)
    ).json()
    expect(impact.observed.days).toBeGreaterThanOrEqual(7)
    const page = await browser.newPage()
    await page.goto(`${base}/tenants/${tenant.id}/markers`)
    const card = page
      .getByRole('list', { name: 'Markers' })
      .getByRole('listitem')
      .filter({ hasText: 'Deploy estimated 8.0' })
    const estimate = card.getByLabel('Estimated against observed monthly cost')
    await estimate.waitFor()
    const signed = (value: number, currency: string) =>
      page.evaluate(
        ([v, c]) =>
          new Intl.NumberFormat(undefined, { style: 'currency', currency: c, signDisplay: 'exceptZero' }).format(v),
        [value, currency] as const,
      )
    expect(await estimate.getByRole('term').allTextContents()).toEqual(['Estimated (Infracost)', 'Observed'])
    expect(await estimate.getByRole('definition').allTextContents()).toEqual([
      `${await signed(120, 'USD')}/month`,
      `${await signed(impact.observed.monthlyDelta, impact.currency)}/month over ${impact.observed.days} settled days`,
    ])
    expect(await card.getByText('commit 1af413ad15ad').count()).toBe(1)
    expect(await card.getByRole('link', { name: 'pull request' }).getAttribute('href')).toBe(
      'https://github.com/acme/infra/pull/1996',
    )
    // A marker without an estimate shows none.
    const plain = page.getByRole('list', { name: 'Markers' }).getByRole('listitem').filter({ hasText: 'CI deploy 7.1' })
    await plain.waitFor()
    expect(await plain.getByLabel('Estimated against observed monthly cost').count()).toBe(0)
    await page.screenshot({ path: '/work/shots/markers-prediction-1280.png', fullPage: true })
    await page.close()
  }, 60_000)
})
