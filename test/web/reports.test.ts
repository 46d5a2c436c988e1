import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '../../src/app.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import type { OrgContext } from '../support/app.js'
import { focusLandsOn, noHorizontalScroll, useBrowserApp } from '../support/browser.js'

/**
 * The Reports pages in a real browser against the real app: an owner defines a report, runs it and downloads its
 * files, then deletes it from the keyboard. SQLite only: the API under the pages has its tests on both databases.
 */

const { t, base, problems, ...browser } = await useBrowserApp()

describe('web interface: reports', () => {
  let org: OrgContext
  let tenant: TenantRecord

  beforeAll(async () => {
    org = await t.given.organisation('Reports Browser Org')
    tenant = await t.given.tenant(org, { name: 'Production estate' })
    await t.given.tenant(org, { name: 'Staging estate' })
    const queued = await t.request(
      'POST',
      `${API_PREFIX}/tenants/${tenant.id}/snapshots?deepHistory=true`,
      org.ownerKey,
    )
    expect(queued.statusCode).toBe(202)
    const worker = t.worker()
    while (await worker.runOnce()) {}
  }, 120_000)

  it('lets an owner define a report, run it, follow its progress, download its files, edit and delete it', async () => {
    const page = await browser.newPage()
    await browser.signInAsOwner(page, org)
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Reports' }).click()
    const definitions = page.getByRole('list', { name: 'Report definitions' })
    await definitions.getByRole('link', { name: 'Top 20 resources, last 30 days' }).waitFor()

    // A tag report without its key: the server's field error shows in words under the field.
    await page.getByRole('button', { name: 'New report' }).click()
    const form = page.getByRole('form', { name: 'New report' })
    await form.getByLabel('Name').fill('Cost by environment')
    await form.getByLabel('Description (optional)').fill('What each environment of production cost.')
    await form.getByLabel('Group by').selectOption('Tag')
    await form.getByLabel('Largest rows only (optional)').fill('5')
    await form.getByRole('radio', { name: 'Some tenancies' }).check()
    await form.getByRole('checkbox', { name: 'Production estate' }).check()
    await form.getByLabel('Runs').selectOption('Weekly')
    await form.getByLabel('Day of the week').selectOption('Friday')
    await form.getByLabel('Hour (UTC)').selectOption('6')
    await form.getByRole('button', { name: 'Create report' }).click()
    const tagKey = form.getByLabel('Tag key')
    await form.getByText('Tag key is required with dimension Tag').waitFor()
    expect(await tagKey.getAttribute('aria-invalid')).toBe('true')
    expect(await form.getByRole('alert').textContent()).toContain('One or more fields are invalid.')
    await page.setViewportSize({ width: 390, height: 844 })
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/reports-form-390.png', fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })

    await tagKey.fill('environment')
    await form.getByRole('button', { name: 'Create report' }).click()
    await page.getByRole('heading', { name: 'Cost by environment', level: 1 }).waitFor()
    const reportId = new URL(page.url()).pathname.split('/').at(-1)!
    const stored = (await t.request('GET', `${API_PREFIX}/reports/${reportId}`, org.ownerKey)).json()
    expect(stored).toMatchObject({
      name: 'Cost by environment',
      kind: 'CostByDimension',
      parameters: { dimension: 'Tag', tagKey: 'environment', top: 5, period: 'Last30Days' },
      tenancyIds: [tenant.id],
      schedule: { frequency: 'Weekly', dayOfWeek: 'Friday', hourUtc: 6 },
      lastRun: null,
    })
    await page.getByText('Every Friday at 06:00 UTC').waitFor()
    await page.getByText('Not run yet').waitFor()
    // What it covers, by the tenancies' names (the page reads every tenancy, as the form's choices did).
    await page.locator('dd', { hasText: 'Production estate' }).waitFor()

    // Run now: queued until a worker takes it, which the page follows to the end.
    await page.getByRole('button', { name: 'Run now' }).click()
    const progress = page.locator('.run-progress')
    await progress.getByText('waiting for a worker').waitFor()
    await page.screenshot({ path: '/work/shots/reports-queued-1280.png' })
    const worker = t.worker()
    while (await worker.runOnce()) {}
    await progress.getByText(/\d+ rows? for/).waitFor()
    const history = page.getByRole('list', { name: 'Runs, newest first' })
    await history.getByText('Succeeded').waitFor()
    const rows = page.getByRole('region', { name: 'Report rows' })
    await rows.getByRole('columnheader', { name: 'Tag environment' }).waitFor()
    expect(await rows.getByRole('row').count()).toBeGreaterThan(1)
    await page.screenshot({ path: '/work/shots/reports-run-1280.png', fullPage: true })

    const pdf = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download PDF' }).click()
    const pdfFile = await pdf
    expect(pdfFile.suggestedFilename()).toMatch(/^cost-by-environment-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.pdf$/)
    expect((await readFile((await pdfFile.path())!)).subarray(0, 5).toString('latin1')).toBe('%PDF-')
    const csv = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download CSV' }).click()
    const csvFile = await csv
    expect(csvFile.suggestedFilename()).toMatch(/^cost-by-environment-.*\.csv$/)
    const text = (await readFile((await csvFile.path())!, 'utf8')).replace(/^\uFEFF/, '')
    expect(text.split('\r\n')[0]).toBe('Tag environment,Cost,Currency')

    await page.setViewportSize({ width: 390, height: 844 })
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/reports-run-390.png', fullPage: true })
    await page.getByRole('link', { name: 'Reports' }).first().click()
    await definitions.getByRole('link', { name: 'Cost by environment' }).waitFor()
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/reports-list-390.png', fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.screenshot({ path: '/work/shots/reports-list-1280.png', fullPage: true })

    // Edit: the form starts from the definition; the kind stays.
    await definitions.getByRole('link', { name: 'Cost by environment' }).click()
    await page.getByRole('button', { name: 'Edit' }).click()
    const edit = page.getByRole('form', { name: 'Edit report' })
    expect(await edit.getByLabel('Tag key').inputValue()).toBe('environment')
    expect(await edit.getByLabel('Kind').isDisabled()).toBe(true)
    await edit.getByLabel('Runs').selectOption('')
    await edit.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Not scheduled: runs when asked').waitFor()
    expect((await t.request('GET', `${API_PREFIX}/reports/${reportId}`, org.ownerKey)).json()).toMatchObject({
      parameters: { dimension: 'Tag', tagKey: 'environment', top: 5 },
      schedule: null,
    })

    // Delete from the keyboard: Escape keeps it, Tab and Enter confirm.
    const remove = page.getByRole('button', { name: 'Delete', exact: true })
    await remove.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Delete “Cost by environment”?' })
    await dialog.waitFor()
    await focusLandsOn(page, 'Keep it')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    await focusLandsOn(page, 'Delete')
    await page.keyboard.press('Enter')
    await dialog.waitFor()
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor()
    await definitions.getByRole('link', { name: 'Top 20 resources, last 30 days' }).waitFor()
    expect(await definitions.getByRole('link', { name: 'Cost by environment' }).count()).toBe(0)
    expect((await t.request('GET', `${API_PREFIX}/reports/${reportId}`, org.ownerKey)).statusCode).toBe(404)

    // An insight savings report has no period: the form asks for none and sends none.
    await page.getByRole('button', { name: 'New report' }).click()
    const savings = page.getByRole('form', { name: 'New report' })
    await savings.getByLabel('Name').fill('Savings to make')
    await savings.getByLabel('Kind').selectOption('InsightSavings')
    expect(await savings.getByLabel('Period').count()).toBe(0)
    await savings.getByRole('radio', { name: 'Some tenancies' }).check()
    await savings.getByRole('checkbox', { name: 'Production estate' }).check()
    await savings.getByRole('button', { name: 'Create report' }).click()
    await page.getByRole('heading', { name: 'Savings to make', level: 1 }).waitFor()
    const savingsId = new URL(page.url()).pathname.split('/').at(-1)!
    expect((await t.request('GET', `${API_PREFIX}/reports/${savingsId}`, org.ownerKey)).json()).toMatchObject({
      kind: 'InsightSavings',
      parameters: {},
    })
    expect((await t.request('DELETE', `${API_PREFIX}/reports/${savingsId}`, org.ownerKey)).statusCode).toBe(204)
    // The browser logs the one answer that refused the form on purpose; nothing else went wrong.
    expect(problems).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)'])
  })

  it("shows a Viewer their tenancy's reports read-only, and a failed run's error in words", async () => {
    const created = await t.request('POST', `${API_PREFIX}/reports`, org.ownerKey, {
      name: 'Production by service',
      kind: 'CostByDimension',
      parameters: { dimension: 'Service', period: 'LastMonth' },
      tenancyIds: [tenant.id],
    })
    expect(created.statusCode, created.body).toBe(201)
    const reportId = created.json().id
    // A run as a worker leaves it when rendering failed.
    const now = new Date().toISOString()
    await t.db.kysely
      .insertInto('reportRuns')
      .values({
        id: randomUUID(),
        reportId,
        tenantId: null,
        status: 'Failed',
        trigger: 'Manual',
        scheduledFor: null,
        requestedAt: now,
        requestedBy: org.ownerId,
        startedAt: now,
        completedAt: now,
        periodStart: null,
        periodEnd: null,
        rowCount: null,
        preview: null,
        files: null,
        progress: null,
        errorCode: 'render_failed',
        errorMessage: 'The PDF could not be written: the disk is full.',
        leaseUntil: null,
        workerId: null,
        notBefore: null,
      })
      .execute()
    // A member with Viewer on the tenancy, signed up as accepting the invitation leaves them.
    const email = 'viewer@reports.test'
    const invited = await t.request('POST', `${API_PREFIX}/users`, org.ownerKey, { email })
    expect(invited.statusCode, invited.body).toBe(202)
    const viewerId = invited.json().id
    await browser.setPassword(viewerId)
    await t.db.kysely.updateTable('users').set({ status: 'Active' }).where('id', '=', viewerId).execute()
    const granted = await t.request('PUT', `${API_PREFIX}/tenancies/${tenant.id}/users/${viewerId}`, org.ownerKey, {
      role: 'Viewer',
    })
    expect(granted.statusCode, granted.body).toBe(200)

    await browser.context().clearCookies()
    const page = await browser.newPage()
    await page.goto(`${base}/reports`)
    await browser.signIn(page, email)
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Reports' }).click()
    const definitions = page.getByRole('list', { name: 'Report definitions' })
    await definitions.getByRole('link', { name: 'Production by service' }).click()
    // Organisation-wide reports are for owners; the Viewer neither runs, edits nor deletes.
    await page.getByRole('heading', { name: 'Production by service', level: 1 }).waitFor()
    const failure = page.getByRole('alert')
    await failure.getByText('The run failed.').waitFor()
    expect(await failure.textContent()).toContain('The PDF could not be written: the disk is full.')
    for (const name of ['Run now', 'Edit', 'Delete'])
      expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0)
    expect(await page.getByRole('link', { name: /^Download/ }).count()).toBe(0)
    await page.screenshot({ path: '/work/shots/reports-failed-1280.png', fullPage: true })
    await page.getByRole('link', { name: 'Reports' }).first().click()
    await definitions.getByRole('link', { name: 'Production by service' }).waitFor()
    expect(await definitions.getByRole('listitem').count()).toBe(1)
    expect(await page.getByRole('button', { name: 'New report' }).count()).toBe(0)
    await page.setViewportSize({ width: 390, height: 844 })
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/reports-viewer-390.png', fullPage: true })
    expect(problems).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)'])
  })
})
