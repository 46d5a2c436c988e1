import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { focusFiles } from '../../eval/estate.js'
import { API_PREFIX } from '../../src/app.js'
import { addDays } from '../../src/platform/time.js'
import type { OrgContext } from '../support/app.js'
import { focusLandsOn, noHorizontalScroll, useBrowserApp } from '../support/browser.js'
import { plantedEstate } from '../support/focus-estate.js'
import { activeMember, MEMBER_PASSWORD } from '../support/members.js'

/**
 * Settings → Notifications in a real browser: an owner adds a Slack, a Teams and a webhook channel pointing at
 * local receivers (reached through COSTWATCH_OUTBOUND_ALLOW), presses test on each and reads the delivery log;
 * sees the webhook's secret once, checks the signature with the standardwebhooks package, rotates it; makes the
 * rule "anomalies over US$100 or 50% on tag team=payments, at once" with its live preview, edits and deletes it.
 * A Viewer sees no channel management. The tenant's estate ends yesterday, with vm-web-1 (tagged team=payments)
 * at five times its cost nine days ago.
 */

interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
}

/** A local HTTP receiver answering every request with `status`, keeping what it got. */
async function receiver(status: number): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : '')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, received, server }
}

const slack = await receiver(200)
const teams = await receiver(202)
const hook = await receiver(204)
afterAll(() => Promise.all([slack, teams, hook].map((r) => new Promise((done) => r.server.close(done)))))

const { t, base, problems, ...browser } = await useBrowserApp({
  env: { COSTWATCH_OUTBOUND_ALLOW: '127.0.0.1/32' },
})
const TODAY = new Date().toISOString().slice(0, 10)
const VIEWER = 'val.viewer@notifications.test'

async function drainWorker() {
  const worker = t.worker()
  while (await worker.runOnce()) {}
}

