import { describe, expect, it } from 'vitest'
import { TEST_SECRET_KEY, useTestApp } from '../support/app.js'
import { runCli } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'

for (const dialect of testDialects()) {
  describe(`${dialect}: administration from the command line`, () => {
    const t = useTestApp({ dialect })
    const env = () => ({ COSTWATCH_DATABASE_URL: t.databaseUrl, COSTWATCH_SECRET_KEY: TEST_SECRET_KEY })
    let orgId: string
    let ownerKey: string

    it('migrate reports nothing pending on a migrated database', async () => {
      const res = await runCli(['migrate', '--json'], env())
      expect(res.code, res.stderr).toBe(0)
      expect(JSON.parse(res.stdout)).toEqual({ applied: [] })
    })

    it('org create --json prints exactly one document with the organisation, owner, key and apiKey', async () => {
      const res = await runCli(
        ['org', 'create', '--name', 'Globex', '--owner-email', 'Hank@Globex.example', '--plan', 'team', '--json'],
        env(),
      )
      expect(res.code, res.stderr).toBe(0)
      const out = JSON.parse(res.stdout)
      expect(Object.keys(out).sort()).toEqual(['apiKey', 'key', 'organisation', 'owner'])
      expect(out.organisation).toMatchObject({ name: 'Globex', plan: 'team', tenancyCount: 0 })
      expect(out.owner).toMatchObject({ email: 'hank@globex.example', isOwner: true, status: 'Active' })
      expect(out.key).toMatchObject({
        name: 'Owner key',
        scope: 'owner',
        prefix: out.apiKey.slice(0, 10),
        revokedAt: null,
      })
      expect(out.apiKey).toMatch(/^cw_[0-9A-Za-z]{46}$/)
      orgId = out.organisation.id
      ownerKey = out.apiKey
      const me = await t.request('GET', `${API}/organisation`, ownerKey)
      expect(me.json()).toEqual({ id: orgId, name: 'Globex', plan: 'team', tenancyCount: 0 })
    })

    it('org create refuses bad input with a clear message and a non-zero exit', async () => {
      const res = await runCli(
        ['org', 'create', '--name', 'X', '--owner-email', 'not-an-email', '--plan', 'gold'],
        env(),
      )
      expect(res.code).toBe(1)
      expect(res.stderr).toContain('ownerEmail: must be an e-mail address')
      expect(res.stderr).toContain('plan: must be one of: free, team, enterprise')
      expect(res.stdout).toBe('')
    })

    it('keys create with --tenancy makes a least-privilege key; list never shows secrets; revoke is immediate', async () => {
      const tenant = (
        await t.request('POST', `${API}/tenants`, ownerKey, {
          name: 'Web',
          cloudTenantId: 'web.example.com',
          credentialType: 'ManagedIdentity',
        })
      ).json()
      const created = await runCli(
        [
          'keys',
          'create',
          '--org',
          orgId,
          '--name',
          'ci-deploys',
          '--tenancy',
          `${tenant.id}:Editor`,
          '--expires',
          '2030-01-01T00:00:00+01:00',
          '--json',
        ],
        env(),
      )
      expect(created.code, created.stderr).toBe(0)
      const { key, apiKey } = JSON.parse(created.stdout)
      expect(key).toMatchObject({
        name: 'ci-deploys',
        scope: [{ tenancyId: tenant.id, role: 'Editor' }],
        expiresAt: '2029-12-31T23:00:00.000Z',
      })
      expect((await t.request('GET', `${API}/tenants/${tenant.id}`, apiKey)).statusCode).toBe(200)
      expect((await t.request('GET', `${API}/organisation`, apiKey)).json().tenancyCount).toBe(1)

      const list = await runCli(['keys', 'list', '--org', orgId, '--json'], env())
      expect(list.code, list.stderr).toBe(0)
      const listed = JSON.parse(list.stdout)
      expect(listed.items.map((k: { name: string }) => k.name)).toEqual(['Owner key', 'ci-deploys'])
      expect(list.stdout).not.toContain(apiKey)
      expect(list.stdout).not.toContain(ownerKey)

      const withoutOrg = await runCli(['keys', 'revoke', key.id], env())
      expect(withoutOrg.code).toBe(1)
      expect(withoutOrg.stderr).toContain("required option '--org <id>'")
      const other = JSON.parse(
        (await runCli(['org', 'create', '--name', 'Other', '--owner-email', 'o@other.test', '--json'], env())).stdout,
      )
      const foreign = await runCli(['keys', 'revoke', key.id, '--org', other.organisation.id], env())
      expect(foreign.code).toBe(1)
      expect(foreign.stderr).toContain(`API key ${key.id} was not found.`)
      expect((await t.request('GET', `${API}/tenants/${tenant.id}`, apiKey)).statusCode).toBe(200)

      const revoked = await runCli(['keys', 'revoke', key.id, '--org', orgId], env())
      expect(revoked.code, revoked.stderr).toBe(0)
      expect((await t.request('GET', `${API}/tenants/${tenant.id}`, apiKey)).statusCode).toBe(401)
      expect((await t.request('GET', `${API}/organisation`, ownerKey)).statusCode).toBe(200)
    })

    it('keys create refuses bad scopes and expiries', async () => {
      const badRole = await runCli(['keys', 'create', '--org', orgId, '--name', 'x', '--tenancy', 'abc:Owner'], env())
      expect(badRole.code).toBe(1)
      expect(badRole.stderr).toContain('--tenancy takes TENANCY_ID:ROLE')
      const past = await runCli(
        ['keys', 'create', '--org', orgId, '--name', 'x', '--expires', '2001-01-01T00:00:00Z'],
        env(),
      )
      expect(past.code).toBe(1)
      expect(past.stderr).toContain('expiresAt: must be in the future')
      const noOrg = await runCli(
        ['keys', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--name', 'x'],
        env(),
      )
      expect(noOrg.code).toBe(1)
      expect(noOrg.stderr).toContain('was not found')
    })

    it('users grant gives a member a role that their keys are then checked against', async () => {
      const tenant = (
        await t.request('POST', `${API}/tenants`, ownerKey, {
          name: 'Data',
          cloudTenantId: 'data.example.com',
          credentialType: 'ManagedIdentity',
        })
      ).json()
      const member = await t.services.userStore.insert({
        id: '01900000-0000-7000-8000-000000000001',
        organisationId: orgId,
        email: 'member@globex.example',
        displayName: 'Member',
        isOwner: 0,
        isDisabled: 0,
        status: 'Active',
        invitedAt: null,
        createdAt: '2026-03-01T09:00:00.000Z',
        lastSeenAt: null,
      })
      const res = await runCli(
        ['users', 'grant', '--tenancy', tenant.id, '--user', member.id, '--role', 'Viewer', '--json'],
        env(),
      )
      expect(res.code, res.stderr).toBe(0)
      expect(JSON.parse(res.stdout)).toEqual({ tenancyId: tenant.id, userId: member.id, role: 'Viewer' })
      const upgraded = await runCli(
        ['users', 'grant', '--tenancy', tenant.id, '--user', member.id, '--role', 'Admin'],
        env(),
      )
      expect(upgraded.code, upgraded.stderr).toBe(0)
      const rows = await t.db.kysely.selectFrom('tenancyRoles').selectAll().where('userId', '=', member.id).execute()
      expect(rows).toEqual([{ tenancyId: tenant.id, userId: member.id, role: 'Admin' }])
      const badRole = await runCli(
        ['users', 'grant', '--tenancy', tenant.id, '--user', member.id, '--role', 'Boss'],
        env(),
      )
      expect(badRole.code).not.toBe(0)
      expect(badRole.stderr).toMatch(/Allowed choices are Admin, Editor, Viewer/)

      const revoked = await runCli(['users', 'revoke', '--tenancy', tenant.id, '--user', member.id, '--json'], env())
      expect(revoked.code, revoked.stderr).toBe(0)
      expect(JSON.parse(revoked.stdout)).toEqual({ tenancyId: tenant.id, userId: member.id, role: null })
      expect(
        await t.db.kysely.selectFrom('tenancyRoles').selectAll().where('userId', '=', member.id).execute(),
      ).toEqual([])
      const foreign = await runCli(
        ['users', 'revoke', '--tenancy', tenant.id, '--user', '01900000-0000-7000-8000-0000000000ff'],
        env(),
      )
      expect(foreign.code).toBe(1)
      expect(foreign.stderr).toContain('was not found')
    })

    it('audit list prints the changes of access, newest first, each from the command line', async () => {
      const res = await runCli(['audit', 'list', '--org', orgId, '--json'], env())
      expect(res.code, res.stderr).toBe(0)
      const { items } = JSON.parse(res.stdout) as {
        items: { action: string; at: string; origin: string; actor: { type: string }; target: { id: string } }[]
      }
      // The tenancies this suite connected over HTTP are there too, from the request's address.
      const tenancies = items.filter((e) => e.action === 'tenant.created')
      expect(tenancies).toHaveLength(2)
      expect(tenancies.every((e) => e.origin === '127.0.0.1' && e.actor.type === 'ApiKey')).toBe(true)
      const fromCli = items.filter((e) => e.action !== 'tenant.created')
      expect(fromCli.map((e) => e.action)).toEqual([
        'user.roleRevoked',
        'user.roleGranted',
        'user.roleGranted',
        'apiKey.revoked',
        'apiKey.created',
        'apiKey.created',
      ])
      expect(fromCli.every((e) => e.origin === 'cli')).toBe(true)
      expect(fromCli.slice(0, 4).every((e) => e.actor.type === 'System')).toBe(true)
      expect(res.stdout).not.toMatch(/cw_[0-9A-Za-z]{20}/)
      const human = await runCli(['audit', 'list', '--org', orgId, '--limit', '1'], env())
      expect(human.code, human.stderr).toBe(0)
      expect(human.stdout.trim().split('\n')).toHaveLength(1)
      expect(human.stdout).toContain('user.roleRevoked')
      expect(human.stdout).toContain('from cli')
    })
  })
}
