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

/** Sets a user's password hash directly (the flows that choose a password have their own tests). */
export async function setPassword(t: TestApp, userId: string, password = MEMBER_PASSWORD): Promise<void> {
  await t.db.kysely
    .updateTable('users')
    .set({ passwordHash: await hashPassword(password) })
    .where('id', '=', userId)
    .execute()
}

/** A sign-in that succeeded: the answer, its session cookie and its CSRF token. */
export interface SignedIn {
  response: LightMyRequestResponse
  /** `__Host-costwatch_session` under an https public URL, `costwatch_session` otherwise. */
  cookie: { name: string; value: string }
  csrf: string
}

/** Signs in through the web interface's API (from the test client's address unless `remoteAddress` is given). */
export async function signInAs(
  t: TestApp,
  email: string,
  options: { password?: string; remoteAddress?: string } = {},
): Promise<SignedIn> {
  const response = await t.app.inject({
    method: 'POST',
    url: `${APP}/session`,
    payload: { email, password: options.password ?? MEMBER_PASSWORD },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  })
  expect(response.statusCode, response.body).toBe(200)
  const { name, value } = response.cookies.find((c) => c.name.endsWith('costwatch_session'))!
  return { response, cookie: { name, value }, csrf: response.json().csrfToken }
}

/** The organisation's owner, given a password and signed in. */
export async function signInOwner(t: TestApp, org: OrgContext): Promise<SignedIn> {
  await setPassword(t, org.ownerId)
  return signInAs(t, org.owner.actor.name!)
}

let signIns = 0

/** Signs in through the web interface's API, each time from an address of its own. */
export async function signIn(t: TestApp, email: string): Promise<Browser> {
  signIns++
  const { cookie, csrf } = await signInAs(t, email, { remoteAddress: `10.9.${signIns >> 8}.${signIns & 255}` })
  return { cookie: cookie.value, csrf }
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
