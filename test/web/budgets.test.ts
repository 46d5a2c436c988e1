import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '../../src/app.js'
import type { DailyCostRow } from '../../src/connectors/types.js'
import type { BudgetRecord } from '../../src/features/budgets/schemas.js'
import { addDays, daysBetween } from '../../src/platform/time.js'
import type { OrgContext } from '../support/app.js'
import { noHorizontalScroll, useBrowserApp } from '../support/browser.js'
import { costRow } from '../support/cost-rows.js'
import { activeMember, MEMBER_PASSWORD } from '../support/members.js'

/**
 * Budgets in a real browser. Since 90 days ago, every day: the payments VM at 100 (group "pay"), the search VM at
 * 20 (group "search"), settled through three days ago. A Monthly budget starting 20 days ago then has 18 settled
 * days of 120 (2,160) spent, and at 120 a day reaches 2,950 on its 7th day after the settled ones.
 * Screenshots: /work/shots/budgets-*.
 */

const { t, base, problems, ...browser } = await useBrowserApp()
const SHOTS = '/work/shots'
const TODAY = new Date().toISOString().slice(0, 10)
const SETTLED = addDays(TODAY, -3)
const START = addDays(TODAY, -20)
const SUB = '44444444-dddd-4ddd-8ddd-444444444444'
const VIEWER = 'budget-viewer@acme.test'
const arm = (group: string, name: string) =>
  `/subscriptions/${SUB}/resourcegroups/${group}/providers/microsoft.compute/virtualmachines/${name}`

function rows(): DailyCostRow[] {
  return daysBetween(addDays(TODAY, -90), TODAY).flatMap((date) => [
    costRow({
      subscriptionId: SUB,
      resourceArmId: arm('pay', 'vm-pay'),
      resourceGroupName: 'pay',
      date,
      cost: 100,
      currency: 'USD',
    }),
    costRow({
      subscriptionId: SUB,
      resourceArmId: arm('search', 'vm-search'),
      resourceGroupName: 'search',
      meterId: 'meter-search',
      date,
      cost: 20,
      currency: 'USD',
    }),
  ])
}

/** The day a month after `day` (kept on its day of the month where the month has it), less one: a period's end. */
function monthlyPeriodEnd(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
  return addDays(new Date(Date.UTC(y, m, Math.min(d, last))).toISOString().slice(0, 10), -1)
}

