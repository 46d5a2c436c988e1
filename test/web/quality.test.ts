import { randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '../../src/app.js'
import { addDays } from '../../src/platform/time.js'
import type { OrgContext } from '../support/app.js'
import { useBrowserApp } from '../support/browser.js'
import { plantedEstate, writeFocusFiles } from '../support/focus-estate.js'

/**
 * The quality bar every page of the web interface meets, checked over every route at a phone's and a desktop's
 * width: no horizontal scrolling, one h1, a title naming the page, the current section marked, every control
 * named, a keyboard pass in document order with a visible focus ring on each stop, a loading state, an empty
 * state (a tenant without data), words for a missing record, and no console error or uncaught exception. One
 * browser page visits them all, signed in as the owner, then the sign-in page. Screenshots: /work/shots/quality-*.
 */

const { t, base, ...browser } = await useBrowserApp()
const TODAY = new Date().toISOString().slice(0, 10)
const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]
/** Enough Tab presses to cross every page's header, filters and first rows; a longer list is checked up to there. */
const MAX_TABS = 80
const SHOTS = '/work/shots'
/** An id of the right form that names nothing: the page must say so in words. */
const NOBODY = randomUUID()

interface Seeded {
  estateId: string
  shopId: string
  emptyId: string
  reportId: string
  anomalyId: string
  insightId: string
  budgetId: string
}

interface Visit {
  /** The route pattern of `ROUTES` this visit stands for. */
  route: string
  url: (s: Seeded) => string
  /**
   * The page's name in the document's title: "<title> · Costwatch"; a page about one record (a route with a
   * parameter, whose record exists) puts its heading, the record's name, before it: "<h1> · <title> · Costwatch".
   */
  title: string
  /** The label of the section marked current in the top bar, and of the tab under the tenant or settings. */
  section: string
  tab?: string
  /** The page's words for a record that does not exist (its request answers 404). */
  missing?: boolean
}

const VISITS: Visit[] = [
  { route: '/overview', url: () => '/overview', title: 'Overview', section: 'Overview' },
  { route: '/tenants', url: () => '/tenants', title: 'Tenants', section: 'Tenants' },
  {
    route: '/tenants/:tenantId',
    url: (s) => `/tenants/${s.estateId}`,
    title: 'Costs',
    section: 'Tenants',
    tab: 'Costs',
  },
  {
    route: '/tenants/:tenantId',
    url: (s) => `/tenants/${s.shopId}`,
    title: 'Costs',
    section: 'Tenants',
    tab: 'Costs',
  },
  {
    route: '/tenants/:tenantId',
    url: (s) => `/tenants/${s.emptyId}`,
    title: 'Costs',
    section: 'Tenants',
    tab: 'Costs',
  },
  {
    route: '/tenants/:tenantId/inventory',
    url: (s) => `/tenants/${s.estateId}/inventory`,
    title: 'Inventory',
    section: 'Tenants',
    tab: 'Inventory',
  },
  {
    route: '/tenants/:tenantId/inventory',
    url: (s) => `/tenants/${s.emptyId}/inventory`,
    title: 'Inventory',
    section: 'Tenants',
    tab: 'Inventory',
  },
  {
    route: '/tenants/:tenantId/runs',
    url: (s) => `/tenants/${s.shopId}/runs`,
    title: 'Runs',
    section: 'Tenants',
    tab: 'Runs',
  },
  {
    route: '/tenants/:tenantId/runs',
    url: (s) => `/tenants/${s.emptyId}/runs`,
    title: 'Runs',
    section: 'Tenants',
    tab: 'Runs',
  },
  {
    route: '/tenants/:tenantId/markers',
    url: (s) => `/tenants/${s.shopId}/markers`,
    title: 'Markers',
    section: 'Tenants',
    tab: 'Markers',
  },
  {
    route: '/tenants/:tenantId/markers',
    url: (s) => `/tenants/${s.emptyId}/markers`,
    title: 'Markers',
    section: 'Tenants',
    tab: 'Markers',
  },
  { route: '/anomalies', url: () => '/anomalies', title: 'Anomalies', section: 'Anomalies' },
  { route: '/anomalies/:anomalyId', url: (s) => `/anomalies/${s.anomalyId}`, title: 'Anomaly', section: 'Anomalies' },
  {
    route: '/anomalies/:anomalyId',
    url: () => `/anomalies/${NOBODY}`,
    title: 'Anomaly',
    section: 'Anomalies',
    missing: true,
  },
  { route: '/insights', url: () => '/insights', title: 'Insights', section: 'Insights' },
  { route: '/insights/:insightId', url: (s) => `/insights/${s.insightId}`, title: 'Insight', section: 'Insights' },
  {
    route: '/insights/:insightId',
    url: () => `/insights/${NOBODY}`,
    title: 'Insight',
    section: 'Insights',
    missing: true,
  },
  { route: '/reports', url: () => '/reports', title: 'Reports', section: 'Reports' },
  { route: '/reports/:reportId', url: (s) => `/reports/${s.reportId}`, title: 'Report', section: 'Reports' },
  {
    route: '/reports/:reportId',
    url: () => `/reports/${NOBODY}`,
    title: 'Report',
    section: 'Reports',
    missing: true,
  },
  { route: '/budgets', url: () => '/budgets', title: 'Budgets', section: 'Budgets' },
  { route: '/budgets/:budgetId', url: (s) => `/budgets/${s.budgetId}`, title: 'Budget', section: 'Budgets' },
  {
    route: '/budgets/:budgetId',
    url: () => `/budgets/${NOBODY}`,
    title: 'Budget',
    section: 'Budgets',
    missing: true,
  },
  { route: '/settings', url: () => '/settings', title: 'API keys', section: 'Settings', tab: 'API keys' },
  { route: '/settings/keys', url: () => '/settings/keys', title: 'API keys', section: 'Settings', tab: 'API keys' },
  { route: '/settings/users', url: () => '/settings/users', title: 'Users', section: 'Settings', tab: 'Users' },
  { route: '/settings/audit', url: () => '/settings/audit', title: 'Audit log', section: 'Settings', tab: 'Audit log' },
  {
    route: '/settings/notifications',
    url: () => '/settings/notifications',
    title: 'Notifications',
    section: 'Settings',
    tab: 'Notifications',
  },
]