describe('web interface: Settings → Notifications', () => {
  let org: OrgContext
  let page: Page
  let shopId: string
  let viewerId: string

  beforeAll(async () => {
    org = await t.given.organisation('Notifications Org')
    const shop = await t.given.tenant(org, { name: 'Payments estate' })
    shopId = shop.id
    const estate = plantedEstate()
    const vm1 = estate.resources.find((r) => r.name === 'vm-web-1')!
    vm1.tags = { env: 'prod', team: 'payments' }
    // The planted estate, ending yesterday, in US dollars.
    const days = estate.days.map((_, d) => addDays(TODAY, d - estate.days.length))
    const dir = mkdtempSync(join(tmpdir(), 'costwatch-notifications-'))
    const files = [...focusFiles({ ...estate, days }, 'USD')].map(([month, text]) => {
      const file = join(dir, `focus-${month}.csv`)
      writeFileSync(file, text)
      return file
    })
    await t.services.importFocus(shop.id, files)
    await t.db.kysely.updateTable('snapshotRuns').set({ scheduledFor: TODAY }).where('tenantId', '=', shop.id).execute()
    await drainWorker()

    const viewer = await activeMember(t, org, VIEWER)
    viewerId = viewer.id
    const granted = await t.request('PUT', `${API_PREFIX}/tenancies/${shop.id}/users/${viewer.id}`, org.ownerKey, {
      role: 'Viewer',
    })
    expect(granted.statusCode, granted.body).toBe(200)
    await browser.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base })
    page = await browser.newPage()
    await browser.signInAsOwner(page, org)
  }, 180_000)

  /** Adds a channel through the form; answers the secret box's secret, if one is shown. */
  async function addChannel(type: 'Slack' | 'Teams' | 'Webhook', name: string, url: string) {
    await page.getByRole('button', { name: 'Add a channel' }).click()
    const form = page.getByRole('form', { name: 'New channel' })
    await form.getByRole('radio', { name: type }).check()
    await form.getByLabel('Name').fill(name)
    await form.getByLabel(/URL/).fill(url)
    await form.getByRole('button', { name: 'Add the channel' }).click()
    await form.waitFor({ state: 'detached' })
    await page.getByRole('listitem').filter({ hasText: name }).waitFor()
  }

  /** Presses test, lets the worker deliver, and waits for the log's answer. */
  async function testChannel(name: string, status: 'Succeeded' | 'Accepted') {
    const item = page.getByRole('listitem').filter({ hasText: name })
    await item.getByRole('button', { name: `Test ${name}` }).click()
    await item.getByRole('status').filter({ hasText: 'Test message queued' }).waitFor()
    await item.getByRole('table', { name: `Delivery log of ${name}` }).waitFor()
    await drainWorker()
    const row = item.getByRole('row').filter({ hasText: 'test' }).first()
    await row.getByText(status, { exact: true }).waitFor({ timeout: 20_000 })
    // The result beside the button too.
    await item
      .getByRole('status')
      .filter({ hasText: new RegExp(`^Test message: ${status} \\(\\d{3} in \\d+ ms\\)$`) })
      .waitFor()
    return row
  }

  it('adds a Slack, a Teams and a webhook channel, tests each, shows the secret once and rotates it', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click()
    await page.getByRole('navigation', { name: 'Settings pages' }).getByRole('link', { name: 'Notifications' }).click()
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor()
    await page.getByText('No channels yet.').waitFor()

    // A URL the guard refuses by its form is a 400 naming the field, shown under it; nothing is saved.
    await page.getByRole('button', { name: 'Add a channel' }).click()
    const form = page.getByRole('form', { name: 'New channel' })
    await form.getByLabel('Name').fill('#finops')
    await form.getByLabel('Slack incoming-webhook URL').fill('http://10.0.0.8/hook')
    await form.getByRole('button', { name: 'Add the channel' }).click()
    const urlField = form.getByLabel('Slack incoming-webhook URL')
    await form.locator('#channel-url-error').waitFor()
    expect(await urlField.getAttribute('aria-invalid')).toBe('true')
    expect(await urlField.getAttribute('aria-describedby')).toContain('channel-url-error')
    expect(problems.splice(0)).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ])
    await form.getByRole('button', { name: 'Cancel' }).click()

    await addChannel('Slack', '#finops', `${slack.url}/services/T000/B000/slack`)
    await addChannel('Teams', 'FinOps Teams', `${teams.url}/workflows/teams`)
    await addChannel('Webhook', 'On-call', `${hook.url}/cw`)

    // The webhook's signing secret, once, in a box to copy; gone for good after "Done".
    const secretField = page.getByLabel('Signing secret')
    const secret = await secretField.inputValue()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/)
    await page.getByRole('button', { name: 'Copy' }).click()
    await page.getByText('Copied to the clipboard.').waitFor()
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret)
    await page.screenshot({ path: '/work/shots/notifications-secret-1280.png', fullPage: true })
    await page.getByRole('button', { name: 'Done, I have saved it' }).click()
    await secretField.waitFor({ state: 'detached' })
    expect(await page.content()).not.toContain(secret.slice(6))

    // Each channel names its host only: the URLs are credentials.
    const slackItem = page.getByRole('listitem').filter({ hasText: '#finops' })
    await slackItem.getByText(`Slack · ${new URL(slack.url).host}`).waitFor()
    expect(await page.content()).not.toContain('/services/T000/B000/slack')

    await testChannel('#finops', 'Succeeded')
    await testChannel('FinOps Teams', 'Accepted')
    const hookRow = await testChannel('On-call', 'Succeeded')
    await hookRow.getByText('204').waitFor()
    expect(slack.received.map((r) => r.path)).toEqual(['/services/T000/B000/slack'])
    expect(teams.received.map((r) => r.path)).toEqual(['/workflows/teams'])
    expect(hook.received).toHaveLength(1)
    // Signed by Standard Webhooks, checked by an independent implementation.
    const first = hook.received[0]!
    const verified = new Webhook(secret).verify(first.body, first.headers as Record<string, string>)
    expect(verified).toMatchObject({ type: 'test' })
    await hookRow.getByText(String(first.headers['webhook-id'])).waitFor()
    await page.screenshot({ path: '/work/shots/notifications-channels-1280.png', fullPage: true })

    // Rotating asks first; the new secret is shown once, and the next test is signed with it.
    const hookItem = page.getByRole('listitem').filter({ hasText: 'On-call' })
    await hookItem.getByRole('button', { name: 'Rotate the secret of On-call' }).click()
    const dialog = page.getByRole('dialog', { name: 'Rotate the secret of "On-call"?' })
    await dialog.waitFor()
    await focusLandsOn(page, 'Cancel')
    await dialog.getByRole('button', { name: 'Rotate the secret' }).click()
    await dialog.waitFor({ state: 'hidden' })
    const rotated = await page.getByLabel('Signing secret').inputValue()
    expect(rotated).toMatch(/^whsec_/)
    expect(rotated).not.toBe(secret)
    await page.getByText(/previous secret keeps signing beside the new one until/).waitFor()
    await page.getByRole('button', { name: 'Done, I have saved it' }).click()
    await hookItem.getByText(/previous secret still signs until/).waitFor()
    await hookItem.getByRole('button', { name: 'Test On-call' }).click()
    await drainWorker()
    await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBe(2)
    const second = hook.received[1]!
    expect(new Webhook(rotated).verify(second.body, second.headers as Record<string, string>)).toMatchObject({
      type: 'test',
    })
    // Both secrets sign during the overlap.
    expect(new Webhook(secret).verify(second.body, second.headers as Record<string, string>)).toBeTruthy()

    // Redelivered from the log: the same webhook-id, so the receiver can tell it has it already.
    const hookLog = hookItem.getByRole('table', { name: 'Delivery log of On-call' })
    await hookLog.getByText(String(second.headers['webhook-id'])).waitFor()
    const newest = hookLog
      .getByRole('row')
      .filter({ hasText: String(second.headers['webhook-id']) })
      .first()
    await newest.getByRole('button', { name: /again$/ }).click()
    await drainWorker()
    await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBe(3)
    expect(hook.received[2]!.headers['webhook-id']).toBe(second.headers['webhook-id'])
    await expect
      .poll(() =>
        hookLog
          .getByRole('row')
          .filter({ hasText: String(second.headers['webhook-id']) })
          .count(),
      )
      .toBe(2)

    // An e-mail channel: addresses and a user of the organisation, named in the list.
    await page.getByRole('button', { name: 'Add a channel' }).click()
    const mail = page.getByRole('form', { name: 'New channel' })
    await mail.getByRole('radio', { name: 'E-mail' }).check()
    await mail.getByLabel('Name').fill('FinOps mail')
    await mail.getByLabel('E-mail addresses').fill('finops@example.com, cto@example.com')
    await mail.getByRole('checkbox', { name: new RegExp(VIEWER) }).check()
    await mail.getByRole('button', { name: 'Add the channel' }).click()
    await mail.waitFor({ state: 'detached' })
    await page
      .getByRole('listitem')
      .filter({ hasText: 'FinOps mail' })
      .getByText(`Email · finops@example.com, cto@example.com, Member ${VIEWER}`)
      .waitFor()

    // Disable and enable again; a disabled channel cannot be tested.
    await slackItem.getByRole('button', { name: 'Disable #finops' }).click()
    await slackItem.getByText('Disabled', { exact: true }).waitFor()
    expect(await slackItem.getByRole('button', { name: 'Test #finops' }).isDisabled()).toBe(true)
    await slackItem.getByRole('button', { name: 'Enable #finops' }).click()
    await slackItem.getByText('Enabled', { exact: true }).waitFor()

    // Edited: the URL, a credential, is replaced only when a new one is typed, and never shown.
    await slackItem.getByRole('button', { name: 'Edit #finops' }).click()
    const edit = page.getByRole('form', { name: 'Edit "#finops"' })
    await edit
      .getByText(`Now a URL on ${new URL(slack.url).host}, never shown again. Leave empty to keep it.`)
      .waitFor()
    expect(await edit.getByLabel('Replace the Slack incoming-webhook URL').inputValue()).toBe('')
    await edit.getByLabel('Name').fill('#finops-alerts')
    await edit.getByRole('button', { name: 'Save the channel' }).click()
    await edit.waitFor({ state: 'detached' })
    await testChannel('#finops-alerts', 'Succeeded')
    expect(slack.received.map((r) => r.path)).toEqual(['/services/T000/B000/slack', '/services/T000/B000/slack'])
    const renamed = page.getByRole('listitem').filter({ hasText: '#finops-alerts' })
    await renamed.getByRole('button', { name: 'Edit #finops-alerts' }).click()
    await page
      .getByRole('form', { name: 'Edit "#finops-alerts"' })
      .getByLabel('Replace the Slack incoming-webhook URL')
      .fill(`${slack.url}/services/T000/B000/moved`)
    await page.getByRole('button', { name: 'Save the channel' }).click()
    await page.getByRole('form', { name: 'Edit "#finops-alerts"' }).waitFor({ state: 'detached' })
    await renamed.getByRole('button', { name: 'Test #finops-alerts' }).click()
    await drainWorker()
    await expect.poll(() => slack.received.length, { timeout: 20_000 }).toBe(3)
    expect(slack.received[2]!.path).toBe('/services/T000/B000/moved')
    expect(await page.content()).not.toContain('/services/T000/B000/moved')
    const channels = await t.request('GET', `${API_PREFIX}/notification-channels`, org.ownerKey)
    expect(JSON.stringify(channels.json())).not.toContain('/services/T000/B000')

    await page.setViewportSize({ width: 390, height: 844 })
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/notifications-channels-390.png', fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })
    expect(problems).toEqual([])
  })

  it('makes "anomalies over US$100 or 50% on tag team=payments, at once" with its preview, edits and deletes it', async () => {
    await page.getByRole('button', { name: 'New rule' }).click()
    const form = page.getByRole('form', { name: 'New rule' })
    await form.getByLabel('Name').fill('Payments')
    await form.getByRole('checkbox', { name: /#finops/ }).check()
    await form.getByRole('checkbox', { name: /On-call/ }).check()
    await form.getByRole('button', { name: 'Add a tag' }).click()
    await form.getByLabel('Tag key 1').fill('team')
    await form.getByLabel('Tag value 1').fill('payments')
    await form.getByLabel('Impact at least (money)').fill('100')
    await form.getByLabel('Impact at least (percent)').fill('50')
    await form.getByLabel('Thresholds').selectOption('any')
    await form.getByRole('radio', { name: 'At once' }).check()

    // The preview follows the form: vm-web-1's spike nine days ago would have alerted.
    const preview = form.getByRole('region', { name: 'Preview: the last 30 days' })
    await preview
      .getByRole('status')
      .filter({ hasText: /\d+ anomal(y|ies) of the last 30 days would have alerted/ })
      .waitFor()
    await preview.getByRole('link', { name: 'vm-web-1' }).waitFor()
    expect(await preview.getByRole('listitem').count()).toBe(1)
    // A tag nothing carries: nothing would have alerted.
    await form.getByLabel('Tag value 1').fill('nobody')
    await preview
      .getByRole('status')
      .filter({ hasText: 'No anomaly of the last 30 days would have alerted.' })
      .waitFor()
    await form.getByLabel('Tag value 1').fill('payments')
    await preview
      .getByRole('status')
      .filter({ hasText: /would have alerted/ })
      .first()
      .waitFor()
    await page.screenshot({ path: '/work/shots/notifications-rule-form-1280.png', fullPage: true })
    await form.getByRole('button', { name: 'Create the rule' }).click()
    await form.waitFor({ state: 'detached' })

    const row = page.getByRole('row', { name: /Payments/ })
    await row.getByText('Anomalies over 100 or over 50%').waitFor()
    await row.getByText(/tag team=payments/).waitFor()
    await row.getByText('At once').waitFor()
    const saved = await t.request('GET', `${API_PREFIX}/notification-rules`, org.ownerKey)
    expect(saved.json().items).toEqual([
      expect.objectContaining({
        name: 'Payments',
        scope: expect.objectContaining({ tenancyIds: null, tags: [{ key: 'team', value: 'payments' }] }),
        trigger: expect.objectContaining({
          type: 'AnomalyRaised',
          minImpact: 100,
          minImpactPercent: 50,
          combine: 'any',
        }),
        frequency: 'Immediate',
      }),
    ])

    // Edited: a daily digest at 09:00 in the browser's zone, the threshold raised.
    await row.getByRole('button', { name: 'Edit Payments' }).click()
    const edit = page.getByRole('form', { name: 'Edit "Payments"' })
    await edit.getByLabel('Impact at least (money)').fill('250')
    await edit.getByRole('radio', { name: 'Daily digest' }).check()
    await edit.getByLabel('At', { exact: true }).selectOption('9')
    const zone = await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone')
    expect(await edit.getByLabel('Time zone').inputValue()).toBe(zone)
    await edit.getByRole('button', { name: 'Save the rule' }).click()
    await edit.waitFor({ state: 'detached' })
    await row.getByText('Anomalies over 250 or over 50%').waitFor()
    await row.getByText(`Daily at 09:00 ${zone}`).waitFor()
    await page.screenshot({ path: '/work/shots/notifications-rules-1280.png', fullPage: true })

    await row.getByRole('button', { name: 'Delete Payments' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete the rule "Payments"?' })
    await dialog.getByRole('button', { name: 'Delete the rule' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByText('No rules yet.').waitFor()
    expect(problems).toEqual([])
  })

  it('shows a Viewer the rules of their tenancy, and no channel management', async () => {
    const channels = await t.request('GET', `${API_PREFIX}/notification-channels`, org.ownerKey)
    const rule = await t.request('POST', `${API_PREFIX}/notification-rules`, org.ownerKey, {
      name: 'Payments estate watch',
      channelIds: [channels.json().items[0].id],
      scope: { tenancyIds: [shopId] },
      trigger: { type: 'AnomalyRaised', minImpactPercent: 50 },
    })
    expect(rule.statusCode, rule.body).toBe(201)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await browser.signIn(page, VIEWER, MEMBER_PASSWORD)
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click()
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor()
    await page.getByRole('heading', { name: 'Rules' }).waitFor()
    expect(await page.getByRole('heading', { name: 'Channels' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Add a channel' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'New rule' }).count()).toBe(0)
    const row = page.getByRole('row', { name: /Payments estate watch/ })
    await row.getByText('Anomalies over 50%').waitFor()
    await row.getByText('1 channel', { exact: true }).waitFor()
    expect(await row.getByRole('button').count()).toBe(0)
    const tabs = page.getByRole('navigation', { name: 'Settings pages' }).getByRole('link')
    expect(await tabs.allTextContents()).toEqual(['Notifications'])
    await page.screenshot({ path: '/work/shots/notifications-viewer-1280.png', fullPage: true })
    expect(problems).toEqual([])
  })

  it("lets a tenancy's Admin choose among the owners' channels for a rule of their tenancy", async () => {
    const promoted = await t.request('PUT', `${API_PREFIX}/tenancies/${shopId}/users/${viewerId}`, org.ownerKey, {
      role: 'Admin',
    })
    expect(promoted.statusCode, promoted.body).toBe(200)
    await page.reload()
    await page.getByRole('button', { name: 'New rule' }).click()
    const form = page.getByRole('form', { name: 'New rule' })
    await form.getByText('Owners add and change channels; choose among them here.').waitFor()
    await form.getByLabel('Name').fill('Payments on-call')
    await form.getByRole('checkbox', { name: /On-call/ }).check()
    await form.getByRole('checkbox', { name: 'Payments estate' }).check()
    await form.getByLabel('Impact at least (percent)').fill('40')
    await form.getByRole('button', { name: 'Create the rule' }).click()
    await form.waitFor({ state: 'detached' })
    await page
      .getByRole('row', { name: /Payments on-call/ })
      .getByText('On-call', { exact: true })
      .waitFor()
    const rules = await t.request('GET', `${API_PREFIX}/notification-rules`, org.ownerKey)
    const made = rules.json().items.find((r: { name: string }) => r.name === 'Payments on-call')
    expect(made).toMatchObject({ scope: { tenancyIds: [shopId] }, trigger: { minImpactPercent: 40 } })
    // Channels stay the owners' to change.
    expect(await page.getByRole('button', { name: 'Add a channel' }).count()).toBe(0)
    await page.screenshot({ path: '/work/shots/notifications-admin-rule-1280.png', fullPage: true })
    expect(problems).toEqual([])
  })
})
