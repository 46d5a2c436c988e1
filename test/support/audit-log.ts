import { expect } from 'vitest'
import { hashPassword } from '../../src/platform/auth/password.js'
import type { OrgContext, TestApp } from './app.js'

const PASSWORD = 'an owner passphrase for the audit log'

/**
 * The organisation's audit entries of one action, newest first, as its owner reads them in the web interface
 * (`GET /api/app/audit?action=`): the owner is given a password and signed in once per organisation.
 */
export function auditLogOf(t: TestApp, org: OrgContext): (action: string) => Promise<Record<string, unknown>[]> {
  let cookie: { name: string; value: string } | undefined
  return async (action) => {
    if (!cookie) {
      await t.db.kysely
        .updateTable('users')
        .set({ passwordHash: await hashPassword(PASSWORD) })
        .where('id', '=', org.ownerId)
        .execute()
      const signedIn = await t.app.inject({
        method: 'POST',
        url: '/api/app/session',
        payload: { email: org.owner.actor.name, password: PASSWORD },
      })
      expect(signedIn.statusCode, signedIn.body).toBe(200)
      // `__Host-costwatch_session` when the app's public URL is https.
      const set = signedIn.cookies.find((c) => c.name.endsWith('costwatch_session'))!
      cookie = { name: set.name, value: set.value }
    }
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/app/audit?action=${encodeURIComponent(action)}&pageSize=200`,
      cookies: { [cookie.name]: cookie.value },
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().items
  }
}