/** The route patterns of `ROUTES`, read from the route table itself: a new page without a visit here fails. */
function routePatterns(): string[] {
  const source = readFileSync(join(import.meta.dirname, '../../web/src/routes.tsx'), 'utf8')
  const table = source.slice(source.indexOf('export const ROUTES'), source.indexOf('export const NAV'))
  return [...table.matchAll(/path: '([^']+)'/g)].map((match) => match[1] ?? '')
}

/*
 * The probes run in the page, so they are the page's JavaScript, kept as source text: the tests are type-checked
 * for Node, without the DOM's types.
 */

/** What the page does wrong at the moment, as sentences naming the element; empty when it is fine. */
const LAYOUT_PROBE = String.raw`(viewportWidth) => {
  const findings = []
  const describe = (el) => {
    const id = el.id ? '#' + el.id : ''
    const cls = el.getAttribute('class') ? '.' + el.getAttribute('class').trim().split(/\s+/).join('.') : ''
    const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)
    return '<' + el.tagName.toLowerCase() + id + cls + '> "' + text + '"'
  }
  const scrollWidth = document.documentElement.scrollWidth
  if (scrollWidth > viewportWidth) {
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > viewportWidth + 1)
      .slice(-3)
      .map(describe)
    findings.push('scrolls sideways: ' + scrollWidth + 'px wide (' + wide.join(', ') + ')')
  }
  const headings = document.querySelectorAll('h1')
  if (headings.length !== 1) findings.push(headings.length + ' h1 headings')

  const textOf = (el) => (el ? (el.innerText ?? el.textContent ?? '') : '')
  const nameOf = (el) => {
    const label = el.getAttribute('aria-label')
    if (label && label.trim()) return label
    const labelledBy = el.getAttribute('aria-labelledby')
    if (labelledBy) {
      const text = labelledBy.split(/\s+/).map((id) => textOf(document.getElementById(id))).join(' ')
      if (text.trim()) return text
    }
    if (el.labels && el.labels.length > 0) {
      const text = [...el.labels].map(textOf).join(' ')
      if (text.trim()) return text
    }
    if (el instanceof HTMLInputElement && ['submit', 'button', 'reset'].includes(el.type)) return el.value
    if (el instanceof HTMLAnchorElement || el instanceof HTMLButtonElement) {
      const images = [...el.querySelectorAll('img[alt]')].map((img) => img.getAttribute('alt')).join(' ')
      const text = textOf(el) + ' ' + images
      if (text.trim()) return text
    }
    return el.getAttribute('title') ?? ''
  }
  for (const el of document.querySelectorAll('input, select, textarea, button, a[href], [role="button"]')) {
    if (el.type === 'hidden' || !el.checkVisibility()) continue
    if (!nameOf(el).trim()) findings.push('no accessible name: ' + describe(el))
  }
  return findings
}`

