import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '../../src/app.js'
import type { OrgContext } from '../support/app.js'
import { focusLandsOn, noHorizontalScroll, TEST_PASSWORD, useBrowserApp } from '../support/browser.js'
import { createTestSmtpServer } from '../support/smtp.js'

/**
 * Settings in a real browser: an owner's first password through the e-mailed reset link, API keys made and
 * revoked in the page, a user invited who accepts through the e-mailed link and signs in, the audit log.
 * The mail goes through the real outbox to a real local SMTP server.
 */

const smtp = createTestSmtpServer()
await smtp.start()
afterAll(() => smtp.stop())
const { t, base, problems, ...browser } = await useBrowserApp({ env: { COSTWATCH_SMTP_URL: smtp.url } })

const INVITEE = 'riley.shaw@example.test'
const INVITEE_PASSWORD = 'a different long passphrase'

async function deliverMail() {
  const worker = t.worker()
  while (await worker.runOnce()) {}
}

/** The address of the link of the last e-mail to `email`, on this app. */
function linkTo(email: string, page: 'invite' | 'reset-password'): string {
  const mail = smtp.received.filter((m) => m.to.includes(email)).at(-1)
  expect(mail, `an e-mail to ${email}`).toBeDefined()
  const link = new RegExp(`${base.replace(/\./g, '\\.')}/${page}/[A-Za-z0-9_-]+`).exec(mail!.text)?.[0]
  expect(link, mail!.text).toBeTruthy()
  return link!
}

