import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '../../src/app.js'
import type { SnapshotRun } from '../../src/features/snapshots/schemas.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import type { OrgContext } from '../support/app.js'
import { noHorizontalScroll, useBrowserApp } from '../support/browser.js'
import { ROOT } from '../support/cli.js'
import { activeMember, MEMBER_PASSWORD } from '../support/members.js'

/**
 * Cost sources in a real browser: an owner connects a tenant of uploaded FOCUS files through the Tenants page's
 * form (an S3 export with a bad bucket first, answered beside the field), uploads the Azure FOCUS sample through
 * the Runs page's file input and follows the import to its billing period; a Viewer sees the runs without buttons.
 * Screenshots: /work/shots/cost-sources-*.
 */

const { t, base, problems, ...browser } = await useBrowserApp()
const SHOTS = '/work/shots'
const SAMPLE = join(ROOT, 'test/fixtures/focus/azure-focus-small.csv')
const VIEWER = 'runs-viewer@acme.test'

describe('web interface: cost sources', () => {
  let org: OrgContext
  let page: Page
  let tenantId: string
  let azureId: string

  beforeAll(async () => {
    org = await t.given.organisation('Sources Org')
    azureId = (await t.given.tenant(org, { name: 'Azure estate' })).id
    mkdirSync(SHOTS, { recursive: true })
    page = await browser.newPage()
    await browser.signInAsOwner(page, org)
  }, 180_000)

  it('connects a FocusUpload tenant through the form, after a field error for a bad S3 bucket', async () => {
    // The Azure tenant says where its costs come from.
    await page.getByRole('link', { name: /Azure estate/ }).waitFor()
    expect(await page.getByRole('link', { name: /Azure estate/ }).innerText()).toMatch(/Azure · /)

    await page.getByRole('button', { name: 'Connect a tenant' }).click()
    const form = page.getByRole('form', { name: 'Connect a tenant' })
    await form.getByLabel('Name').fill('AWS prod')
    await form.getByRole('radio', { name: /FOCUS export in S3/ }).check()
    await form.getByLabel('Bucket').fill('Not_A_Bucket')
    await form.getByLabel('Prefix').fill('exports/focus')
    await form.getByLabel('Region').fill('eu-west-1')
    await form.getByLabel('Access key id').fill('AKIAEXAMPLE')
    await form.getByLabel('Secret access key').fill('a-secret-never-shown')
    await form.getByRole('button', { name: 'Connect the tenant' }).click()

    // The server's message is beside the bucket, which is marked invalid and described by it; nothing is lost.
    const bucket = form.getByLabel('Bucket')
    await form.getByText(/^The bucket must be an S3 bucket name/).waitFor()
    expect(await bucket.getAttribute('aria-invalid')).toBe('true')
    expect(await bucket.getAttribute('aria-describedby')).toContain('connect-location-bucket-error')
    expect(await bucket.inputValue()).toBe('Not_A_Bucket')
    expect(await form.getByLabel('Region').inputValue()).toBe('eu-west-1')
    expect(await form.getByLabel('Name').inputValue()).toBe('AWS prod')
    await page.screenshot({ path: `${SHOTS}/cost-sources-form-error.png`, fullPage: true })
    // The refused request is the one problem the browser logged.
    expect(problems.splice(0)).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ])
    // Nothing was made.
    const before = await t.request('GET', `${API_PREFIX}/tenants`, org.ownerKey)
    expect(before.json().items.map((x: TenantRecord) => x.name)).toEqual(['Azure estate'])

    // Files uploaded instead: no location, no credential.
    await form.getByRole('radio', { name: /FOCUS files you upload/ }).check()
    expect(await form.getByLabel('Bucket').count()).toBe(0)
    await form.getByRole('button', { name: 'Connect the tenant' }).click()

    await page.getByRole('heading', { name: 'AWS prod', level: 1 }).waitFor()
    const listed = (await t.request('GET', `${API_PREFIX}/tenants`, org.ownerKey)).json().items as TenantRecord[]
    const made = listed.find((x) => x.name === 'AWS prod')
    expect(made).toMatchObject({ costSource: 'FocusUpload', cloudTenantId: null, location: null })
    tenantId = made!.id
    expect(new URL(page.url()).pathname).toBe(`/tenants/${tenantId}/runs`)
    expect(await page.title()).toBe('AWS prod · Runs · Costwatch')
    await page.getByText('No runs yet: upload a FOCUS file').waitFor()
    // Files are pushed, not collected: no collect or pull button.
    expect(await page.getByRole('button', { name: /Collect now|Pull now/ }).count()).toBe(0)
    expect(problems).toEqual([])
  })

  it('uploads a FOCUS file through the file input and shows the run with its billing period', async () => {
    await page.getByLabel('Upload a FOCUS file').setInputFiles(SAMPLE)
    await page.getByRole('button', { name: 'Upload the file' }).click()
    await page
      .getByRole('status')
      .filter({ hasText: /^Import started/ })
      .waitFor()

    const run = page.getByRole('article', { name: /^Import of files/ })
    await run.locator('.run-status', { hasText: 'Succeeded' }).waitFor({ timeout: 30_000 })
    const periods = run.getByRole('table', { name: 'Billing periods' })
    const rows = await periods.locator('tbody tr').allInnerTexts()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatch(/^2025-10\tazure-focus-small\.csv\t[\d,]+\tnew$/)

    // What the page shows is what the API answers.
    const runs = (await t.request('GET', `${API_PREFIX}/tenants/${tenantId}/snapshots`, org.ownerKey)).json()
      .items as SnapshotRun[]
    expect(runs).toHaveLength(1)
    expect(runs[0]).toMatchObject({ trigger: 'Import', status: 'Succeeded' })
    expect(runs[0]!.periods).toEqual([
      { billingPeriod: '2025-10', files: ['azure-focus-small.csv'], rows: expect.any(Number), replaced: false },
    ])
    expect(rows[0]).toContain(runs[0]!.periods[0]!.rows.toLocaleString('en-US'))
    expect(await run.innerText()).toContain(`${runs[0]!.stats.costRows.toLocaleString('en-US')} cost rows`)
    // A failed requirement's row stands out.
    const conformance = runs[0]!.conformance
    if (conformance.length > 0) {
      const table = run.getByRole('table', { name: /FOCUS conformance/ })
      expect(await table.locator('tbody tr').count()).toBe(conformance.length)
      expect(await table.locator('tbody tr.failing').count()).toBe(conformance.filter((c) => c.failedRows > 0).length)
    }
    await page.screenshot({ path: `${SHOTS}/cost-sources-runs-1280.png`, fullPage: true })

    // The same file again replaces its period.
    await page.getByLabel('Upload a FOCUS file').setInputFiles(SAMPLE)
    await page.getByRole('button', { name: 'Upload the file' }).click()
    await expect.poll(() => page.getByRole('article', { name: /^Import of files/ }).count()).toBe(2)
    const again = page.getByRole('article', { name: /^Import of files/ }).first()
    await again.locator('.run-status', { hasText: 'Succeeded' }).waitFor({ timeout: 30_000 })
    expect(await again.getByRole('table', { name: 'Billing periods' }).locator('tbody tr').innerText()).toMatch(
      /\treplaced$/,
    )

    // The list says where the tenant's costs come from.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tenants' }).click()
    const link = page.getByRole('link', { name: /AWS prod/ })
    await link.waitFor()
    // Its cloud, once the API has read it from the data (null before), follows the source.
    const record = (await t.request('GET', `${API_PREFIX}/tenants/${tenantId}`, org.ownerKey)).json() as TenantRecord
    expect(record.provider === null || record.provider === 'Azure').toBe(true)
    expect((await link.innerText()).split('\n').at(-1)).toBe(record.provider ? 'FOCUS upload · Azure' : 'FOCUS upload')
    expect(problems).toEqual([])
  })

  it("collects an Azure tenant's costs on request and follows the run until the worker has done it", async () => {
    await page.goto(`${base}/tenants/${azureId}/runs`)
    await page.getByRole('heading', { name: 'Azure estate', level: 1 }).waitFor()
    await page.getByText('No runs yet.').waitFor()
    expect(await page.getByLabel('Upload a FOCUS file').count()).toBe(0)
    await page.getByRole('button', { name: 'Collect now' }).click()
    const run = page.getByRole('article', { name: /^Collection asked for/ })
    await run.locator('.run-status', { hasText: 'Queued' }).waitFor()
    await run.getByText('Waiting for a worker…').waitFor()
    // The page asks again while the run is under way: the worker's result shows without a reload.
    const worker = t.worker()
    while (await worker.runOnce()) {}
    await run.locator('.run-status', { hasText: 'Succeeded' }).waitFor({ timeout: 15_000 })
    expect(await run.getByRole('progressbar').count()).toBe(0)
    const done = (await t.request('GET', `${API_PREFIX}/tenants/${azureId}/snapshots`, org.ownerKey)).json()
      .items as SnapshotRun[]
    expect(done).toHaveLength(1)
    expect(done[0]).toMatchObject({ trigger: 'Manual', status: 'Succeeded', periods: [] })
    expect(await run.innerText()).toContain(`${done[0]!.stats.costRows.toLocaleString('en-US')} cost rows`)
    expect(problems).toEqual([])
  })

  it('connects an Azure tenant and an S3 export through the same form, each sent with its own fields only', async () => {
    await page.goto(`${base}/tenants`)
    await page.getByRole('button', { name: 'Connect a tenant' }).click()
    let form = page.getByRole('form', { name: 'Connect a tenant' })
    await form.getByLabel('Name').fill('Contoso')
    expect(await form.getByRole('radio', { name: 'Azure connector' }).isChecked()).toBe(true)
    await form.getByLabel('Directory (tenant) id').fill('contoso-web.onmicrosoft.com')
    await form.getByLabel('Credential type').selectOption('ServicePrincipalSecret')
    await form.getByLabel('Client id').fill('11111111-2222-4333-8444-555555555555')
    await form.getByLabel('Client secret').fill('a-client-secret')
    await form.getByRole('button', { name: 'Connect the tenant' }).click()
    await page.getByRole('heading', { name: 'Contoso', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Collect now' }).waitFor()

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tenants' }).click()
    await page.getByRole('button', { name: 'Connect a tenant' }).click()
    form = page.getByRole('form', { name: 'Connect a tenant' })
    await form.getByLabel('Name').fill('AWS billing')
    await form.getByRole('radio', { name: /FOCUS export in S3/ }).check()
    await form.getByLabel('Bucket').fill('acme-billing')
    await form.getByLabel('Prefix').fill('exports/focus-daily')
    await form.getByLabel('Region').fill('eu-west-1')
    await form.getByLabel('Access key id').fill('AKIAEXAMPLE')
    await form.getByLabel('Secret access key').fill('a-secret-never-shown')
    await form.getByRole('button', { name: 'Connect the tenant' }).click()
    await page.getByRole('heading', { name: 'AWS billing', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Pull now' }).waitFor()
    await page.getByText('Costs from: FOCUS export in S3').waitFor()
    expect(await page.locator('body').innerText()).not.toContain('a-secret-never-shown')

    // An Azure Cost Management export in Blob Storage, its SAS never shown again.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tenants' }).click()
    await page.getByRole('button', { name: 'Connect a tenant' }).click()
    form = page.getByRole('form', { name: 'Connect a tenant' })
    await form.getByLabel('Name').fill('Azure billing')
    await form.getByRole('radio', { name: /FOCUS export in S3/ }).check()
    await form.getByLabel('Stored in').selectOption('AzureBlob')
    await form.getByLabel('Container URL').fill('https://contosobilling.blob.core.windows.net/exports')
    await form.getByLabel('Prefix').fill('costs/focus-cost')
    await form.getByRole('textbox', { name: 'SAS token' }).fill('sv=2024-08-04&sp=rl&sig=never-shown-again')
    await form.getByRole('button', { name: 'Connect the tenant' }).click()
    await page.getByRole('heading', { name: 'Azure billing', level: 1 }).waitFor()
    await page.getByText('Costs from: FOCUS export in Azure Blob Storage').waitFor()
    expect(await page.locator('body').innerText()).not.toContain('never-shown-again')

    // Google Cloud's export in BigQuery: a key that is no service account's is refused beside its field.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tenants' }).click()
    await page.getByRole('button', { name: 'Connect a tenant' }).click()
    form = page.getByRole('form', { name: 'Connect a tenant' })
    await form.getByLabel('Name').fill('Google billing')
    await form.getByRole('radio', { name: /FOCUS export in S3/ }).check()
    await form.getByLabel('Stored in').selectOption('BigQuery')
    await form.getByLabel('Project id').fill('acme-billing')
    await form.getByLabel('Dataset').fill('billing')
    await form.getByLabel('Table').fill('gcp_billing_export_focus_01A2B3')
    await form.getByLabel('Service account key').fill('{"type":"authorized_user"}')
    await form.getByRole('button', { name: 'Connect the tenant' }).click()
    await form.getByText(/must be a key of type service_account/).waitFor()
    expect(await form.getByLabel('Service account key').getAttribute('aria-invalid')).toBe('true')
    expect(await form.getByLabel('Project id').inputValue()).toBe('acme-billing')
    expect(problems.splice(0)).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ])

    const listed = (await t.request('GET', `${API_PREFIX}/tenants?pageSize=50`, org.ownerKey)).json()
      .items as TenantRecord[]
    expect(listed.find((x) => x.name === 'Contoso')).toMatchObject({
      costSource: 'AzureConnector',
      cloudTenantId: 'contoso-web.onmicrosoft.com',
      credentialType: 'ServicePrincipalSecret',
      hasClientSecret: true,
    })
    expect(listed.find((x) => x.name === 'AWS billing')).toMatchObject({
      costSource: 'FocusExport',
      location: {
        type: 'S3',
        bucket: 'acme-billing',
        prefix: 'exports/focus-daily',
        region: 'eu-west-1',
        hasSecret: true,
      },
    })
    expect(problems).toEqual([])
  })

  it('connects a Blob Storage export signed in with a service principal, sending its fields and not the SAS', async () => {
    const secret = 'sp-client-secret-never-shown'
    await page.goto(`${base}/tenants`)
    await page.getByRole('button', { name: 'Connect a tenant' }).click()
    const form = page.getByRole('form', { name: 'Connect a tenant' })
    await form.getByLabel('Name').fill('Azure billing SP')
    await form.getByRole('radio', { name: /FOCUS export in S3/ }).check()
    await form.getByLabel('Stored in').selectOption('AzureBlob')
    expect(await form.getByRole('radio', { name: 'SAS token' }).isChecked()).toBe(true)
    await form.getByLabel('Container URL').fill('https://contosobilling.blob.core.windows.net/exports')
    await form.getByLabel('Prefix').fill('costs/focus-cost')
    await form.getByRole('textbox', { name: 'SAS token' }).fill('sv=2024-08-04&sp=rl&sig=typed-then-left')
    await form.getByRole('radio', { name: 'Service principal' }).check()
    expect(await form.getByRole('textbox', { name: 'SAS token' }).count()).toBe(0)
    await form.getByLabel('Directory (tenant) id').fill('contoso-web.onmicrosoft.com')
    await form.getByLabel('Client id').fill('not-a-guid')
    await form.getByLabel('Client secret').fill(secret)
    await form.getByRole('button', { name: 'Connect the tenant' }).click()

    // The server's message is beside the client id; nothing typed is lost.
    const clientId = form.getByLabel('Client id')
    await form.getByText(/^The client id must be a GUID/).waitFor()
    expect(await clientId.getAttribute('aria-invalid')).toBe('true')
    expect(await clientId.getAttribute('aria-describedby')).toContain('connect-location-clientId-error')
    expect(await form.getByLabel('Client secret').inputValue()).toBe(secret)
    await page.screenshot({ path: `${SHOTS}/cost-sources-blob-service-principal.png`, fullPage: true })

    await clientId.fill('22222222-3333-4444-8555-666666666666')
    const sent = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/tenants'))
    await form.getByRole('button', { name: 'Connect the tenant' }).click()
    expect((await sent).postDataJSON()).toEqual({
      name: 'Azure billing SP',
      costSource: 'FocusExport',
      location: {
        type: 'AzureBlob',
        containerUrl: 'https://contosobilling.blob.core.windows.net/exports',
        prefix: 'costs/focus-cost',
        tenantId: 'contoso-web.onmicrosoft.com',
        clientId: '22222222-3333-4444-8555-666666666666',
        clientSecret: secret,
      },
    })
    await page.getByRole('heading', { name: 'Azure billing SP', level: 1 }).waitFor()
    await page.getByText('Costs from: FOCUS export in Azure Blob Storage').waitFor()
    expect(await page.locator('body').innerText()).not.toContain(secret)
    expect(problems.splice(0)).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ])

    const listed = await t.request('GET', `${API_PREFIX}/tenants?pageSize=50`, org.ownerKey)
    expect(listed.body).not.toContain(secret)
    expect((listed.json().items as TenantRecord[]).find((x) => x.name === 'Azure billing SP')?.location).toEqual({
      type: 'AzureBlob',
      containerUrl: 'https://contosobilling.blob.core.windows.net/exports',
      prefix: 'costs/focus-cost',
      auth: 'ServicePrincipal',
      tenantId: 'contoso-web.onmicrosoft.com',
      clientId: '22222222-3333-4444-8555-666666666666',
      hasSecret: true,
    })
  })

  it('is readable on a phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${base}/tenants/${tenantId}/runs`)
    await page
      .getByRole('article', { name: /^Import of files/ })
      .first()
      .waitFor()
    await noHorizontalScroll(page)
    await page.screenshot({ path: `${SHOTS}/cost-sources-runs-390.png`, fullPage: true })
    await page.goto(`${base}/tenants`)
    await page.getByRole('button', { name: 'Connect a tenant' }).click()
    await page.getByRole('radio', { name: /FOCUS export in S3/ }).check()
    await noHorizontalScroll(page)
    await page.screenshot({ path: `${SHOTS}/cost-sources-form-390.png`, fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })
    expect(problems).toEqual([])
  })

  it('shows a Viewer the runs without buttons, and no way to connect a tenant', async () => {
    const viewer = await activeMember(t, org, VIEWER)
    const granted = await t.request('PUT', `${API_PREFIX}/tenancies/${tenantId}/users/${viewer.id}`, org.ownerKey, {
      role: 'Viewer',
    })
    expect(granted.statusCode, granted.body).toBe(200)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await browser.signIn(page, VIEWER, MEMBER_PASSWORD)
    expect(await page.getByRole('button', { name: 'Connect a tenant' }).count()).toBe(0)
    await page.getByRole('link', { name: /AWS prod/ }).click()
    await page.getByRole('navigation', { name: 'Tenant pages' }).getByRole('link', { name: 'Runs' }).click()
    await page
      .getByRole('article', { name: /^Import of files/ })
      .first()
      .waitFor()
    expect(await page.getByLabel('Upload a FOCUS file').count()).toBe(0)
    expect(await page.locator('main').getByRole('button').count()).toBe(0)
    await page.getByText('starting one needs the Editor role').waitFor()
    expect(problems).toEqual([])
  })
})
