import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '../../src/app.js'
import { hashPassword } from '../../src/platform/auth/password.js'
import { type OrgContext, useTestApp } from '../support/app.js'

/**
 * The web interface in a real browser against the real app on a real port. SQLite only: the API under it has its
 * own tests on both databases; this checks the interface.
 */

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
const PASSWORD = 'correct horse battery staple'

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

// The CSRF check compares a change's Origin with the public URL's: the port must be known before the app is built.
const port = await freePort()
const base = `http://127.0.0.1:${port}`
const webDir = mkdtempSync(join(tmpdir(), 'costwatch-web-'))
const t = useTestApp({
  dialect: 'sqlite',
  now: new Date().toISOString(),
  env: { COSTWATCH_PUBLIC_URL: base },
  webDir,
})

describe('web interface', () => {
  let org: OrgContext
  let tenantName: string
  let context: BrowserContext
  let userDataDir: string
  const problems: string[] = []

  beforeAll(async () => {
    await build({
      configFile: join(import.meta.dirname, '../../web/vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: webDir, emptyOutDir: true },
    })
    await t.app.listen({ host: '127.0.0.1', port })

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
    await t.db.kysely
      .updateTable('users')
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where('id', '=', org.ownerId)
      .execute()

    userDataDir = mkdtempSync(join(tmpdir(), 'costwatch-chromium-'))
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    })
    context.setDefaultTimeout(15_000)
  }, 120_000)

  afterAll(async () => {
    await context?.close()
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true })
    rmSync(webDir, { recursive: true, force: true })
  })

  function watch(page: Page) {
    page.on('response', (response) => {
      if (response.status() === 404) problems.push(`404: ${response.url()}`)
    })
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`))
    page.on('console', (message) => {
      // A 401 answer is how the app learns it is signed out; the browser logs it as a failed resource load.
      if (message.type() === 'error' && !/status of 401/.test(message.text())) problems.push(message.text())
    })
    return page
  }

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
    const page = watch(await context.newPage())
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

    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
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
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390)
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