/** Forgets the focus and the stops of an earlier pass, from the top of the page. */
const FOCUS_RESET = `() => {
  document.activeElement?.blur()
  window.scrollTo(0, 0)
  window.__stops = []
}`

/** The element focused now: null when focus has left the page or come round again, else how it shows. */
const FOCUS_STEP = String.raw`() => {
  const stops = window.__stops
  const el = document.activeElement
  if (!el || el === document.body) return null
  // Tab moves through the parts of a date field (day, month, year) before it leaves it.
  if (el === stops.at(-1)) return { same: true }
  if (stops.includes(el)) return null
  const previous = stops.at(-1)
  stops.push(el)
  const rect = el.getBoundingClientRect()
  const style = getComputedStyle(el)
  const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0
  const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)
  return {
    description: '<' + el.tagName.toLowerCase() + '> "' + (text || el.name || el.id) + '"',
    visible: rect.width > 0 && rect.height > 0 && rect.bottom > 0 && rect.top < innerHeight,
    ring: outline || style.boxShadow !== 'none',
    inOrder: !previous || Boolean(previous.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING),
  }
}`

/** The visible controls before the last stop that Tab never reached (one radio button per group is enough). */
const SKIPPED_PROBE = `() => {
  const stops = window.__stops
  const last = stops.at(-1)
  if (!last) return ['no element takes focus']
  const focusable = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, [tabindex]'
  const sameGroup = (a, b) => b instanceof HTMLInputElement && b.type === 'radio' && b.name === a.name
  return [...document.querySelectorAll(focusable)]
    .filter((el) => el.tabIndex >= 0 && el.checkVisibility() && !stops.includes(el))
    .filter((el) => Boolean(el.compareDocumentPosition(last) & Node.DOCUMENT_POSITION_FOLLOWING))
    .filter((el) => !(el.type === 'radio' && el.name && stops.some((stop) => sameGroup(el, stop))))
    .map((el) => 'never focused: <' + el.tagName.toLowerCase() + '> "' + (el.textContent ?? '').trim().slice(0, 40) + '"')
}`

async function layoutFindings(page: Page, width: number): Promise<string[]> {
  return page.evaluate(`(${LAYOUT_PROBE})(${width})`)
}

interface Stop {
  same?: true
  description: string
  visible: boolean
  ring: boolean
  inOrder: boolean
}

/**
 * Tabs through the page from its top. Each stop must be on screen, show a focus ring, and follow the one before in
 * the document; every visible control up to the last stop must have been a stop.
 */
async function keyboardFindings(page: Page): Promise<string[]> {
  await page.evaluate(`(${FOCUS_RESET})()`)
  const findings: string[] = []
  for (let i = 0; i < MAX_TABS; i++) {
    await page.keyboard.press('Tab')
    const stop = (await page.evaluate(`(${FOCUS_STEP})()`)) as Stop | null
    if (!stop) break
    if (stop.same) continue
    if (!stop.visible) findings.push(`focus off screen: ${stop.description}`)
    if (!stop.ring) findings.push(`no visible focus ring: ${stop.description}`)
    if (!stop.inOrder) findings.push(`focus jumps back: ${stop.description}`)
  }
  const skipped = (await page.evaluate(`(${SKIPPED_PROBE})()`)) as string[]
  return [...findings, ...skipped]
}

