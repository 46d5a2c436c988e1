import { expect } from 'vitest'
import type { OrgContext, TestApp } from './app.js'
import { type SignedIn, signInOwner } from './members.js'

/**
 * The organisation's audit entries of one action, newest first, as its owner reads them in the web interface
 * (`GET /api/app/audit?action=`): the owner is given a password and signed in once per organisation.
 */
export function auditLogOf(t: TestApp, org: OrgContext): (action: string) => Promise<Record<string, unknown>[]> {
  let owner: SignedIn | undefined
  return async (action) => {
    owner ??= await signInOwner(t, org)
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/app/audit?action=${encodeURIComponent(action)}&pageSize=200`,
      cookies: { [owner.cookie.name]: owner.cookie.value },
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().items
  }
}