describe('settings', () => {
  let org: OrgContext
  let ownerEmail: string
  let tenantId: string
  let page: Page

  beforeAll(async () => {
    org = await t.given.organisation('Settings Org')
    ownerEmail = org.owner.actor.name ?? ''
    tenantId = (await t.given.tenant(org, { name: 'Production estate' })).id
    await t.given.tenant(org, { name: 'Staging estate' })
    await browser.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base })
    page = await browser.newPage()
  }, 60_000)

  it('sets the first password from the e-mailed link, then makes an API key, shows it once and revokes it', async () => {
    // The owner was made without a password: "Forgot password?" sends the link to set the first one.
    await page.goto(`${base}/`)
    await page.getByLabel('E-mail address').fill(ownerEmail)
    await page.getByRole('button', { name: 'Forgot password?' }).click()
    await page.getByRole('status').filter({ hasText: 'on its way' }).waitFor()
    await deliverMail()
    await page.goto(linkTo(ownerEmail, 'reset-password'))
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor()
    await page.screenshot({ path: '/work/shots/settings-reset-1280.png' })
    await page.getByLabel(/New password/).fill(TEST_PASSWORD)
    await page.getByLabel('The password again').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Set the password' }).click()
    await page.getByRole('heading', { name: 'Your password is set' }).waitFor()
    await page.getByRole('link', { name: 'Sign in to Costwatch' }).click()
    await browser.signIn(page, ownerEmail, TEST_PASSWORD)

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click()
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor()
    await page.getByLabel('Name').fill('Deployment pipeline')
    await page.getByLabel('Only the tenancies chosen below').check()
    await page.getByRole('combobox', { name: 'Production estate' }).selectOption('Viewer')
    await page.getByRole('button', { name: 'Create key' }).click()

    const secretField = page.getByLabel('The API key')
    await secretField.waitFor()
    const secret = await secretField.inputValue()
    expect(secret).toMatch(/^cw_[A-Za-z0-9]{46}$/)
    await page.getByRole('button', { name: 'Copy' }).click()
    await page.getByText('Copied to the clipboard.').waitFor()
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret)
    // Held by the page alone: not in the address, not in the browser's storage.
    const kept = await page.evaluate(`JSON.stringify([location.href, { ...localStorage }, { ...sessionStorage }])`)
    expect(kept).not.toContain(secret.slice(3))
    await page.screenshot({ path: '/work/shots/settings-keys-secret-1280.png', fullPage: true })

    const used = await fetch(`${base}${API_PREFIX}/organisation`, { headers: { 'X-Api-Key': secret } })
    expect(used.status).toBe(200)

    await page.getByRole('button', { name: 'Done, I have saved it' }).click()
    await secretField.waitFor({ state: 'detached' })
    expect(await page.content()).not.toContain(secret.slice(3))
    const row = page.getByRole('row', { name: /Deployment pipeline/ })
    await row.getByText('Production estate: Viewer').waitFor()
    await row.getByText(`${secret.slice(0, 10)}…`).waitFor()
    // Who made each key: the owner (whose rights bound it), or the command line (`org create`'s first key).
    await row.getByText(`by ${ownerEmail}`).waitFor()
    await page
      .getByRole('row', { name: /Owner key/ })
      .getByText('on the command line')
      .waitFor()
    await page.screenshot({ path: '/work/shots/settings-keys-1280.png', fullPage: true })

    // Revoking asks first, by keyboard: Escape keeps the key, the confirmation revokes it.
    const revoke = page.getByRole('button', { name: 'Revoke Deployment pipeline' })
    await revoke.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Revoke "Deployment pipeline"?' })
    await dialog.waitFor()
    await focusLandsOn(page, 'Cancel')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    expect((await fetch(`${base}${API_PREFIX}/organisation`, { headers: { 'X-Api-Key': secret } })).status).toBe(200)
    await revoke.focus()
    await page.keyboard.press('Enter')
    await dialog.waitFor()
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await dialog.waitFor({ state: 'hidden' })
    await row.getByText(/^Revoked/).waitFor()
    expect((await fetch(`${base}${API_PREFIX}/organisation`, { headers: { 'X-Api-Key': secret } })).status).toBe(401)

    await page.setViewportSize({ width: 390, height: 844 })
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/settings-keys-390.png', fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })
    expect(problems).toEqual([])
  })

  it('invites a user with a role, who accepts through the e-mailed link and signs in; the audit log tells it all', async () => {
    await page.getByRole('navigation', { name: 'Settings pages' }).getByRole('link', { name: 'Users' }).click()
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor()
    const invite = page.getByRole('form', { name: 'Invite someone' })
    await invite.getByLabel('E-mail address').fill(INVITEE)
    await invite.getByRole('combobox', { name: 'Production estate' }).selectOption('Editor')
    await invite.getByRole('button', { name: 'Send the invitation' }).click()
    await invite
      .getByRole('status')
      .filter({ hasText: `An invitation is on its way to ${INVITEE}` })
      .waitFor()
    const invitee = page.getByRole('listitem').filter({ hasText: INVITEE })
    await invitee.getByText('Production estate: Editor').waitFor()
    await invitee.getByText('Invited').waitFor()

    // The server's refusals, in words: the address is a member already; the last owner stays an owner.
    await invite.getByLabel('E-mail address').fill(INVITEE.toUpperCase())
    await invite.getByRole('button', { name: 'Send the invitation' }).click()
    expect(await invite.getByRole('alert').textContent()).toContain('already a member')
    const me = page.getByRole('listitem').filter({ hasText: ownerEmail })
    await me.getByRole('button', { name: `Manage ${ownerEmail}` }).click()
    await me.getByRole('button', { name: 'Remove owner' }).click()
    const demote = page.getByRole('dialog')
    await demote.getByRole('button', { name: 'Remove owner' }).click()
    expect(await demote.getByRole('alert').textContent()).toContain('last active owner')
    await demote.getByRole('button', { name: 'Cancel' }).click()
    await demote.waitFor({ state: 'hidden' })
    // The browser logs each refused request; these two were meant.
    const refused = 'Failed to load resource: the server responded with a status of 409 (Conflict)'
    expect(problems.splice(0)).toEqual([refused, refused])

    // A new link replaces the first: the invitation is accepted through the newest e-mail.
    await invitee.getByRole('button', { name: `Manage ${INVITEE}` }).click()
    await invitee.getByRole('button', { name: 'Resend the invitation' }).click()
    await invitee
      .getByRole('status')
      .filter({ hasText: `A new invitation is on its way to ${INVITEE}` })
      .waitFor()

    // The invitation e-mail's link, opened in the browser: a name and a password make the account active.
    await deliverMail()
    expect(smtp.received.filter((m) => m.to.includes(INVITEE))).toHaveLength(2)
    const invitation = await browser.newPage()
    await invitation.setViewportSize({ width: 390, height: 844 })
    await invitation.goto(linkTo(INVITEE, 'invite'))
    await invitation.getByRole('heading', { name: 'Accept your invitation' }).waitFor()
    await noHorizontalScroll(invitation)
    await invitation.screenshot({ path: '/work/shots/settings-invite-390.png', fullPage: true })
    await invitation.getByLabel('Your name').fill('Riley Shaw')
    // A refusal comes back as the form with the error under its field, tied to it for screen readers.
    await invitation.getByLabel(/^Password/).fill(INVITEE_PASSWORD)
    await invitation.getByLabel('The password again').fill(`${INVITEE_PASSWORD} typo`)
    await invitation.getByRole('button', { name: 'Accept the invitation' }).click()
    await invitation.getByText('does not match the password').waitFor()
    expect(await invitation.getByLabel('The password again').getAttribute('aria-describedby')).toBe(
      'passwordConfirmation-error',
    )
    expect(await invitation.getByLabel('Your name').inputValue()).toBe('Riley Shaw')
    expect(problems.splice(0)).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ])
    await invitation.getByLabel(/^Password/).fill(INVITEE_PASSWORD)
    await invitation.getByLabel('The password again').fill(INVITEE_PASSWORD)
    await invitation.getByRole('button', { name: 'Accept the invitation' }).click()
    await invitation.getByRole('heading', { name: 'Welcome to Costwatch' }).waitFor()
    await invitation.screenshot({ path: '/work/shots/settings-invite-done-390.png', fullPage: true })
    await invitation.close()

    const users = await t.request('GET', `${API_PREFIX}/users`, org.ownerKey)
    const accepted = users.json().items.find((u: { email: string }) => u.email === INVITEE)
    expect(accepted).toMatchObject({ displayName: 'Riley Shaw', status: 'Active', isOwner: false })
    const members = await t.request('GET', `${API_PREFIX}/tenancies/${tenantId}/users`, org.ownerKey)
    expect(members.json().items).toContainEqual(expect.objectContaining({ email: INVITEE, role: 'Editor' }))

    await page.reload()
    const riley = page.getByRole('listitem').filter({ hasText: 'Riley Shaw' })
    await riley.getByText('Active').waitFor()
    await page.screenshot({ path: '/work/shots/settings-users-1280.png', fullPage: true })

    // Roles per tenancy: one revoked, one granted, in one save.
    await riley.getByRole('button', { name: `Manage ${INVITEE}` }).click()
    await riley.getByRole('combobox', { name: 'Production estate' }).selectOption('')
    await riley.getByRole('combobox', { name: 'Staging estate' }).selectOption('Viewer')
    await riley.getByRole('button', { name: 'Save roles' }).click()
    await riley.getByRole('status').filter({ hasText: 'The roles are saved.' }).waitFor()
    await riley.getByText('Staging estate: Viewer').waitFor()
    const production = await t.request('GET', `${API_PREFIX}/tenancies/${tenantId}/users`, org.ownerKey)
    expect(production.json().items.map((m: { email: string }) => m.email)).not.toContain(INVITEE)
    await page.setViewportSize({ width: 390, height: 844 })
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/settings-users-390.png', fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })

    // Who did what, when and from where, newest first.
    await page.getByRole('link', { name: 'Audit log' }).click()
    const entries = page.getByRole('table', { name: 'Audit entries, newest first' })
    await entries.waitFor()
    const whats = await entries.locator('tbody tr th').allTextContents()
    expect(whats).toEqual([
      `Gave a tenancy roleRiley Shaw (${INVITEE}) · on Staging estate · role Viewer`,
      `Removed a tenancy roleRiley Shaw (${INVITEE}) · on Production estate · role Editor`,
      `Accepted the invitationRiley Shaw (${INVITEE})`,
      `Sent an invitation againRiley Shaw (${INVITEE})`,
      `Gave a tenancy roleRiley Shaw (${INVITEE}) · on Production estate · role Editor`,
      `Invited a userRiley Shaw (${INVITEE})`,
      'Revoked an API keykey "Deployment pipeline"',
      'Created an API keykey "Deployment pipeline" · scope tenancies',
      // The owner's first password, set through "Forgot password?", and the sign-in with it.
      `Signed in${ownerEmail}`,
      `Set a new password with a reset link${ownerEmail}`,
      `Asked for a password reset${ownerEmail}`,
      'Connected a tenanttenant "Staging estate" · credential ManagedIdentity',
      'Connected a tenanttenant "Production estate" · credential ManagedIdentity',
      'Created an API keykey "Owner key" · scope owner',
    ])
    const acceptance = entries.getByRole('row').filter({ hasText: 'Accepted the invitation' })
    expect(await acceptance.textContent()).toContain('127.0.0.1')
    expect(await entries.getByRole('row').filter({ hasText: 'Invited a user' }).textContent()).toContain(ownerEmail)
    await page.getByLabel('What').selectOption({ label: 'Revoked an API key' })
    await expect.poll(() => entries.locator('tbody tr').count()).toBe(1)
    await entries.getByText('Revoked an API key').waitFor()
    await page.getByLabel('What').selectOption({ label: 'Every change' })
    await page.screenshot({ path: '/work/shots/settings-audit-1280.png', fullPage: true })
    await page.setViewportSize({ width: 390, height: 844 })
    await noHorizontalScroll(page)
    await page.screenshot({ path: '/work/shots/settings-audit-390.png', fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })

    // The invitee signs in: their tenancy; of the settings, notifications alone, the others' addresses for owners only.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    await browser.signIn(page, INVITEE, INVITEE_PASSWORD)
    await page.getByRole('link', { name: /Staging estate/ }).waitFor()
    expect(await page.getByRole('link', { name: /Production estate/ }).count()).toBe(0)
    const settings = page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' })
    expect(await settings.getAttribute('href')).toBe('/settings/notifications')
    await page.goto(`${base}/settings/users`)
    await page.getByRole('heading', { name: 'For owners only' }).waitFor()
    expect(problems).toEqual([])
  })
})