/** What every page meets, signed in or not; its screenshot is saved for a person to look at. */
async function expectCommonBar(page: Page, options: { where: string; shot: string; title: string }) {
  const width = page.viewportSize()?.width ?? 0
  await page.screenshot({ path: `${SHOTS}/quality-${options.shot}.png`, fullPage: true })
  expect(await layoutFindings(page, width), options.where).toEqual([])
  expect(await page.title(), options.where).toBe(options.title)
  expect(await keyboardFindings(page), options.where).toEqual([])
}

/** The labels of the links marked current in the navigation named `name`. */
async function currentLinks(page: Page, name: string): Promise<string[]> {
  return page
    .getByRole('navigation', { name, exact: true })
    .locator('a[aria-current="page"]')
    .allInnerTexts()
    .then((texts) => texts.map((text) => text.trim()))
}

describe('web interface: the quality bar of every page', () => {
  let org: OrgContext
  let page: Page
  const seeded = {} as Seeded
  /** Console errors and uncaught exceptions of the visit under way. */
  let errors: string[] = []

  beforeAll(async () => {
    org = await t.given.organisation('Quality Org')
    const estate = await t.given.tenant(org, { name: 'Contoso estate' })
    const shop = await t.given.tenant(org, { name: 'Web shop' })
    Object.assign(seeded, { estateId: estate.id, shopId: shop.id })
    const queued = await t.request(
      'POST',
      `${API_PREFIX}/tenants/${estate.id}/snapshots?deepHistory=true`,
      org.ownerKey,
    )
    expect(queued.statusCode).toBe(202)
    // Anomalies need weeks of history: the planted estate of 59 days ending yesterday has a spike and an outage.
    const planted = plantedEstate()
    const days = planted.days.map((_, d) => addDays(TODAY, d - planted.days.length))
    await t.services.importFocus(shop.id, writeFocusFiles({ ...planted, days }))
    // The import stands for today's scheduled collection, which would add the simulated estate's days to it.
    await t.db.kysely.updateTable('snapshotRuns').set({ scheduledFor: TODAY }).where('tenantId', '=', shop.id).execute()
    const marker = await t.request('POST', `${API_PREFIX}/tenants/${shop.id}/events`, org.ownerKey, {
      occurredAt: `${addDays(TODAY, -9)}T08:30:00Z`,
      title: 'Deploy web v3.1',
      category: 'Deployment',
      description: 'Moved the web tier to larger machines.',
    })
    expect(marker.statusCode, marker.body).toBe(201)
    const report = await t.request('POST', `${API_PREFIX}/reports`, org.ownerKey, {
      name: 'Top resources of the estate',
      kind: 'TopResources',
      tenancyIds: [estate.id],
    })
    expect(report.statusCode, report.body).toBe(201)
    seeded.reportId = report.json().id
    const budget = await t.request('POST', `${API_PREFIX}/budgets`, org.ownerKey, {
      name: 'Estate monthly',
      scope: { tenancyIds: [estate.id] },
      period: 'Monthly',
      amount: 5000,
      currency: 'USD',
      thresholds: [{ kind: 'Percent', value: 80, basis: 'Actual' }],
    })
    expect(budget.statusCode, budget.body).toBe(201)
    seeded.budgetId = budget.json().id
    const run = await t.request('POST', `${API_PREFIX}/reports/${seeded.reportId}/runs`, org.ownerKey)
    expect(run.statusCode, run.body).toBe(202)
    const worker = t.worker()
    while (await worker.runOnce()) {}
    // Made after the worker's round, so that no scheduled collection fills it: its pages show their empty state.
    seeded.emptyId = (await t.given.tenant(org, { name: 'Empty estate' })).id

    const first = async (path: string) => {
      const res = await t.request('GET', `${API_PREFIX}${path}`, org.ownerKey)
      expect(res.statusCode, res.body).toBe(200)
      const id = res.json().items[0]?.id
      expect(id, `nothing at ${path}`).toBeTruthy()
      return id as string
    }
    seeded.anomalyId = await first('/anomalies')
    seeded.insightId = await first('/insights')

    mkdirSync(SHOTS, { recursive: true })
    page = await browser.context().newPage()
    page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`)
    })
    await browser.signInAsOwner(page, org)
  }, 180_000)

  it('visits every route of the route table', () => {
    const visited = new Set(VISITS.map((visit) => visit.route))
    expect(routePatterns().filter((route) => !visited.has(route))).toEqual([])
  })

  /** The visit's URL with its ids named by what they stand for, for the test's name and its screenshots. */
  const placeholders: Seeded = {
    estateId: 'estate',
    shopId: 'shop',
    emptyId: 'empty-tenant',
    reportId: 'report',
    anomalyId: 'anomaly',
    insightId: 'insight',
    budgetId: 'budget',
  }

  for (const visit of VISITS) {
    const named = visit.url(placeholders).replace(NOBODY, 'missing')
    it(`${named} meets the bar at both widths`, async () => {
      const url = visit.url(seeded)
      const shot = named.slice(1).replace(/[^a-z0-9]+/gi, '-')
      for (const viewport of WIDTHS) {
        errors = []
        await page.setViewportSize(viewport)
        await page.goto(base + url)
        await page.locator('main h1').first().waitFor()
        // Loaded: no request of the page is still under way.
        await page.locator('main [aria-busy="true"]').first().waitFor({ state: 'detached' })
        await page.locator('main .status', { hasText: 'Loading' }).first().waitFor({ state: 'detached' })
        if (visit.missing) {
          const alert = page.getByRole('alert')
          await alert.waitFor()
          expect(await alert.innerText()).toMatch(/\w{3,} \w{3,}/)
        } else {
          // Never a blank page: below its heading, the page shows its content or says that there is none.
          const heading = await page.locator('main h1').innerText()
          expect((await page.locator('main').innerText()).replace(heading, '').trim()).not.toBe('')
        }
        const where = `${url} at ${viewport.width}px`
        const heading = (await page.locator('main h1').innerText()).trim()
        const aboutRecord = visit.route.includes(':') && !visit.missing
        if (aboutRecord) expect(heading, `${where}: the heading names the record`).not.toBe(visit.title)
        const title = aboutRecord ? `${heading} · ${visit.title} · Costwatch` : `${visit.title} · Costwatch`
        await expectCommonBar(page, { where, shot: `${shot}-${viewport.width}`, title })
        expect(await currentLinks(page, 'Sections'), where).toEqual([visit.section])
        if (visit.tab) {
          const tabs = visit.section === 'Settings' ? 'Settings pages' : 'Tenant pages'
          expect(await currentLinks(page, tabs), where).toEqual([visit.tab])
        }
        // A missing record's request answers 404, which the browser logs; anything else is a fault.
        const allowed = visit.missing ? /status of 404/ : null
        expect(
          errors.filter((error) => !allowed?.test(error)),
          where,
        ).toEqual([])
      }
    })
  }

  it('says that it is loading while its data is on the way, on every route', async () => {
    await page.setViewportSize(WIDTHS[0] ?? { width: 390, height: 844 })
    // The page's data is held back until its loading state has been seen; the session is not.
    let release = () => {}
    let held = Promise.resolve()
    await page.route('**/api/app/**', async (route) => {
      if (new URL(route.request().url()).pathname !== '/api/app/session') await held
      await route.continue()
    })
    try {
      const routes = new Set<string>()
      for (const visit of VISITS) {
        if (visit.missing || routes.has(visit.route)) continue
        routes.add(visit.route)
        held = new Promise((resolve) => {
          release = resolve
        })
        const url = visit.url(seeded)
        await page.goto(base + url)
        const loading = page.locator('main').getByText(/^Loading .+…$/)
        await loading.first().waitFor()
        expect(await page.locator('main h1').count(), url).toBe(1)
        release()
        await loading.first().waitFor({ state: 'detached' })
      }
    } finally {
      release()
      await page.unroute('**/api/app/**')
    }
  })

  it('the sign-in page meets the bar at both widths', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    for (const viewport of WIDTHS) {
      errors = []
      await page.setViewportSize(viewport)
      await page.goto(`${base}/sign-in`)
      await page.getByRole('button', { name: 'Sign in' }).waitFor()
      const where = `/sign-in at ${viewport.width}px`
      await expectCommonBar(page, { where, shot: `sign-in-${viewport.width}`, title: 'Sign in · Costwatch' })
      // A 401 answer is how the app learns that nobody is signed in; the browser logs it.
      expect(
        errors.filter((error) => !/status of 401/.test(error)),
        where,
      ).toEqual([])
    }
  })
})
