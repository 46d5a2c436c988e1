import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../support/app.js'

/**
 * The API reference at /docs under its Content-Security-Policy, in Debian's Chromium against the real app on a
 * real port: the policy refuses framing and anything from elsewhere, and the page still shows every operation.
 */
describe('the API reference page', () => {
  const t = useTestApp({ dialect: 'sqlite' })
  let base: string
  let context: BrowserContext | undefined
  let profile: string | undefined

  beforeAll(async () => {
    base = await t.app.listen({ host: '127.0.0.1', port: 0 })
    profile = mkdtempSync(join(tmpdir(), 'costwatch-chromium-'))
    context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    })
    context.setDefaultTimeout(20_000)
  }, 60_000)
  afterAll(async () => {
    await context?.close()
    if (profile) rmSync(profile, { recursive: true, force: true })
  })

  it('is served with a Content-Security-Policy and frame headers', async () => {
    const res = await fetch(`${base}/docs/`)
    expect(res.status).toBe(200)
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'(;|$)/)
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const script = await fetch(`${base}/docs/js/scalar.js`)
    expect(script.headers.get('x-frame-options')).toBe('DENY')
  })

  it('still shows the operations in a browser, with nothing refused by the policy and nothing from elsewhere', async () => {
    const page = await context!.newPage()
    const problems: string[] = []
    const elsewhere: string[] = []
    page.on('console', (m) => {
      // Chromium asks for /favicon.ico, which the service does not have; the page's own requests are checked below.
      if (/status of 404/.test(m.text())) return
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text())
    })
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`${res.status()}: ${res.url()}`)
    })
    page.on('pageerror', (err) => problems.push(err.message))
    page.on('request', (req) => {
      if (!req.url().startsWith(base) && !/^(data|blob):/.test(req.url())) elsewhere.push(req.url())
    })
    await page.goto(`${base}/docs/`)
    const doc = (await t.request('GET', '/api/public/v1/openapi.json')).json()
    // The operations of the specification, in the group the page opens with.
    const summaries = Object.values(doc.paths as Record<string, Record<string, { summary?: string; tags?: string[] }>>)
      .flatMap((methods) => Object.values(methods))
      .filter((op) => op.tags?.includes('PublicApi') && op.summary)
      .map((op) => op.summary!)
    expect(summaries.length).toBeGreaterThan(25)
    await page.getByText('Costwatch public API').first().waitFor()
    for (const summary of [summaries[0]!, summaries.at(-1)!]) {
      await expect.poll(() => page.getByText(summary, { exact: false }).count(), { timeout: 20_000 }).toBeGreaterThan(0)
    }
    expect(problems).toEqual([])
    expect(elsewhere).toEqual([])
  })
})
