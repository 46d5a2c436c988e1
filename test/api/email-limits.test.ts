import { beforeAll, describe, expect, it } from 'vitest'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
const APP = '/api/app'
const BEFORE_AT = 'must have at most 64 characters before the @ (RFC 5321)'
const TOO_LONG = 'must be at most 254 characters (RFC 5321)'
/** A domain of `length` characters: labels of 60 letters between dots, then `.test`. */
const domainOf = (length: number) =>
  `${Array.from({ length: length - 6 }, (_, i) => (i % 61 === 60 ? '.' : 'd')).join('')}d.test`

/** Addresses past RFC 5321's limits are refused with a precise 400 wherever an address is taken, changing nothing. */
for (const dialect of testDialects()) {
  describe(`${dialect}: e-mail addresses within RFC 5321's limits`, () => {
    const t = useTestApp({ dialect })
    let org: OrgContext
    const counts = async () => ({
      users: (await t.db.kysely.selectFrom('users').select('id').execute()).length,
      mail: (await t.db.kysely.selectFrom('mailOutbox').select('id').execute()).length,
    })

    beforeAll(async () => {
      org = await t.given.organisation('Limits Ltd')
    })

    it('an invitation to a local part over 64 characters, or an address over 254, is a 400 that says which', async () => {
      const before = await counts()
      const longLocal = await t.request('POST', `${API}/users`, org.ownerKey, {
        email: `${'x'.repeat(300)}@example.com`,
      })
      expect(longLocal.statusCode, longLocal.body).toBe(400)
      expect(longLocal.json().type).toBe('/problems/validation')
      const local65 = await t.request('POST', `${API}/users`, org.ownerKey, { email: `${'x'.repeat(65)}@example.com` })
      expect(local65.statusCode, local65.body).toBe(400)
      expect(local65.json().errors).toEqual({ email: [BEFORE_AT] })
      const long = `${'y'.repeat(60)}@${domainOf(194)}`
      expect(long.length).toBe(255)
      const tooLong = await t.request('POST', `${API}/users`, org.ownerKey, { email: long })
      expect(tooLong.statusCode, tooLong.body).toBe(400)
      expect(await counts()).toEqual(before)
      // At the limits exactly: accepted.
      const atLimits = `${'z'.repeat(64)}@${domainOf(189)}`
      expect(atLimits.length).toBe(254)
      const ok = await t.request('POST', `${API}/users`, org.ownerKey, { email: atLimits })
      expect(ok.statusCode, ok.body).toBe(202)
    })

    it('sign-in and password reset refuse such addresses the same way, before any lookup', async () => {
      for (const email of [`${'x'.repeat(65)}@example.com`, `${'x'.repeat(300)}@example.com`]) {
        const signIn = await t.app.inject({
          method: 'POST',
          url: `${APP}/session`,
          payload: { email, password: 'a long enough passphrase' },
        })
        expect(signIn.statusCode, signIn.body).toBe(400)
        expect(signIn.json().type).toBe('/problems/validation')
        const reset = await t.app.inject({ method: 'POST', url: `${APP}/password-reset`, payload: { email } })
        expect(reset.statusCode, reset.body).toBe(400)
      }
      const signIn = await t.app.inject({
        method: 'POST',
        url: `${APP}/session`,
        payload: { email: `${'x'.repeat(65)}@example.com`, password: 'a long enough passphrase' },
      })
      expect(signIn.json().errors).toEqual({ email: [BEFORE_AT] })
    })

    it('an organisation owner (org create) follows the same limits', async () => {
      await expect(
        t.services.organisations.create({ name: 'Too Long', ownerEmail: `${'x'.repeat(65)}@example.com` }),
      ).rejects.toMatchObject({ status: 400, more: { errors: { ownerEmail: [BEFORE_AT] } } })
      await expect(
        t.services.organisations.create({ name: 'Too Long', ownerEmail: `a@${domainOf(253)}` }),
      ).rejects.toMatchObject({ status: 400, more: { errors: { ownerEmail: [TOO_LONG] } } })
    })
  })
}
