import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'
import { hashPassword } from '../../src/platform/auth/password.js'
import { type OrgContext, type TestApp, useTestApp } from './app.js'
import { ensureWebBuild, webBuildDir } from './web-build.js'

/**
 * The web interface in Debian's Chromium against the real app on a real port, on SQLite: the API under the pages
 * has its own tests on both databases; browser tests check the interface.
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
export const TEST_PASSWORD = 'correct horse battery staple'

/** The page is no wider than a 390 px phone: nothing scrolls sideways. */
export async function noHorizontalScroll(page: Page) {
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390)
}

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

export interface BrowserApp {
  t: TestApp
  /** `http://127.0.0.1:PORT`, the app's public URL. */
  base: string
  context(): BrowserContext
  /** Everything that went wrong in the watched pages: page errors, console errors, 404 answers. */
  problems: string[]
  /** A new page whose errors land in `problems`. */
  newPage(): Promise<Page>
  /** Gives the user a password, so the page can sign in with it. */
  setPassword(userId: string, password?: string): Promise<void>
  /** Fills the sign-in form the page shows, waits for the overview it lands on, then opens the tenant list. */
  signIn(page: Page, email: string, password?: string): Promise<void>
  /** Opens the app, signs in as the organisation's owner (password set first) and opens the tenant list. */
  signInAsOwner(page: Page, org: OrgContext): Promise<void>
}

/**
 * Builds the web interface unless built already, starts the app on a free port and Chromium with a fresh profile.
 * Call it at the top of a test file (it registers the hooks); seed data in the file's own `beforeAll`, which runs
 * after these.
 */
export async function useBrowserApp(
  options: {
    viewport?: { width: number; height: number }
    /** More settings of the app (e.g. `COSTWATCH_SMTP_URL` of a test's mail server). */
    env?: Record<string, string>
  } = {},
): Promise<BrowserApp> {
  // The CSRF check compares a change's Origin with the public URL's: the port must be known before the app is built.
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  // Built once for all the files of a run (and kept for the next while web/ does not change).
  const webDir = webBuildDir()
  const t = useTestApp({
    dialect: 'sqlite',
    now: new Date().toISOString(),
    env: { ...options.env, COSTWATCH_PUBLIC_URL: base },
    webDir,
  })
  let context: BrowserContext | undefined
  let userDataDir: string | undefined
  const problems: string[] = []

  beforeAll(async () => {
    await ensureWebBuild(webDir)
    await t.app.listen({ host: '127.0.0.1', port })
    userDataDir = mkdtempSync(join(tmpdir(), 'costwatch-chromium-'))
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
      viewport: options.viewport ?? { width: 1280, height: 900 },
    })
    context.setDefaultTimeout(15_000)
  }, 120_000)

  afterAll(async () => {
    await context?.close()
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true })
  })

  const setPassword = async (userId: string, password = TEST_PASSWORD) => {
    await t.db.kysely
      .updateTable('users')
      .set({ passwordHash: await hashPassword(password) })
      .where('id', '=', userId)
      .execute()
  }

  const signIn = async (page: Page, email: string, password = TEST_PASSWORD) => {
    await page.getByLabel('E-mail address').fill(email)
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    // Signed in, the app opens the overview; the suites start from the tenant list, one click further.
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor()
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tenants' }).click()
    await page.getByRole('heading', { name: 'Tenants' }).waitFor()
  }

  return {
    t,
    base,
    problems,
    context: () => {
      if (!context) throw new Error('the browser starts in beforeAll')
      return context
    },
    async newPage() {
      if (!context) throw new Error('the browser starts in beforeAll')
      const page = await context.newPage()
      page.on('response', (response) => {
        if (response.status() === 404) problems.push(`404: ${response.url()}`)
      })
      page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`))
      page.on('console', (message) => {
        // A 401 answer is how the app learns it is signed out; the browser logs it as a failed resource load.
        if (message.type() === 'error' && !/status of 401/.test(message.text())) problems.push(message.text())
      })
      return page
    },
    setPassword,
    signIn,
    async signInAsOwner(page, org) {
      await setPassword(org.ownerId)
      await page.goto(`${base}/`)
      await signIn(page, org.owner.actor.name ?? '')
    },
  }
}

/**
 * Waits (up to 5 s) until the focused element's text is `text`: focus moves as the page handles an event. A
 * locator, not a predicate string: the page's Content-Security-Policy refuses to evaluate strings.
 */
export async function focusLandsOn(page: Page, text: string): Promise<void> {
  await page
    .locator('*:focus')
    .filter({ hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
    .waitFor({ timeout: 5000 })
}
