import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import { hashPassword } from '../../src/platform/auth/password.js'
import type { OrgContext, TestApp } from './app.js'

const API = '/api/public/v1'
const APP = '/api/app'
export const MEMBER_PASSWORD = 'a long enough passphrase'

/** A signed-in browser: its session cookie and CSRF token, sent as the web interface sends them. */
export interface Browser {
  cookie: string
  csrf: string
}

/**
 * A member who accepted their invitation, with a password: invited through the API, then made Active with a
 * password hash directly (the invitation's own flow has its tests), optionally an owner.
 */
export async function activeMember(
  t: TestApp,
  org: OrgContext,
  email: string,
  options: { owner?: boolean } = {},
): Promise<{ id: string; email: string }> {
  const invited = await t.request('POST', `${API}/users`, org.ownerKey, { email })
  expect(invited.statusCode, invited.body).toBe(202)
  const id: string = invited.json().id
  await t.db.kysely
    .updateTable('users')
    .set({ status: 'Active', displayName: `Member ${email}`, passwordHash: await hashPassword(MEMBER_PASSWORD) })
    .where('id', '=', id)
    .execute()
  if (options.owner) {
    const made = await t.request('PATCH', `${API}/users/${id}`, org.ownerKey, { isOwner: true })
    expect(made.statusCode, made.body).toBe(200)
  }
  return { id, email }
}

let signIns = 0

/** Signs in through the web interface's API, each time from an address of its own. */
export async function signIn(t: TestApp, email: string): Promise<Browser> {
  signIns++
  const res = await t.app.inject({
    method: 'POST',
    url: `${APP}/session`,
    payload: { email, password: MEMBER_PASSWORD },
    remoteAddress: `10.9.${signIns >> 8}.${signIns & 255}`,
  })
  expect(res.statusCode, res.body).toBe(200)
  return { cookie: res.cookies.find((c) => c.name === 'costwatch_session')!.value, csrf: res.json().csrfToken }
}

/** A request of the web interface's API, as the signed-in browser sends it. */
export function asBrowser(
  t: TestApp,
  browser: Browser,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    ...(body === undefined ? {} : { payload: body as object }),
    headers: { cookie: `costwatch_session=${browser.cookie}`, 'x-csrf-token': browser.csrf },
  })
}