/** Money as the page's browser writes it. */
const money = (page: Page, amount: number) =>
  page.evaluate((v) => new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' }).format(v), amount)
/** A UTC day without its year, as the page writes it. */
const shortDay = (page: Page, day: string) =>
  page.evaluate(
    (d) =>
      new Date(`${d}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' }),
    day,
  )

describe('web interface: budgets', () => {
  let org: OrgContext
  let tenantId: string
  let page: Page
  let viewerId: string

  beforeAll(async () => {
    org = await t.given.organisation('Budgets Org')
    tenantId = (await t.given.tenant(org, { name: 'Shop estate' })).id
    await t.given.tenant(org, { name: 'Other estate' })
    const all = rows()
    await t.services.costIngest.stage('budgets-web:1', tenantId, all)
    await t.db.kysely.transaction().execute(async (trx) => {
      await t.services.costIngest.mergeStaged(trx, 'budgets-web:1')
      await t.services.costIngest.clearStaged('budgets-web', trx)
      await t.services.costIngest.recordCoverage(trx, {
        tenantId,
        source: 'simulated',
        from: all[0]!.date,
        to: TODAY,
        settledThrough: SETTLED,
        at: new Date().toISOString(),
      })
    })
    // The groups as an inventory snapshot records them: a group's chart is opened by its name.
    const now = new Date().toISOString()
    await t.db.kysely
      .insertInto('resourceGroups')
      .values(
        ['pay', 'search'].map((name, i) => ({
          id: `0190b000-0000-7000-8000-00000000000${i + 1}`,
          tenantId,
          subscriptionId: SUB,
          name,
          nameLower: name,
          armId: `/subscriptions/${SUB}/resourceGroups/${name}`,
          location: 'westeurope',
          tags: '{}',
          firstSeenAt: now,
          lastSeenAt: now,
        })),
      )
      .execute()
    const viewer = await activeMember(t, org, VIEWER)
    viewerId = viewer.id
    const granted = await t.request('PUT', `${API_PREFIX}/tenancies/${tenantId}/users/${viewer.id}`, org.ownerKey, {
      role: 'Viewer',
    })
    expect(granted.statusCode, granted.body).toBe(200)
    page = await browser.newPage()
    await browser.signInAsOwner(page, org)
  }, 180_000)

  const card = (name: string) => page.getByRole('article', { name, exact: true })

  it('explains budgets when there are none, and adds one through the form with its status as the costs imply', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Budgets' }).click()
    await page.getByRole('heading', { name: 'Budgets', level: 1 }).waitFor()
    expect(await page.title()).toBe('Budgets · Costwatch')
    await page.getByText('A budget is an amount you plan to spend').waitFor()
    await page.getByText('No budgets yet: add one with "New budget".').waitFor()

    await page.getByRole('button', { name: 'New budget' }).click()
    const form = page.getByRole('form', { name: 'New budget' })
    await form.getByLabel('Name').fill('Shop')
    // An owner chooses among every tenancy, or the whole organisation.
    expect(await form.getByRole('checkbox', { name: 'Other estate' }).isChecked()).toBe(false)
    await form.getByRole('checkbox', { name: 'Shop estate' }).check()
    expect(await form.getByRole('checkbox', { name: /The whole organisation/ }).isChecked()).toBe(false)
    expect(await form.getByLabel('Period', { exact: true }).inputValue()).toBe('Monthly')
    await form.getByLabel('Amount', { exact: true }).fill('2950')
    expect(await form.getByLabel('Currency').inputValue()).toBe('USD')
    await form.getByLabel('Start date').fill(START)
    expect(await form.getByLabel('Cost basis').inputValue()).toBe('Effective')
    for (const [kind, value, basis] of [
      ['Percent', '50', 'Actual'],
      ['Percent', '100', 'Forecast'],
      ['Amount', '5000', 'Actual'],
    ] as const) {
      await form.getByRole('button', { name: 'Add a threshold' }).click()
      const n = await form.getByLabel(/^Threshold \d+ kind$/).count()
      await form.getByLabel(`Threshold ${n} kind`).selectOption(kind)
      await form.getByLabel(`Threshold ${n} value`).fill(value)
      await form.getByLabel(`Threshold ${n} basis`).selectOption(basis)
    }
    await form.getByRole('button', { name: 'Add the budget' }).click()
    await form.waitFor({ state: 'detached' })

    // 18 settled days of 120 since the start: 2,160 of 2,950; at 120 a day, 2,950 is passed on the 7th day after.
    const shop = card('Shop')
    await shop.waitFor()
    const end = monthlyPeriodEnd(START)
    const text = await shop.innerText()
    expect(text).toContain(`${await money(page, 2160)} spent of ${await money(page, 2950)} (73.2%)`)
    expect(text).toContain('Shop estate')
    expect(text).toContain(`${await money(page, 2950)} a month`)
    const days = daysBetween(START, end).length
    const forecast = Number(
      (await shop.getByText("Forecast at the period's end").locator('strong').innerText()).replace(/[^\d.]/g, ''),
    )
    expect(forecast).toBeCloseTo(120 * days, -1)
    await shop
      .getByText(`Exceeds the amount on ${await shortDay(page, addDays(SETTLED, 7))} at the current run-rate.`)
      .waitFor()
    const thresholds = shop.getByRole('list', { name: 'Thresholds of Shop' }).getByRole('listitem')
    const since = await shortDay(page, SETTLED)
    expect(await thresholds.allInnerTexts()).toEqual([
      `Alarm 50% spent since ${since}`,
      `Alarm 100% forecast since ${since}`,
      `Ok ${await money(page, 5000)} spent`,
    ])
    // The bar is the spend's share of the amount.
    expect(await shop.locator('.budget-bar').getAttribute('data-percent')).toBe('73')

    // What the page shows is what the API answers.
    const listed = (await page.evaluate(async () => (await fetch('/api/app/budgets')).json())) as {
      items: BudgetRecord[]
    }
    expect(listed.items).toHaveLength(1)
    expect(listed.items[0]!.status).toMatchObject({ actual: 2160, amount: 2950, periodFrom: START, periodTo: end })

    mkdirSync(SHOTS, { recursive: true })
    await page.screenshot({ path: `${SHOTS}/budgets-1280.png`, fullPage: true })

    // At risk, it is on the overview, which leads to its page.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Overview' }).click()
    await page.getByRole('list', { name: 'Budgets at risk' }).getByRole('link', { name: /Shop/ }).click()
    await page.getByRole('heading', { name: 'Shop', level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/budgets/${listed.items[0]!.id}`)
    await page.getByText('Exceeds the amount on').waitFor()
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Budgets' }).click()
    await card('Shop').waitFor()
    expect(problems).toEqual([])
  })

  it('edits the budget with the same form, and shows a bad amount beside its field', async () => {
    await card('Shop').getByRole('button', { name: 'Edit Shop' }).click()
    const form = page.getByRole('form', { name: 'Edit "Shop"' })
    expect(await form.getByLabel('Amount', { exact: true }).inputValue()).toBe('2950')
    expect(await form.getByLabel('Threshold 3 value').inputValue()).toBe('5000')

    await form.getByLabel('Amount', { exact: true }).fill('-5')
    await form.getByRole('button', { name: 'Save the budget' }).click()
    await form.getByText('The amount must be more than 0.').waitFor()
    expect(await form.getByLabel('Amount', { exact: true }).getAttribute('aria-invalid')).toBe('true')
    // The refusal is the one failed request the browser logs.
    expect(problems).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)'])
    problems.length = 0

    await form.getByLabel('Amount', { exact: true }).fill('5000')
    await form.getByRole('button', { name: 'Save the budget' }).click()
    await form.waitFor({ state: 'detached' })
    const shop = card('Shop')
    await shop.getByText('On track: not forecast to exceed the amount this period.').waitFor()
    expect(await shop.innerText()).toContain(`${await money(page, 2160)} spent of ${await money(page, 5000)} (43.2%)`)
    const thresholds = shop.getByRole('list', { name: 'Thresholds of Shop' }).getByRole('listitem')
    expect(await thresholds.allInnerTexts()).toEqual([
      'Ok 50% spent',
      'Ok 100% forecast',
      `Ok ${await money(page, 5000)} spent`,
    ])

    // Its own page, where the overview's budgets at risk lead.
    await shop.getByRole('link', { name: 'Shop' }).click()
    await page.getByRole('heading', { name: 'Shop', level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toMatch(/^\/budgets\/[0-9a-f-]{36}$/)
    await page.getByText('On track').waitFor()
    await page.getByRole('link', { name: 'Budgets' }).first().click()
    await page.getByRole('heading', { name: 'Budgets', level: 1 }).waitFor()
    expect(problems).toEqual([])
  })

  it("draws a matching budget's daily pace on the explorer's chart, and only a matching one's", async () => {
    // A budget of the "pay" group (letter case aside), and one narrowed by a tag, which no chart shows.
    for (const body of [
      { name: 'Payments group', scope: { tenancyIds: [tenantId], resourceGroup: 'PAY' }, amount: 3100 },
      { name: 'Tagged', scope: { tenancyIds: [tenantId], tags: [{ key: 'team', value: 'x' }] }, amount: 10 },
    ]) {
      const created = await t.request('POST', `${API_PREFIX}/budgets`, org.ownerKey, {
        ...body,
        period: 'Monthly',
        currency: 'USD',
        startDate: START,
      })
      expect(created.statusCode, created.body).toBe(201)
    }
    const end = monthlyPeriodEnd(START)
    const days = daysBetween(START, end).length

    await page.goto(`${base}/tenants/${tenantId}`)
    const paces = page.getByRole('list', { name: 'Budget pace lines' })
    await paces.waitFor()
    expect(await paces.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringContaining(`Shop budget pace (thin dotted line): ${await money(page, 5000 / days)} a day`),
    ])
    const legend = page.locator('.u-legend')
    expect(await legend.getByText('Budget pace: Shop').count()).toBe(1)
    expect(await legend.getByText(/Budget pace: (Tagged|Payments group)/).count()).toBe(0)
    // Hovering a day of the period: the legend gives that day's pace, the period's amount over its days.
    const over = page.locator('.u-over')
    const box = (await over.boundingBox())!
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2)
    const paceRow = legend.locator('tr', { hasText: 'Budget pace: Shop' })
    await expect.poll(() => paceRow.innerText()).toMatch(/\/day/)
    expect(
      Number(
        (await paceRow.innerText())
          .split('\t')
          .pop()!
          .replace(/[^\d.]/g, ''),
      ),
    ).toBeCloseTo(5000 / days, 2)

    // The "pay" group's chart has its group's budget, not the tenant's.
    await page.goto(`${base}/tenants/${tenantId}?scope=${encodeURIComponent('resourceGroup:pay')}`)
    await paces.waitFor()
    expect(await paces.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringContaining(`Payments group budget pace (thin dotted line): ${await money(page, 3100 / days)} a day`),
    ])
    expect(await page.locator('.u-legend').getByText('Budget pace: Payments group').count()).toBe(1)
    await page.screenshot({ path: `${SHOTS}/budgets-explorer-1280.png`, fullPage: true })

    // The search group's chart matches none.
    await page.goto(`${base}/tenants/${tenantId}?scope=${encodeURIComponent('resourceGroup:search')}`)
    await page.locator('.chart canvas').first().waitFor()
    expect(await page.getByRole('list', { name: 'Budget pace lines' }).count()).toBe(0)
    expect(problems).toEqual([])
  })

  it('turns a budget into custom periods with the same form, naming an overlap beside its period', async () => {
    await page.goto(`${base}/budgets`)
    await card('Tagged').getByRole('button', { name: 'Edit Tagged' }).click()
    const form = page.getByRole('form', { name: 'Edit "Tagged"' })
    await form.getByLabel('Period', { exact: true }).selectOption('Custom')
    expect(await form.getByLabel('Amount', { exact: true }).count()).toBe(0)
    await form.getByLabel('From 1').fill(START)
    await form.getByLabel('To 1').fill(addDays(START, 9))
    await form.getByLabel('Amount 1').fill('100')
    await form.getByRole('button', { name: 'Add a period' }).click()
    await form.getByLabel('From 2').fill(addDays(START, 5))
    await form.getByLabel('To 2').fill(addDays(TODAY, 10))
    await form.getByLabel('Amount 2').fill('700')
    await form.getByRole('button', { name: 'Save the budget' }).click()
    await form.getByText(`Period 2: must be after the previous period's end (${addDays(START, 9)}).`).waitFor()
    expect(await form.getByLabel('From 2').getAttribute('aria-invalid')).toBe('true')
    expect(problems).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)'])
    problems.length = 0

    await form.getByLabel('From 2').fill(addDays(START, 10))
    await form.getByRole('button', { name: 'Save the budget' }).click()
    await form.waitFor({ state: 'detached' })
    const tagged = card('Tagged')
    await tagged.getByText('2 custom periods').waitFor()
    // Today is in the second period; the tag matches no resource.
    expect(await tagged.innerText()).toContain(`${await money(page, 0)} spent of ${await money(page, 700)} (0%)`)
    const got = await t.request('GET', `${API_PREFIX}/budgets`, org.ownerKey)
    const saved = (got.json().items as BudgetRecord[]).find((b) => b.name === 'Tagged')!
    expect(saved).toMatchObject({ period: 'Custom', amount: null })
    expect(saved.status).toMatchObject({ periodFrom: addDays(START, 10), periodTo: addDays(TODAY, 10), amount: 700 })
    expect(problems).toEqual([])
  })

  it("lets an alert rule watch chosen budgets' thresholds, and keeps them through an edit", async () => {
    const channel = await t.request('POST', `${API_PREFIX}/notification-channels`, org.ownerKey, {
      name: '#finops',
      type: 'Slack',
      url: 'https://hooks.slack.com/services/T000/B000/XXXX',
    })
    expect(channel.statusCode, channel.body).toBe(201)
    await page.goto(`${base}/settings/notifications`)
    await page.getByRole('button', { name: 'New rule' }).click()
    const form = page.getByRole('form', { name: 'New rule' })
    await form.getByLabel('Name').fill('Budget watch')
    await form.getByRole('checkbox', { name: /#finops/ }).check()
    await form.getByLabel('Trigger').selectOption('BudgetThreshold')
    const choices = form.getByRole('group', { name: 'Budgets' })
    // The budgets load after the trigger is chosen: their last one listed means the list is whole.
    await choices.getByRole('checkbox', { name: 'Tagged' }).waitFor()
    expect(await choices.locator('label').allInnerTexts()).toEqual(['Payments group', 'Shop', 'Tagged'])
    await choices.getByRole('checkbox', { name: 'Shop' }).check()
    // The form settles first: its preview asks the server a moment after the last change.
    await form.locator('section.preview[aria-busy="false"]').waitFor()
    await form.getByRole('button', { name: 'Create the rule' }).click()
    await form.waitFor({ state: 'detached' })
    const row = page.getByRole('row', { name: /Budget watch/ })
    await row.getByText('Thresholds of 1 budget').waitFor()
    const budgets = (await t.request('GET', `${API_PREFIX}/budgets`, org.ownerKey)).json().items as BudgetRecord[]
    const rules = (await t.request('GET', `${API_PREFIX}/notification-rules`, org.ownerKey)).json().items
    expect(rules[0].trigger).toEqual({
      type: 'BudgetThreshold',
      budgetIds: [budgets.find((b) => b.name === 'Shop')!.id],
    })

    await row.getByRole('button', { name: 'Edit Budget watch' }).click()
    const edit = page.getByRole('form', { name: 'Edit "Budget watch"' })
    expect(await edit.getByRole('group', { name: 'Budgets' }).getByRole('checkbox', { name: 'Shop' }).isChecked()).toBe(
      true,
    )
    await edit.getByRole('button', { name: 'Cancel' }).click()
    // The rule goes, so that the budgets' own pages are what the next checks see.
    expect(
      (await t.request('DELETE', `${API_PREFIX}/notification-rules/${rules[0].id}`, org.ownerKey)).statusCode,
    ).toBe(204)
    expect(problems).toEqual([])
  })

  it('is readable on a phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${base}/budgets`)
    await card('Shop').waitFor()
    await noHorizontalScroll(page)
    await page.screenshot({ path: `${SHOTS}/budgets-390.png`, fullPage: true })
    await page.getByRole('button', { name: 'New budget' }).click()
    await page.getByRole('form', { name: 'New budget' }).getByLabel('Period', { exact: true }).selectOption('Custom')
    await page.getByRole('form', { name: 'New budget' }).getByRole('button', { name: 'Add a threshold' }).click()
    await noHorizontalScroll(page)
    await page.screenshot({ path: `${SHOTS}/budgets-form-390.png`, fullPage: true })
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.setViewportSize({ width: 1280, height: 900 })
    expect(problems).toEqual([])
  })

  it("shows a Viewer the budgets without add, edit or delete, and a tenancy's Admin the form for theirs", async () => {
    await page.getByRole('button', { name: 'Sign out' }).click()
    await browser.signIn(page, VIEWER, MEMBER_PASSWORD)
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Budgets' }).click()
    await card('Shop').waitFor()
    expect(await page.getByRole('article').count()).toBe(3)
    expect(await page.getByRole('button', { name: 'New budget' }).count()).toBe(0)
    expect(await page.locator('main').getByRole('button').count()).toBe(0)

    // Made the tenancy's Admin: they manage its budgets, and a new one covers it, the one tenancy they administer.
    const promoted = await t.request('PUT', `${API_PREFIX}/tenancies/${tenantId}/users/${viewerId}`, org.ownerKey, {
      role: 'Admin',
    })
    expect(promoted.statusCode, promoted.body).toBe(200)
    await page.reload()
    await card('Shop').getByRole('button', { name: 'Edit Shop' }).waitFor()
    await page.getByRole('button', { name: 'New budget' }).click()
    const form = page.getByRole('form', { name: 'New budget' })
    expect(await form.getByRole('checkbox').count()).toBe(1)
    expect(await form.getByRole('checkbox', { name: 'Shop estate' }).isChecked()).toBe(true)
    await form.getByRole('button', { name: 'Cancel' }).click()
    await page.getByRole('button', { name: 'Sign out' }).click()
    expect(problems).toEqual([])
  })

  it('deletes the budget after a confirmation', async () => {
    await browser.signIn(page, org.owner.actor.name ?? '')
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Budgets' }).click()
    await card('Shop').getByRole('button', { name: 'Delete Shop' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete the budget "Shop"?' })
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await card('Shop').getByRole('button', { name: 'Delete Shop' }).click()
    await dialog.getByRole('button', { name: 'Delete the budget' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await card('Shop').waitFor({ state: 'detached' })
    const left = await t.request('GET', `${API_PREFIX}/budgets`, org.ownerKey)
    expect(left.json().items.map((b: BudgetRecord) => b.name)).toEqual(['Payments group', 'Tagged'])
    expect(problems).toEqual([])
  })
})
