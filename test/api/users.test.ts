import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import type { UserRecord } from '../../src/features/users/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { createTestSmtpServer, type ReceivedMail, SMTP_PASSWORD } from '../support/smtp.js'
import { until } from '../support/worker.js'

const API = '/api/public/v1'
const PUBLIC_URL = 'https://costwatch.example.test'
const HTML = { accept: 'text/html,application/xhtml+xml' }
const FORM = { 'content-type': 'application/x-www-form-urlencoded', ...HTML }
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
const GOOD_PASSWORD = 'correct horse battery staple'

function expectProblem(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number) {
  expect(res.statusCode, res.body).toBe(status)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  return JSON.parse(res.body)
}

/** The invitation link of a delivered e-mail: in the text part, and the same in the HTML part. */
function linkOf(mail: ReceivedMail): { link: string; path: string; token: string } {
  const link = /https:\/\/costwatch\.example\.test\/invite\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0]
  expect(link, mail.text).toBeTruthy()
  expect(mail.html).toContain(`href="${link}"`)
  const path = new URL(link!).pathname
  return { link: link!, path, token: path.split('/').pop()! }
}

for (const dialect of testDialects()) {
  describe(`${dialect}: users and invitations`, () => {
    const smtp = createTestSmtpServer()
    const env: Record<string, string> = {
      COSTWATCH_PUBLIC_URL: PUBLIC_URL,
      COSTWATCH_SNAPSHOT_HOUR: '23', // no daily snapshots queued for the worker while these tests run it
      COSTWATCH_RATE_LIMIT: '100000',
    }
    // Before the app's own setup, which reads `env`: the server's port is known once it listens.
    beforeAll(async () => {
      await smtp.start()
      env.COSTWATCH_SMTP_URL = smtp.url
    })
    afterAll(() => smtp.stop())
    const t = useTestApp({ dialect, now: '2026-03-01T09:00:00.000Z', env })
    let org: OrgContext
    let tenantA: TenantRecord
    let tenantB: TenantRecord
    const keys = {} as Record<'viewerA' | 'adminA' | 'editorA', string>

    // biome-ignore lint/suspicious/noDuplicateTestHooks: the SMTP server's hook must run before the app's, this one after
    beforeAll(async () => {
      org = await t.given.organisation('People Ltd')
      tenantA = await t.given.tenant(org)
      tenantB = await t.given.tenant(org)
      keys.viewerA = (await t.given.key(org, [{ tenancyId: tenantA.id, role: 'Viewer' }])).apiKey
      keys.adminA = (
        await t.given.key(org, [{ tenancyId: tenantA.id, role: 'Admin' }], { name: 'tenancy A admin' })
      ).apiKey
      keys.editorA = (await t.given.key(org, [{ tenancyId: tenantA.id, role: 'Editor' }])).apiKey
    })

    const invite = (body: unknown, key = org.ownerKey) => t.request('POST', `${API}/users`, key, body)
    const invited = async (email: string, displayName?: string) => {
      const res = await invite({ email, ...(displayName ? { displayName } : {}) })
      expect(res.statusCode, res.body).toBe(202)
      return res.json() as UserRecord
    }
    /** Runs the worker until the queue is empty: the mail runs that are due. */
    const deliver = async () => {
      const worker = t.worker()
      let runs = 0
      while (await worker.runOnce()) runs++
      return runs
    }
    const mailTo = (email: string) =>
      smtp.received.filter((m) => m.to.some((to) => to.toLowerCase() === email.toLowerCase()))
    /** Invites, delivers, and accepts through the link: an Active member. */
    const activeMember = async (email: string) => {
      const user = await invited(email)
      await deliver()
      const { path } = linkOf(mailTo(email).at(-1)!)
      const res = await t.request('POST', path, null, form(accept('Member')), FORM)
      expect(res.statusCode, res.body).toBe(200)
      return user
    }
    const accept = (displayName: string, password = GOOD_PASSWORD, passwordConfirmation = password) => ({
      displayName,
      password,
      passwordConfirmation,
    })
    const patch = (userId: string, body: unknown, key = org.ownerKey) =>
      t.request('PATCH', `${API}/users/${userId}`, key, body)
    const auditOf = async () => t.services.audit.list({ organisationId: org.organisationId, limit: 1000 })

    describe('permissions', () => {
      it('a Viewer-scoped key gets 403 on every /users operation', async () => {
        const user = (await t.request('GET', `${API}/users/${org.ownerId}`, org.ownerKey)).json() as UserRecord
        for (const [method, url, body] of [
          ['GET', `${API}/users`],
          ['POST', `${API}/users`, { email: 'nobody@example.test' }],
          ['GET', `${API}/users/${user.id}`],
          ['PATCH', `${API}/users/${user.id}`, { displayName: 'X' }],
          ['POST', `${API}/users/${user.id}/invitation`],
        ] as const) {
          const res = await t.request(method, url, keys.viewerA, body)
          expect(expectProblem(res, 403).type, `${method} ${url}`).toBe('/problems/forbidden')
        }
        // A tenancy Admin is no owner either.
        expectProblem(await t.request('GET', `${API}/users`, keys.adminA), 403)
      })

      it("a tenancy Admin lists its tenancy's users, not another tenancy's (404); an Editor gets 403", async () => {
        const own = await t.request('GET', `${API}/tenancies/${tenantA.id}/users`, keys.adminA)
        expect(own.statusCode, own.body).toBe(200)
        expect(own.json().items).toContainEqual({
          userId: org.ownerId,
          email: expect.any(String),
          displayName: null,
          role: 'Admin',
          isOwner: true,
        })
        expectProblem(await t.request('GET', `${API}/tenancies/${tenantB.id}/users`, keys.adminA), 404)
        expectProblem(await t.request('GET', `${API}/tenancies/${tenantA.id}/users`, keys.editorA), 403)
      })

      it("another organisation's owner sees none of these users (404)", async () => {
        const stranger = await t.given.organisation('Stranger')
        expectProblem(await t.request('GET', `${API}/users/${org.ownerId}`, stranger.ownerKey), 404)
        expectProblem(await patch(org.ownerId, { isDisabled: true }, stranger.ownerKey), 404)
        const list = (await t.request('GET', `${API}/users`, stranger.ownerKey)).json()
        expect(list.items.map((u: UserRecord) => u.id)).toEqual([stranger.ownerId])
      })
    })

    describe('invite', () => {
      it('answers 202 with the Invited user and its Location, and the e-mail arrives with a single-use link', async () => {
        const res = await invite({ email: 'Jane.Doe@Example.COM', displayName: ' Jane ' })
        expect(res.statusCode, res.body).toBe(202)
        const user = res.json()
        expect(user).toEqual({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          email: 'Jane.Doe@Example.COM',
          displayName: 'Jane',
          isOwner: false,
          isDisabled: false,
          status: 'Invited',
          invitedAt: '2026-03-01T09:00:00.000Z',
          createdAt: '2026-03-01T09:00:00.000Z',
          lastSeenAt: null,
        })
        expect(res.headers.location).toBe(`${API}/users/${user.id}`)
        expect((await t.request('GET', `${API}/users/${user.id}`, org.ownerKey)).json()).toEqual(user)

        expect(await deliver()).toBe(1)
        const [mail] = mailTo('Jane.Doe@Example.COM')
        expect(mail).toBeDefined()
        expect(mail!.headers.subject).toBe('Your invitation to People Ltd on Costwatch')
        const { token } = linkOf(mail!)
        expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
        // The token is nowhere but in the e-mail: not in the database (a hash), the outbox (emptied) or the logs.
        const stored = await t.db.kysely.selectFrom('invitations').selectAll().where('userId', '=', user.id).execute()
        expect(stored).toHaveLength(1)
        expect(JSON.stringify(stored)).not.toContain(token)
        expect(stored[0]).toMatchObject({ expiresAt: '2026-03-08T09:00:00.000Z', usedAt: null })
        const outbox = await t.db.kysely.selectFrom('mailOutbox').selectAll().execute()
        expect(outbox.every((m) => m.status === 'Succeeded' && m.bodySealed === null)).toBe(true)
        expect(t.logs.join('')).not.toContain(token)
      })

      it('compares addresses case-insensitively: an existing member is a 409, and nothing is sent', async () => {
        await invited('sam@example.test')
        const sent = smtp.received.length
        for (const email of ['sam@example.test', 'SAM@Example.Test']) {
          const problem = expectProblem(await invite({ email }), 409)
          expect(problem.detail).toContain('already a member')
        }
        await deliver()
        expect(smtp.received.length).toBe(sent + 1) // Sam's one invitation
        const list = (await t.request('GET', `${API}/users?pageSize=200`, org.ownerKey)).json()
        expect(list.items.filter((u: UserRecord) => u.email.toLowerCase() === 'sam@example.test')).toHaveLength(1)
      })

      it('two invitations of one address at once (two spellings): one 202, one 409', async () => {
        const answers = await Promise.all([
          invite({ email: 'twice@example.test' }),
          invite({ email: 'TWICE@example.test' }),
        ])
        expect(answers.map((r) => r.statusCode).sort(), answers.map((r) => r.body).join('\n')).toEqual([202, 409])
      })

      it('the database refuses a second spelling of one address too', async () => {
        const existing = (await t.request('GET', `${API}/users/${org.ownerId}`, org.ownerKey)).json() as UserRecord
        await expect(
          t.services.userStore.insert({
            ...existing,
            id: '01900000-0000-7000-8000-0000000000aa',
            organisationId: org.organisationId,
            email: existing.email.toUpperCase(),
            isOwner: 0,
            isDisabled: 0,
          }),
        ).rejects.toThrow()
      })

      it('refuses bad addresses and bodies with a 400, changing nothing', async () => {
        const before = (await t.request('GET', `${API}/users`, org.ownerKey)).json().totalCount
        for (const body of [
          { email: 'not-an-address' },
          { email: 'a@b' },
          { email: '' },
          {},
          { email: 'x@example.test', role: 'Admin' },
          { email: 'x@example.test', displayName: 'n'.repeat(201) },
        ]) {
          expectProblem(await invite(body), 400)
        }
        expectProblem(
          await t.request('POST', `${API}/users`, org.ownerKey, 'email=x', { 'content-type': 'text/plain' }),
          415,
        )
        expect((await t.request('GET', `${API}/users`, org.ownerKey)).json().totalCount).toBe(before)
      })
    })

    describe('accepting an invitation', () => {
      it('link -> form -> name and password -> Active; the link then no longer works', async () => {
        const user = await invited('kim@example.test')
        await deliver()
        const { path, token } = linkOf(mailTo('kim@example.test')[0]!)

        const page = await t.request('GET', path, null, undefined, HTML)
        expect(page.statusCode, page.body).toBe(200)
        expect(page.headers['content-type']).toMatch(/^text\/html/)
        expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/)
        expect(page.headers['content-security-policy']).toMatch(/form-action 'self'/)
        expect(page.headers['content-security-policy']).not.toMatch(/script-src|unsafe/)
        expect(page.headers['referrer-policy']).toBe('no-referrer')
        expect(page.headers['cache-control']).toBe('no-store')
        expect(page.body).toContain('kim@example.test')
        expect(page.body).toMatch(/<form method="post">/)
        expect(page.body).not.toContain('<script')
        expect(page.body).not.toContain(token)

        // Bad forms: 400, the form again with the reasons, nothing used up.
        for (const [fields, field] of [
          [accept('Kim', 'too short'), 'password'],
          [accept('Kim', GOOD_PASSWORD, `${GOOD_PASSWORD}!`), 'passwordConfirmation'],
          [accept('   '), 'displayName'],
        ] as const) {
          const res = await t.request('POST', path, null, form(fields), FORM)
          expect(res.statusCode, res.body).toBe(400)
          expect(res.headers['content-type']).toMatch(/^text\/html/)
          expect(res.body).toContain(`id="${field}-error"`)
          expect(res.body).not.toContain(fields.password)
        }
        const json = await t.request('POST', path, null, form(accept('Kim', 'short')), {
          'content-type': 'application/x-www-form-urlencoded',
        })
        expect(expectProblem(json, 400).errors).toEqual({ password: ['must be at least 12 characters'] })
        expect((await t.request('GET', `${API}/users/${user.id}`, org.ownerKey)).json().status).toBe('Invited')

        const done = await t.request('POST', path, null, form(accept('  Kim Lee ')), FORM)
        expect(done.statusCode, done.body).toBe(200)
        expect(done.body).toContain('is active')
        const active = (await t.request('GET', `${API}/users/${user.id}`, org.ownerKey)).json()
        expect(active).toMatchObject({ status: 'Active', displayName: 'Kim Lee', isDisabled: false })

        const row = await t.db.kysely
          .selectFrom('users')
          .select('passwordHash')
          .where('id', '=', user.id)
          .executeTakeFirst()
        expect(row?.passwordHash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[^$]+\$[^$]+$/)
        expect(row?.passwordHash).not.toContain(GOOD_PASSWORD)

        // Used: a clear page for a browser, a 410 problem for any other client; the second try changes nothing.
        const again = await t.request('GET', path, null, undefined, HTML)
        expect(again.statusCode).toBe(410)
        expect(again.body).toContain('This invitation link no longer works')
        const reuse = expectProblem(
          await t.request('POST', path, null, form(accept('Mallory')), {
            'content-type': 'application/x-www-form-urlencoded',
          }),
          410,
        )
        expect(reuse.type).toBe('/problems/invitation-used')
        expect(reuse.instance).toBe('/invite/{token}')
        expect(JSON.stringify(reuse)).not.toContain(token)
        expect((await t.request('GET', `${API}/users/${user.id}`, org.ownerKey)).json().displayName).toBe('Kim Lee')
        // Neither the password nor the token nor the hash reached a log line.
        const logs = t.logs.join('')
        for (const secret of [GOOD_PASSWORD, token, row!.passwordHash!]) expect(logs).not.toContain(secret)
        expect(logs).toContain('/invite/[redacted]')
      })

      it('two acceptances racing with one link: one succeeds', async () => {
        await invited('race@example.test')
        await deliver()
        const { path } = linkOf(mailTo('race@example.test')[0]!)
        const answers = await Promise.all(
          ['First', 'Second'].map((name) =>
            t.request('POST', path, null, form(accept(name)), { 'content-type': 'application/x-www-form-urlencoded' }),
          ),
        )
        expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 410])
      })

      it('a link expires after 7 days', async () => {
        await invited('late@example.test')
        await deliver()
        const { path } = linkOf(mailTo('late@example.test')[0]!)
        t.clock.advance(7 * 24 * 3_600_000)
        try {
          const page = await t.request('GET', path, null, undefined, HTML)
          expect(page.statusCode).toBe(410)
          expect(page.body).toContain('This invitation has expired')
          expect(
            expectProblem(
              await t.request('POST', path, null, form(accept('Late')), {
                'content-type': 'application/x-www-form-urlencoded',
              }),
              410,
            ).type,
          ).toBe('/problems/invitation-expired')
        } finally {
          t.clock.set('2026-03-01T09:00:00.000Z')
        }
      })

      it('an unknown or malformed link is a 404 page', async () => {
        for (const path of ['/invite/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/invite/short']) {
          const res = await t.request('GET', path, null, undefined, HTML)
          expect(res.statusCode).toBe(404)
          expect(res.body).toContain('This invitation link is not valid')
        }
      })

      it('a new invitation replaces the old link; an Active user gets no new one (409)', async () => {
        const user = await invited('again@example.test')
        await deliver()
        const first = linkOf(mailTo('again@example.test')[0]!)
        t.clock.advance(60_000)
        try {
          const res = await t.request('POST', `${API}/users/${user.id}/invitation`, org.ownerKey)
          expect(res.statusCode, res.body).toBe(202)
          expect(res.json()).toMatchObject({ status: 'Invited', invitedAt: '2026-03-01T09:01:00.000Z' })
          await deliver()
          const second = linkOf(mailTo('again@example.test')[1]!)
          expect(second.token).not.toBe(first.token)
          expect((await t.request('GET', first.path, null, undefined, HTML)).statusCode).toBe(410)
          expect((await t.request('POST', second.path, null, form(accept('Again')), FORM)).statusCode).toBe(200)
          expectProblem(await t.request('POST', `${API}/users/${user.id}/invitation`, org.ownerKey), 409)
        } finally {
          t.clock.set('2026-03-01T09:00:00.000Z')
        }
      })

      it('a disabled invitee cannot accept', async () => {
        const user = await invited('blocked@example.test')
        await deliver()
        const { path } = linkOf(mailTo('blocked@example.test')[0]!)
        expect((await patch(user.id, { isDisabled: true })).json()).toMatchObject({
          status: 'Disabled',
          isDisabled: true,
        })
        expect((await t.request('POST', path, null, form(accept('Blocked')), FORM)).statusCode).toBe(410)
        expect((await patch(user.id, { isDisabled: false })).json()).toMatchObject({
          status: 'Invited',
          isDisabled: false,
        })
      })
    })

    describe('the mail outbox', () => {
      it('an SMTP outage delays the e-mail, never fails the invitation, and it arrives once, exactly once', async () => {
        await smtp.stop()
        let user: UserRecord
        try {
          user = await invited('outage@example.test')
          expect(await deliver()).toBe(1) // one attempt, refused by the missing server
          const [run] = await t.db.kysely
            .selectFrom('mailOutbox')
            .selectAll()
            .where('recipient', '=', 'outage@example.test')
            .execute()
          expect(run).toMatchObject({ status: 'Queued', attempts: 1, notBefore: '2026-03-01T09:00:30.000Z' })
          expect(run!.bodySealed).not.toBeNull()
          expect(run!.progress).toContain('smtp_failed')
          expect(await deliver()).toBe(0) // not before its backoff
        } finally {
          await smtp.start()
        }
        try {
          t.clock.advance(29_000)
          expect(await deliver()).toBe(0)
          expect(mailTo('outage@example.test')).toHaveLength(0)
          t.clock.advance(1_000)
          expect(await deliver()).toBe(1)
          expect(await deliver()).toBe(0)
          expect(mailTo('outage@example.test')).toHaveLength(1)
          const [run] = await t.db.kysely
            .selectFrom('mailOutbox')
            .selectAll()
            .where('recipient', '=', 'outage@example.test')
            .execute()
          expect(run).toMatchObject({ status: 'Succeeded', attempts: 2, bodySealed: null })
          // The link works once the mail is in.
          const { path } = linkOf(mailTo('outage@example.test')[0]!)
          expect((await t.request('POST', path, null, form(accept('Patient')), FORM)).statusCode).toBe(200)
          expect((await t.request('GET', `${API}/users/${user!.id}`, org.ownerKey)).json().status).toBe('Active')
        } finally {
          t.clock.set('2026-03-01T09:00:00.000Z')
        }
        const logs = t.logs.join('')
        expect(logs).toContain('ECONNREFUSED')
        expect(logs).not.toContain(SMTP_PASSWORD)
      })
    })

    describe('owners', () => {
      it('the last active owner can be neither demoted nor disabled (409)', async () => {
        expect(expectProblem(await patch(org.ownerId, { isOwner: false }), 409).detail).toContain('last active owner')
        expectProblem(await patch(org.ownerId, { isDisabled: true }), 409)
        // An invited owner does not count: they cannot manage anything yet.
        const pending = await invited('pending-owner@example.test')
        expect((await patch(pending.id, { isOwner: true })).json()).toMatchObject({ isOwner: true, status: 'Invited' })
        expectProblem(await patch(org.ownerId, { isOwner: false }), 409)
        expect((await patch(pending.id, { isOwner: false })).statusCode).toBe(200)
        // No-op changes of the last owner are fine.
        const same = await patch(org.ownerId, { isOwner: true, isDisabled: false, displayName: 'First Owner' })
        expect(same.statusCode, same.body).toBe(200)
        expect(same.json()).toMatchObject({ isOwner: true, isDisabled: false, displayName: 'First Owner' })
      })

      it('with a second active owner, one may step down; then the other is the last', async () => {
        const second = await activeMember('second-owner@example.test')
        expect((await patch(second.id, { isOwner: true })).json()).toMatchObject({ isOwner: true, status: 'Active' })
        expect((await patch(org.ownerId, { isOwner: false })).json()).toMatchObject({ isOwner: false })
        expectProblem(await patch(second.id, { isDisabled: true }), 409)
        expect((await patch(org.ownerId, { isOwner: true })).statusCode).toBe(200)
        expect((await patch(second.id, { isOwner: false })).statusCode).toBe(200)
      })

      it('two requests demoting or disabling the last two owners at once: exactly one succeeds', async () => {
        const other = await activeMember('co-owner@example.test')
        for (const [a, b] of [
          [{ isOwner: false }, { isOwner: false }],
          [{ isDisabled: true }, { isOwner: false }],
          [{ isDisabled: true }, { isDisabled: true }],
        ]) {
          expect((await patch(other.id, { isOwner: true, isDisabled: false })).statusCode).toBe(200)
          const answers = await Promise.all([patch(org.ownerId, a), patch(other.id, b)])
          expect(answers.map((r) => r.statusCode).sort(), answers.map((r) => r.body).join('\n')).toEqual([200, 409])
          const owners = (
            (await t.request('GET', `${API}/users?pageSize=200`, org.ownerKey)).json().items as UserRecord[]
          ).filter((u) => u.isOwner && u.status === 'Active')
          expect(owners).toHaveLength(1)
          // Back to the first owner alone, enabled.
          await patch(org.ownerId, { isOwner: true, isDisabled: false })
          await patch(other.id, { isOwner: false, isDisabled: false })
        }
      })

      // SQLite has one writer: in one process Kysely runs one transaction at a time, and across processes the
      // transaction's first statement (a write) takes the write lock before anything is read.
      if (dialect === 'postgres')
        it('PostgreSQL: two demotions held at the same instant still leave one owner (the organisation lock)', async () => {
          const other = await activeMember('held@example.test')
          expect((await patch(other.id, { isOwner: true })).statusCode).toBe(200)
          // Another connection holds the organisation's and both users' rows, so both requests are in flight
          // and waiting together; once it lets go, only the organisation lock orders them.
          const blocker = new pg.Client({ connectionString: t.databaseUrl })
          await blocker.connect()
          try {
            await blocker.query('begin')
            await blocker.query('select 1 from organisations where id = $1 for update', [org.organisationId])
            await blocker.query('select 1 from users where id = any($1) for update', [[org.ownerId, other.id]])
            const answers = Promise.all([patch(org.ownerId, { isOwner: false }), patch(other.id, { isOwner: false })])
            await until('both requests to wait for a lock', async () => {
              const { rows } = await blocker.query(
                "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
              )
              return rows[0].n >= 2
            })
            await blocker.query('commit')
            expect((await answers).map((r) => r.statusCode).sort()).toEqual([200, 409])
          } finally {
            await blocker.end()
          }
          await patch(org.ownerId, { isOwner: true })
          await patch(other.id, { isOwner: false })
        })

      it('disabling and enabling shows in the record', async () => {
        const member = await activeMember('toggle@example.test')
        expect((await patch(member.id, { isDisabled: true })).json()).toMatchObject({
          isDisabled: true,
          status: 'Disabled',
        })
        expect((await patch(member.id, { isDisabled: false })).json()).toMatchObject({
          isDisabled: false,
          status: 'Active',
        })
        expectProblem(await patch(member.id, { displayName: '   ' }), 400)
        expectProblem(await patch(member.id, { isOwner: 'yes' }), 400)
        expectProblem(await patch('01900000-0000-7000-8000-00000000dead', { isOwner: true }), 404)
      })
    })

    describe('tenancy roles', () => {
      it('PUT grants or changes a role, DELETE removes it; the tenancy lists its users', async () => {
        const member = await invited('roles@example.test')
        const url = `${API}/tenancies/${tenantA.id}/users/${member.id}`
        const granted = await t.request('PUT', url, org.ownerKey, { role: 'Viewer' })
        expect(granted.statusCode, granted.body).toBe(200)
        expect(granted.json()).toEqual({
          userId: member.id,
          email: 'roles@example.test',
          displayName: null,
          role: 'Viewer',
          isOwner: false,
        })
        // The tenancy's Admin may change it; the same role again is no change.
        expect((await t.request('PUT', url, keys.adminA, { role: 'Editor' })).json().role).toBe('Editor')
        expect((await t.request('PUT', url, keys.adminA, { role: 'Editor' })).statusCode).toBe(200)
        const listed = (await t.request('GET', `${API}/tenancies/${tenantA.id}/users?pageSize=200`, keys.adminA)).json()
        expect(listed.items).toContainEqual(expect.objectContaining({ userId: member.id, role: 'Editor' }))
        const elsewhere = (
          await t.request('GET', `${API}/tenancies/${tenantB.id}/users?pageSize=200`, org.ownerKey)
        ).json()
        expect(elsewhere.items.map((u: { userId: string }) => u.userId)).not.toContain(member.id)

        expectProblem(await t.request('PUT', url, keys.editorA, { role: 'Admin' }), 403)
        expectProblem(
          await t.request('PUT', `${API}/tenancies/${tenantB.id}/users/${member.id}`, keys.adminA, { role: 'Admin' }),
          404,
        )
        expectProblem(await t.request('PUT', url, org.ownerKey, { role: 'Owner' }), 400)
        expectProblem(await t.request('PUT', url, org.ownerKey, {}), 400)
        const stranger = await t.given.organisation('Elsewhere')
        expectProblem(
          await t.request('PUT', `${API}/tenancies/${tenantA.id}/users/${stranger.ownerId}`, org.ownerKey, {
            role: 'Viewer',
          }),
          404,
        )

        expect((await t.request('DELETE', url, keys.adminA)).statusCode).toBe(204)
        expect((await t.request('DELETE', url, keys.adminA)).statusCode).toBe(204) // nothing left to remove
        const after = (await t.request('GET', `${API}/tenancies/${tenantA.id}/users?pageSize=200`, keys.adminA)).json()
        expect(after.items.map((u: { userId: string }) => u.userId)).not.toContain(member.id)
        expectProblem(await t.request('DELETE', url, keys.editorA), 403)
      })

      it("a member's principal carries their roles; a disabled member has none", async () => {
        const member = await activeMember('principal@example.test')
        await t.request('PUT', `${API}/tenancies/${tenantB.id}/users/${member.id}`, org.ownerKey, { role: 'Editor' })
        const who = await t.services.users.principalOf(member.id)
        expect(who).toMatchObject({
          organisationId: org.organisationId,
          isOwner: false,
          actor: { type: 'User', id: member.id },
        })
        expect([...who!.tenancyRoles]).toEqual([[tenantB.id, 'Editor']])
        await patch(member.id, { isDisabled: true })
        expect(await t.services.users.principalOf(member.id)).toBeNull()
        expect(await t.services.users.principalOf((await invited('notyet@example.test')).id)).toBeNull()
      })
    })

    describe('lists', () => {
      it('pages users by address with id last, and the Link header', async () => {
        const all = (await t.request('GET', `${API}/users?pageSize=200`, org.ownerKey)).json()
        expect(all.totalCount).toBeGreaterThan(5)
        const emails = all.items.map((u: UserRecord) => u.email.toLowerCase())
        expect(emails).toEqual([...emails].sort())
        const pages: string[] = []
        for (let page = 1; page <= Math.ceil(all.totalCount / 3); page++) {
          const res = await t.request('GET', `${API}/users?page=${page}&pageSize=3`, org.ownerKey)
          expect(res.json()).toMatchObject({ page, pageSize: 3, totalCount: all.totalCount })
          pages.push(...res.json().items.map((u: UserRecord) => u.id))
        }
        expect(pages).toEqual(all.items.map((u: UserRecord) => u.id))
        const first = await t.request('GET', `${API}/users?pageSize=3`, org.ownerKey)
        expect(first.headers.link).toContain('rel="next"')
        expectProblem(await t.request('GET', `${API}/users?pageSize=500`, org.ownerKey), 400)
        expect((await t.request('GET', `${API}/users?page=999`, org.ownerKey)).json().items).toEqual([])
      })
    })

    describe('the audit log', () => {
      it('records key and user changes with who, what, when and from where, in their transactions', async () => {
        const key = await t.given.key(org, null, { name: 'audited key' })
        await t.services.apiKeys.revoke(org.organisationId, key.id, {
          actor: { type: 'User', id: org.ownerId, name: 'owner' },
          origin: '192.0.2.7',
        })
        const member = await activeMember('audited@example.test')
        await t.request('PUT', `${API}/tenancies/${tenantA.id}/users/${member.id}`, keys.adminA, { role: 'Viewer' })
        await t.request('DELETE', `${API}/tenancies/${tenantA.id}/users/${member.id}`, org.ownerKey)
        await patch(member.id, { isOwner: true })
        await patch(member.id, { isOwner: false })
        await patch(member.id, { isDisabled: true })
        await patch(member.id, { isDisabled: false })

        const entries = await auditOf()
        const of = (action: string, targetId: string) =>
          entries.filter((e) => e.action === action && e.target.id === targetId)
        expect(of('apiKey.created', key.id)).toEqual([
          expect.objectContaining({
            actor: { type: 'System', id: null, name: 'test' },
            origin: 'cli',
            target: { type: 'ApiKey', id: key.id },
            detail: { name: 'audited key', scope: 'owner', expiresAt: null },
          }),
        ])
        expect(of('apiKey.revoked', key.id)).toEqual([
          expect.objectContaining({ actor: { type: 'User', id: org.ownerId, name: 'owner' }, origin: '192.0.2.7' }),
        ])
        const ownerKeyActor = { type: 'ApiKey', id: expect.any(String), name: 'Owner key' }
        expect(of('user.invited', member.id)).toEqual([
          expect.objectContaining({ actor: ownerKeyActor, origin: '127.0.0.1', at: '2026-03-01T09:00:00.000Z' }),
        ])
        expect(of('user.invitationAccepted', member.id)).toEqual([
          expect.objectContaining({
            actor: { type: 'User', id: member.id, name: 'audited@example.test' },
            origin: '127.0.0.1',
          }),
        ])
        expect(of('user.roleGranted', member.id)).toEqual([
          expect.objectContaining({
            actor: { type: 'ApiKey', id: expect.any(String), name: 'tenancy A admin' },
            detail: { tenancyId: tenantA.id, role: 'Viewer', previousRole: null },
          }),
        ])
        expect(of('user.roleRevoked', member.id)).toEqual([
          expect.objectContaining({ detail: { tenancyId: tenantA.id, role: 'Viewer' } }),
        ])
        for (const action of ['user.ownerGranted', 'user.ownerRevoked', 'user.disabled', 'user.enabled'])
          expect(of(action, member.id), action).toHaveLength(1)
        // Newest first.
        const order = entries.map((e) => `${e.at} ${e.id}`)
        expect(order).toEqual([...order].sort().reverse())
        // Nothing secret in the log.
        expect(JSON.stringify(entries)).not.toMatch(/cw_[0-9A-Za-z]{20}|scrypt\$|password/i)
      })

      it('a refused change writes no audit row', async () => {
        const before = (await auditOf()).length
        expectProblem(await patch(org.ownerId, { isOwner: false }), 409)
        expectProblem(await invite({ email: 'sam@example.test' }), 409)
        expect((await auditOf()).length).toBe(before)
      })
    })
  })

  describe(`${dialect}: invitations without an SMTP server`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_PUBLIC_URL: PUBLIC_URL, COSTWATCH_SNAPSHOT_HOUR: '23' } })

    it('writes the e-mail and its link to the log, the one place a link may appear, and the link works', async () => {
      const org = await t.given.organisation('Small Shop')
      const res = await t.request('POST', `${API}/users`, org.ownerKey, { email: 'solo@example.test' })
      expect(res.statusCode, res.body).toBe(202)
      const worker = t.worker()
      expect(await worker.runOnce()).toBe(true)
      const logs = t.logs.join('')
      expect(logs).toContain('COSTWATCH_SMTP_URL is not set')
      expect(logs).toContain('solo@example.test')
      const link = /https:\/\/costwatch\.example\.test\/invite\/[A-Za-z0-9_-]{43}/.exec(logs)?.[0]
      expect(link).toBeTruthy()
      const done = await t.request(
        'POST',
        new URL(link!).pathname,
        null,
        form({ displayName: 'Solo', password: GOOD_PASSWORD, passwordConfirmation: GOOD_PASSWORD }),
        FORM,
      )
      expect(done.statusCode, done.body).toBe(200)
      const [run] = await t.db.kysely.selectFrom('mailOutbox').selectAll().execute()
      expect(run).toMatchObject({ status: 'Succeeded', bodySealed: null })
    })
  })
}
