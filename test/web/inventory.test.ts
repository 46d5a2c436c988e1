import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '../../src/app.js'
import type { OrgContext } from '../support/app.js'
import { noHorizontalScroll, useBrowserApp } from '../support/browser.js'
import { plantedEstate, writeFocusFiles } from '../support/focus-estate.js'
import { sampleExport, writeSampleExport } from '../support/focus-providers.js'

/**
 * The Inventory tab and the charts of single resources in a real browser against the real app (SQLite: the API
 * under the page has its own tests on both databases).
 */

const { t, base, problems, ...browser } = await useBrowserApp()

const VM = 'Microsoft.Compute/virtualMachines'

interface ResourceRow {
  id: string
  name: string
  resourceGroupId: string
  resourceGroupName: string
  subscriptionId: string
  tags: Record<string, string>
}

describe('inventory page', () => {
  let org: OrgContext
  let tenantId: string
  let tagged: ResourceRow
  let untagged: ResourceRow
  /** A tenant's resource list in a new page: the browser keeps the session of a test before, else it signs in. */
  const resourcesPage = async (id: string) => {
    const page = await browser.newPage()
    await page.goto(`${base}/`)
    const signInField = page.getByLabel('E-mail address')
    await signInField.or(page.getByRole('heading', { name: 'Overview', level: 1 })).waitFor()
    if (await signInField.isVisible()) await browser.signInAsOwner(page, org)
    await page.goto(`${base}/tenants/${id}/inventory?view=resources`)
    return page
  }
  const workloadOf = (r: ResourceRow) => Object.entries(r.tags).find(([key]) => key.toLowerCase() === 'workload')?.[1]

  beforeAll(async () => {
    org = await t.given.organisation('Inventory Org')
    const tenant = await t.given.tenant(org, { name: 'Production estate' })
    tenantId = tenant.id
    const queued = await t.request('POST', `${API_PREFIX}/tenants/${tenantId}/snapshots?deepHistory=true`, org.ownerKey)
    expect(queued.statusCode).toBe(202)
    expect(await t.worker().runOnce()).toBeTruthy()

    // Two virtual machines of different workloads: a marker for the first one's workload is on its chart only.
    const vms = await t.request(
      'GET',
      `${API_PREFIX}/tenants/${tenantId}/resources?resourceType=${VM}&pageSize=200`,
      org.ownerKey,
    )
    const items = vms.json().items as ResourceRow[]
    tagged = items.find((r) => workloadOf(r))!
    untagged = items.find((r) => workloadOf(r) && workloadOf(r) !== workloadOf(tagged))!
    expect(untagged).toBeDefined()
    const marker = await t.request('POST', `${API_PREFIX}/tenants/${tenantId}/events`, org.ownerKey, {
      occurredAt: new Date(Date.now() - 5 * 86_400_000).toISOString(),
      title: 'Deploy workload release',
      category: 'Deployment',
      tagKey: 'workload',
      tagValue: workloadOf(tagged),
    })
    expect(marker.statusCode).toBe(201)
  }, 120_000)

  it('filters the resources, opens their charts with the tag-scoped marker only where the tags match, and fits a phone', async () => {
    const page = await browser.newPage()
    await browser.signInAsOwner(page, org)
    await page.getByRole('link', { name: /Production estate/ }).click()
    await page.getByRole('link', { name: 'Inventory' }).click()
    const subscriptions = page.getByRole('region', { name: 'Subscriptions' })
    await subscriptions.getByRole('link', { name: 'Production', exact: true }).waitFor()
    expect(await subscriptions.getByRole('row').count()).toBe(1 + 4)
    await page.screenshot({ path: '/work/shots/inventory-subscriptions-1280.png', fullPage: true })

    // A group's chart (its tags hold the marker's): the group is named by name, and by subscription in the address.
    const lists = page.getByRole('navigation', { name: 'Inventory lists' })
    await lists.getByRole('link', { name: 'Resource groups' }).click()
    await page.getByLabel('Subscription').selectOption(tagged.subscriptionId)
    const groupsOfSubscription = await t.request(
      'GET',
      `${API_PREFIX}/tenants/${tenantId}/resource-groups?subscriptionId=${tagged.subscriptionId}`,
      org.ownerKey,
    )
    // The filtered list has loaded once its count is the API's for the same filter.
    await page.getByText(`${groupsOfSubscription.json().totalCount} resource groups`, { exact: true }).waitFor()
    await page.screenshot({ path: '/work/shots/inventory-groups-1280.png', fullPage: true })
    await page
      .getByRole('region', { name: 'Resource groups' })
      .getByRole('link', { name: tagged.resourceGroupName, exact: true })
      .click()
    await page.getByRole('heading', { name: `Resource group ${tagged.resourceGroupName}` }).waitFor()
    await page.getByRole('list', { name: 'Event markers' }).getByText('Deploy workload release').waitFor()
    await page.getByRole('link', { name: 'Inventory' }).click()

    // Resources of one group and type: the pager counts what the API holds for the same filters.
    await lists.getByRole('link', { name: 'Resources' }).click()
    await page.getByRole('region', { name: 'Resources' }).waitFor()
    await page.getByLabel('Resource group').selectOption(tagged.resourceGroupId)
    // The type picker offers the tenant's types (not just the page's), readably, with their counts.
    const types = (await t.request('GET', `${API_PREFIX}/tenants/${tenantId}/resource-types`, org.ownerKey)).json()
    expect(await page.getByLabel('Resource type').locator('option').count()).toBe(1 + types.items.length)
    await page.getByLabel('Resource type').selectOption(VM)
    const expected = await t.request(
      'GET',
      `${API_PREFIX}/tenants/${tenantId}/resources?resourceGroupId=${tagged.resourceGroupId}&resourceType=${VM}`,
      org.ownerKey,
    )
    const count = expected.json().totalCount as number
    await page.getByText(`${count} resources`, { exact: true }).waitFor()
    const resources = page.getByRole('region', { name: 'Resources' })
    expect(await resources.getByRole('row').count()).toBe(1 + count)
    expect(await resources.getByText('virtualMachines (Microsoft.Compute)', { exact: true }).count()).toBe(count)
    await page.screenshot({ path: '/work/shots/inventory-1280.png', fullPage: true })

    // The matching resource's chart has the marker, and keeps its scope through a reload.
    await resources.getByRole('link', { name: tagged.name, exact: true }).click()
    await page.getByRole('heading', { name: `Resource ${tagged.name}` }).waitFor()
    expect(page.url()).toContain(`scope=resource%3A${tagged.id}`)
    const markers = page.getByRole('list', { name: 'Event markers' })
    await markers.getByText('Deploy workload release').waitFor()
    await page.getByRole('button', { name: 'Deployment marker: Deploy workload release' }).waitFor()
    // One resource is one group and one resource: the chart offers no split by either.
    expect(await page.getByLabel('Group by').locator('option').allTextContents()).toEqual([
      'Nothing (total)',
      'Service',
      'Tag',
    ])
    await page.reload()
    await page.getByRole('heading', { name: `Resource ${tagged.name}` }).waitFor()
    await markers.getByText('Deploy workload release').waitFor()
    await page.screenshot({ path: '/work/shots/inventory-chart-1280.png', fullPage: true })

    // Back to the filtered list; a resource of another workload has no such marker.
    await page.goBack()
    await page.getByLabel('Resource group').selectOption(untagged.resourceGroupId)
    await page
      .getByRole('region', { name: 'Resources' })
      .getByRole('link', { name: untagged.name, exact: true })
      .click()
    await page.getByRole('heading', { name: `Resource ${untagged.name}` }).waitFor()
    await page.locator('.chart canvas').first().waitFor()
    await page.getByText('No event markers in this range.').waitFor()
    expect(await page.getByText('Deploy workload release').count()).toBe(0)

    // The whole tenant's chart is broad: the scoped marker is on it.
    await page.getByRole('link', { name: 'Back to the whole tenant' }).click()
    await page.getByRole('heading', { name: 'Production estate' }).waitFor()
    await markers.getByText('Deploy workload release').waitFor()

    // A tag typed in, a part of a name, then a row's tag chip: each narrows the list as the API does.
    const countOf = async (query: string) =>
      (await t.request('GET', `${API_PREFIX}/tenants/${tenantId}/resources?${query}`, org.ownerKey)).json()
        .totalCount as number
    const counted = (n: number) => page.getByText(new RegExp(`(^|· )${n} resources$`)).waitFor()
    const workload = `workload:${workloadOf(tagged)}`
    await page.goto(`${base}/tenants/${tenantId}/inventory?view=resources`)
    // The field suggests every tag of the tenant, not only those of the rows in view.
    await page.locator(`#tag-choices option[value="${workload}"]`).waitFor({ state: 'attached' })
    await page.locator(`#tag-choices option[value="workload:${workloadOf(untagged)}"]`).waitFor({ state: 'attached' })
    await page.getByLabel('Add a tag filter').fill(workload)
    await page.getByLabel('Add a tag filter').press('Enter')
    await counted(await countOf(`tag=${workload}`))
    await page.getByRole('button', { name: `Remove the tag filter ${workload}` }).waitFor()
    const part = tagged.name.slice(0, 6).toUpperCase()
    await page.getByLabel('Name contains').fill(part)
    await page.getByLabel('Name contains').press('Enter')
    const narrowed = await countOf(`tag=${workload}&search=${part}`)
    expect(narrowed).toBeGreaterThan(0)
    await counted(narrowed)
    const [otherKey, otherValue] = Object.entries(tagged.tags).find(([key]) => key.toLowerCase() !== 'workload')!
    await page
      .getByRole('row', { name: new RegExp(tagged.name) })
      // Exact: a resource may carry the key in two spellings (environment, Environment), each a chip of its own.
      .getByRole('link', { name: `${otherKey}=${otherValue}`, exact: true })
      .click()
    await counted(await countOf(`tag=${workload}&search=${part}&tag=${otherKey}:${otherValue}`))
    expect(page.url()).toContain(`tag=${encodeURIComponent(`${otherKey}:${otherValue}`)}`)
    await page.getByLabel('Sort by').selectOption('-name')
    const [firstRow] = (
      await t.request(
        'GET',
        `${API_PREFIX}/tenants/${tenantId}/resources?tag=${workload}&tag=${otherKey}:${otherValue}&search=${part}&sort=-name`,
        org.ownerKey,
      )
    ).json().items
    await page.waitForURL(/sort=-name/)
    await resources.getByRole('row').nth(1).getByRole('link', { name: firstRow.name, exact: true }).waitFor()
    await page.screenshot({ path: '/work/shots/inventory-filters-1280.png', fullPage: true })

    // The most expensive resources of the last 30 days first, as the API orders them.
    await page.goto(`${base}/tenants/${tenantId}/inventory?view=resources`)
    await page.getByLabel('Sort by').selectOption('-last30Days')
    await page.waitForURL(/sort=-last30Days/)
    const [priciest] = (
      await t.request('GET', `${API_PREFIX}/tenants/${tenantId}/resources?sort=-last30Days`, org.ownerKey)
    ).json().items
    expect(priciest.costs.last30Days).toBeGreaterThan(0)
    await resources.getByRole('row').nth(1).getByRole('link', { name: priciest.name, exact: true }).waitFor()
    await page.screenshot({ path: '/work/shots/inventory-by-cost-1280.png' })

    // A phone: the wide table scrolls inside its own frame, the page does not.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${base}/tenants/${tenantId}/inventory?view=resources&name=no-such-resource`)
    await page.getByText('No resources match these filters.').waitFor()
    await page.getByRole('button', { name: 'Clear filters' }).click()
    const frame = page.getByRole('region', { name: 'Resources' })
    await frame.waitFor()
    await noHorizontalScroll(page)
    expect(await frame.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
    const all = (await t.request('GET', `${API_PREFIX}/tenants/${tenantId}/resources`, org.ownerKey)).json()
    const pages = page.getByRole('navigation', { name: 'Pages' })
    await pages.getByText(`Page 1 of ${all.totalPages} · ${all.totalCount} resources`).waitFor()
    await pages.getByRole('link', { name: 'Next page' }).click()
    await pages.getByText(`Page 2 of ${all.totalPages}`).waitFor()
    expect(page.url()).toContain('page=2')
    await page.screenshot({ path: '/work/shots/inventory-390.png' })
    await page.goto(`${base}/tenants/${tenantId}/inventory?view=resources&tag=${workload}&search=${part}`)
    await counted(await countOf(`tag=${workload}&search=${part}`))
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/inventory-filters-390.png', fullPage: true })
    await page.goto(`${base}/tenants/${tenantId}?scope=resource:${tagged.id}`)
    await markers.getByText('Deploy workload release').waitFor()
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/inventory-chart-390.png' })
    expect(problems).toEqual([])

    // A scope the API refuses is said in words, with the field at fault.
    await page.goto(`${base}/tenants/${tenantId}?scope=resource:not-a-resource`)
    const alert = page.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/scope: must be tenant/)
    await page.screenshot({ path: '/work/shots/inventory-bad-scope-390.png' })
    await page.getByRole('link', { name: 'Back to the whole tenant' }).waitFor()
    // The browser logs the refused requests as failed loads; nothing else went wrong.
    expect(problems.length).toBeGreaterThan(0)
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([])
  })

  it('shows a removed resource as a removal in the list and above its chart', async () => {
    const tenant = await t.given.tenant(org, { name: 'Imported estate' })
    const files = writeFocusFiles(plantedEstate())
    // vm-web-2 deleted on 2026-02-15: the later files bill it no more.
    for (const file of files) {
      const lines = readFileSync(file, 'utf8').split('\n')
      // ChargePeriodEnd, then ChargePeriodStart: the row's day is the second.
      const day = (line: string) => /T00:00:00Z,(\d{4}-\d{2}-\d{2})T00:00:00Z/.exec(line)?.[1] ?? ''
      const gone = (line: string) => line.includes('/vm-web-2') && day(line) >= '2026-02-15'
      writeFileSync(file, lines.filter((line) => !gone(line)).join('\n'))
    }
    // The import writes the costs and what it covered: the record says so at once (no worker run: a scheduled
    // collection of the simulated estate would cover later days and outdate the import).
    await t.services.importFocus(tenant.id, files)

    const page = await resourcesPage(tenant.id)
    const row = page.getByRole('row', { name: /vm-web-2/ })
    await row
      .getByText('Removed: last cost on 2026-02-14 (the cost imports bill it no more).', { exact: false })
      .waitFor()
    expect(await page.getByText(/^Removed:/).count()).toBe(1)
    await page.screenshot({ path: '/work/shots/inventory-removed-1280.png', fullPage: true })
    await row.getByRole('link', { name: 'vm-web-2', exact: true }).click()
    await page.getByRole('heading', { name: 'Resource vm-web-2' }).waitFor()
    await page
      .getByRole('note')
      .getByText(/Removed: last cost on 2026-02-14/)
      .waitFor()
    await page.screenshot({ path: '/work/shots/inventory-removed-chart-1280.png' })
  })
  it("lists an AWS account's resources in their account, without a group, and opens one's chart", async () => {
    // The tests before may leave what their browser logged.
    const problemsBefore = problems.length
    const created = await t.request('POST', `${API_PREFIX}/tenants`, org.ownerKey, {
      name: 'AWS estate',
      costSource: 'FocusUpload',
    })
    expect(created.statusCode, created.body).toBe(201)
    const tenant = created.json() as { id: string }
    const firstDay = new Date(Date.now() - 35 * 86_400_000).toISOString().slice(0, 10)
    const sample = sampleExport('aws-1.2', { seed: 11, days: 30, resources: 4, firstDay })
    const file = writeSampleExport(sample, join(mkdtempSync(join(tmpdir(), 'costwatch-aws-')), 'aws.csv'), 'csv')
    await t.services.importFocus(tenant.id, [file])
    const instance = sample.rows.find((r) => r.ResourceId?.includes(':instance/'))!

    const page = await resourcesPage(tenant.id)
    const resources = page.getByRole('region', { name: 'Resources' })
    await page.getByText('4 resources', { exact: true }).waitFor()
    // Its account stands where an Azure resource's group does.
    const row = resources.getByRole('row', { name: new RegExp(`^${instance.ResourceName} `) })
    await row.getByText(`${instance.SubAccountId} (no group)`).waitFor()
    await page.screenshot({ path: '/work/shots/inventory-aws-1280.png', fullPage: true })
    await row.getByRole('link', { name: instance.ResourceName!, exact: true }).click()
    await page.getByRole('heading', { name: `Resource ${instance.ResourceName}` }).waitFor()
    await page.getByText(`in ${instance.SubAccountId}`, { exact: false }).first().waitFor()
    expect(problems.slice(problemsBefore)).toEqual([])
  })
})
