import { beforeAll, describe, expect, it } from 'vitest'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { activeMember, asBrowser, signIn } from '../support/members.js'

const API = '/api/public/v1'
const APP = '/api/app'

/** Disabling a user, or taking their owner role, ends their sessions in the same change: none comes back. */
for (const dialect of testDialects()) {
  describe(`${dialect}: a change of a user's access ends their sessions`, () => {
    const t = useTestApp({ dialect })
    let org: OrgContext
    const patchUser = async (userId: string, body: object) => {
      const res = await t.request('PATCH', `${API}/users/${userId}`, org.ownerKey, body)
      expect(res.statusCode, res.body).toBe(200)
    }
    const sessionsOf = async (userId: string) =>
      (await t.db.kysely.selectFrom('sessions').select('userId').where('userId', '=', userId).execute()).length

    beforeAll(async () => {
      org = await t.given.organisation('Leavers Ltd')
    })

    it('re-enabling a disabled user does not bring their old session back', async () => {
      const user = await activeMember(t, org, 'leaver@leavers.test')
      const browser = await signIn(t, user.email)
      expect((await asBrowser(t, browser, 'GET', `${APP}/session`)).statusCode).toBe(200)
      await patchUser(user.id, { isDisabled: true })
      expect(await sessionsOf(user.id)).toBe(0)
      await patchUser(user.id, { isDisabled: false })
      expect((await asBrowser(t, browser, 'GET', `${APP}/session`)).statusCode).toBe(401)
      expect((await asBrowser(t, browser, 'GET', `${APP}/tenants`)).statusCode).toBe(401)
      // Signing in again works.
      expect((await asBrowser(t, await signIn(t, user.email), 'GET', `${APP}/session`)).statusCode).toBe(200)
    })

    it("removing a user's owner role ends their sessions; giving it back revives none", async () => {
      const user = await activeMember(t, org, 'stepped-down@leavers.test', { owner: true })
      const browser = await signIn(t, user.email)
      expect((await asBrowser(t, browser, 'GET', `${APP}/users`)).statusCode).toBe(200)
      await patchUser(user.id, { isOwner: false })
      expect(await sessionsOf(user.id)).toBe(0)
      await patchUser(user.id, { isOwner: true })
      expect((await asBrowser(t, browser, 'GET', `${APP}/users`)).statusCode).toBe(401)
    })

    it('other changes (a new name, an owner made) keep the sessions', async () => {
      const user = await activeMember(t, org, 'stays@leavers.test')
      const browser = await signIn(t, user.email)
      await patchUser(user.id, { displayName: 'Still Here' })
      await patchUser(user.id, { isOwner: true })
      expect((await asBrowser(t, browser, 'GET', `${APP}/users`)).statusCode).toBe(200)
      expect(await sessionsOf(user.id)).toBe(1)
    })
  })
}
