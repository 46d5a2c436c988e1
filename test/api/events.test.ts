import { beforeAll, describe, expect, it } from 'vitest'
import type { EventRecord } from '../../src/features/events/schemas.js'
import { requestHash } from '../../src/features/events/service.js'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { auditLogOf } from '../support/audit-log.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
const eventsOf = (tenantId: string) => `${API}/tenants/${tenantId}/events`
const deploy = (over: Record<string, unknown> = {}) => ({
  occurredAt: '2026-03-01T08:00:00Z',
  title: 'Deploy 4.2',
  category: 'Deployment',
  ...over,
})

function expectProblem(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number) {
  expect(res.statusCode, res.body).toBe(status)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  const problem = JSON.parse(res.body)
  expect(problem).toMatchObject({ status, type: expect.stringMatching(/^\/problems\//), traceId: expect.any(String) })
  return problem
}

for (const dialect of testDialects()) {
  describe(`${dialect}: event markers`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_RATE_LIMIT: '100000' } })
    let org: OrgContext
    let tenant: TenantRecord
    let other: TenantRecord
    const keys = {} as Record<
      'admin' | 'editorA' | 'editorB' | 'viewer' | 'otherTenancy',
      { id: string; apiKey: string }
    >
    let foreignOwner: string

    beforeAll(async () => {
      org = await t.given.organisation('Markers Ltd')
      tenant = await t.given.tenant(org)
      other = await t.given.tenant(org)
      const on = (role: 'Admin' | 'Editor' | 'Viewer', tenancyId = tenant.id) => [{ tenancyId, role }]
      keys.admin = await t.given.key(org, on('Admin'), { name: 'admin key' })
      keys.editorA = await t.given.key(org, on('Editor'), { name: 'ci editor A' })
      keys.editorB = await t.given.key(org, on('Editor'), { name: 'ci editor B' })
      keys.viewer = await t.given.key(org, on('Viewer'), { name: 'viewer key' })
      keys.otherTenancy = await t.given.key(org, on('Admin', other.id), { name: 'other tenancy admin' })
      foreignOwner = (await t.given.organisation('Someone Else')).ownerKey
    })

    const create = async (key: string, body: unknown = deploy(), tenantId = tenant.id, headers = {}) =>
      t.request('POST', eventsOf(tenantId), key, body, headers)
    const created = async (key: string, body: unknown = deploy(), tenantId = tenant.id) => {
      const res = await create(key, body, tenantId)
      expect(res.statusCode, res.body).toBe(201)
      return res.json() as EventRecord
    }
    const total = async (tenantId = tenant.id) =>
      (await t.request('GET', `${eventsOf(tenantId)}?pageSize=1`, org.ownerKey)).json().totalCount as number

    describe('create and get', () => {
      it('stores a deploy marker in UTC with milliseconds, trimmed, made by the key', async () => {
        const res = await create(
          keys.editorA.apiKey,
          deploy({
            title: '  Deploy checkout 4.2  ',
            occurredAt: '2026-03-01T10:55:00.1239+02:00',
            description: 'Rolled out by CI',
            tagKey: 'service',
            tagValue: 'checkout',
          }),
        )
        expect(res.statusCode, res.body).toBe(201)
        const event = res.json()
        expect(event).toEqual({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          tenantId: tenant.id,
          occurredAt: '2026-03-01T08:55:00.123Z',
          title: 'Deploy checkout 4.2',
          category: 'Deployment',
          description: 'Rolled out by CI',
          tagKey: 'service',
          tagValue: 'checkout',
          createdBy: { type: 'ApiKey', id: keys.editorA.id, name: 'ci editor A' },
          createdAt: '2026-03-01T09:00:00.000Z',
          updatedAt: '2026-03-01T09:00:00.000Z',
        })
        expect(res.headers.location).toBe(`${eventsOf(tenant.id)}/${event.id}`)
        const got = await t.request('GET', res.headers.location as string, keys.viewer.apiKey)
        expect(got.statusCode, got.body).toBe(200)
        expect(got.json()).toEqual(event)
        // Path UUIDs match in any case.
        const upper = await t.request(
          'GET',
          `${eventsOf(tenant.id.toUpperCase())}/${event.id.toUpperCase()}`,
          keys.viewer.apiKey,
        )
        expect(upper.json()).toEqual(event)
      })

      it('an omitted or empty description and tag are null: the marker is universal', async () => {
        const a = await created(keys.editorA.apiKey, deploy({ category: 'Incident' }))
        expect(a).toMatchObject({ description: null, tagKey: null, tagValue: null, category: 'Incident' })
        const b = await created(keys.editorA.apiKey, deploy({ description: '', tagKey: null, tagValue: null }))
        expect(b).toMatchObject({ description: null, tagKey: null, tagValue: null })
      })

      it('accepts every category and the boundary lengths', async () => {
        for (const category of ['Deployment', 'Launch', 'Campaign', 'Configuration', 'Incident', 'Other']) {
          expect((await created(keys.editorA.apiKey, deploy({ category }))).category).toBe(category)
        }
        const longest = await created(
          keys.editorA.apiKey,
          deploy({
            title: 't'.repeat(200),
            description: 'd'.repeat(4000),
            tagKey: 'k'.repeat(512),
            tagValue: 'v'.repeat(256),
          }),
        )
        expect(longest.title).toHaveLength(200)
        expect((await created(keys.editorA.apiKey, deploy({ title: 'x' }))).title).toBe('x')
        // 200 characters after trimming: the surrounding spaces do not count.
        const padded = await created(keys.editorA.apiKey, deploy({ title: `  ${'p'.repeat(200)}  ` }))
        expect(padded.title).toBe('p'.repeat(200))
      })

      it('takes every instant of the years 0001 to 9999 in UTC, two-digit years included, and none outside', async () => {
        for (const [sent, stored] of [
          ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
          ['0050-06-15T12:00:00+02:00', '0050-06-15T10:00:00.000Z'],
          ['0099-12-31T23:30:00-01:00', '0100-01-01T00:30:00.000Z'],
          ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
        ]) {
          const event = await created(keys.editorA.apiKey, deploy({ occurredAt: sent }))
          expect(event.occurredAt, sent).toBe(stored)
          const patched = await t.request('PATCH', `${eventsOf(tenant.id)}/${event.id}`, keys.editorA.apiKey, {
            occurredAt: sent,
          })
          expect(patched.statusCode, patched.body).toBe(200)
          expect(patched.json().occurredAt).toBe(stored)
        }
        for (const outside of ['0000-12-31T23:59:59Z', '0001-01-01T00:30:00+01:00', '9999-12-31T23:30:00-01:00']) {
          const before = await total()
          const problem = expectProblem(await create(keys.editorA.apiKey, deploy({ occurredAt: outside })), 400)
          expect(Object.keys(problem.errors), outside).toEqual(['occurredAt'])
          expect(await total()).toBe(before)
        }
      })

      const invalid: [string, Record<string, unknown>, string, string?][] = [
        ['empty title', deploy({ title: '' }), 'title'],
        ['a title of spaces', deploy({ title: '   ' }), 'title', 'must not be empty'],
        [
          'a 201-character title',
          deploy({ title: 't'.repeat(201) }),
          'title',
          'must be at most 200 characters after trimming',
        ],
        ['no title', { occurredAt: '2026-03-01T08:00:00Z', category: 'Deployment' }, 'title', 'is required'],
        ['an unknown category', deploy({ category: 'Deploy' }), 'category'],
        ['a category in the wrong case', deploy({ category: 'deployment' }), 'category'],
        ['a null category', deploy({ category: null }), 'category'],
        ['no category', { occurredAt: '2026-03-01T08:00:00Z', title: 'x' }, 'category', 'is required'],
        ['an occurredAt that is not a date', deploy({ occurredAt: 'yesterday' }), 'occurredAt'],
        ['an occurredAt without an offset', deploy({ occurredAt: '2026-03-01T08:00:00' }), 'occurredAt'],
        ['an occurredAt that is only a date', deploy({ occurredAt: '2026-03-01' }), 'occurredAt'],
        ['an occurredAt of 31 February', deploy({ occurredAt: '2026-02-31T08:00:00Z' }), 'occurredAt'],
        ['no occurredAt', { title: 'x', category: 'Other' }, 'occurredAt', 'is required'],
        ['tagKey without tagValue', deploy({ tagKey: 'env' }), 'tagValue', 'is required when tagKey is set'],
        [
          'tagKey with a null tagValue',
          deploy({ tagKey: 'env', tagValue: null }),
          'tagValue',
          'is required when tagKey is set',
        ],
        ['tagValue without tagKey', deploy({ tagValue: 'prod' }), 'tagKey', 'is required when tagValue is set'],
        ['a tagKey of 513 characters', deploy({ tagKey: 'k'.repeat(513), tagValue: 'v' }), 'tagKey'],
        ['a tagValue of 257 characters', deploy({ tagKey: 'k', tagValue: 'v'.repeat(257) }), 'tagValue'],
        ['a description over 4,000 characters', deploy({ description: 'd'.repeat(4001) }), 'description'],
        ['an unknown field', deploy({ tenancyId: tenant?.id ?? 'x' }), 'tenancyId', 'is not a known field'],
        ['a title that is not a string', deploy({ title: 42 }), 'title', 'must be string'],
      ]
      it.each(invalid)('400 for %s, naming the field, and nothing is created', async (_name, body, field, message) => {
        const before = await total()
        const problem = expectProblem(await create(keys.editorA.apiKey, body), 400)
        expect(problem.type).toBe('/problems/validation')
        expect(Object.keys(problem.errors), JSON.stringify(problem.errors)).toContain(field)
        if (message) expect(problem.errors[field]).toContain(message)
        expect(await total()).toBe(before)
      })

      it('400 for a missing or non-JSON body', async () => {
        expectProblem(await t.request('POST', eventsOf(tenant.id), keys.editorA.apiKey), 400)
        expectProblem(await create(keys.editorA.apiKey, 'title=x', tenant.id, { 'content-type': 'text/plain' }), 415)
      })

      it('404 for an unknown event, 400 for an id that is not a UUID', async () => {
        expectProblem(
          await t.request('GET', `${eventsOf(tenant.id)}/00000000-0000-4000-8000-000000000000`, org.ownerKey),
          404,
        )
        const bad = expectProblem(await t.request('GET', `${eventsOf(tenant.id)}/nope`, org.ownerKey), 400)
        expect(bad.errors).toEqual({ eventId: ['must be a UUID'] })
      })
    })

    describe('patch', () => {
      let event: EventRecord
      const patch = (body: unknown, key = keys.editorA.apiKey, id = event.id) =>
        t.request('PATCH', `${eventsOf(tenant.id)}/${id}`, key, body)
      const patched = async (body: unknown) => {
        const res = await patch(body)
        expect(res.statusCode, res.body).toBe(200)
        return res.json() as EventRecord
      }

      beforeAll(async () => {
        event = await created(
          keys.editorA.apiKey,
          deploy({ description: 'first', tagKey: 'service', tagValue: 'checkout' }),
        )
      })

      it('changes each field, moves updatedAt, keeps the rest', async () => {
        t.clock.advance(60_000)
        const a = await patched({ title: '  Deploy 4.3 ' })
        expect(a).toEqual({ ...event, title: 'Deploy 4.3', updatedAt: '2026-03-01T09:01:00.000Z' })
        expect(await patched({ category: 'Launch' })).toMatchObject({ category: 'Launch', title: 'Deploy 4.3' })
        expect(await patched({ occurredAt: '2026-02-28T23:30:00-01:00' })).toMatchObject({
          occurredAt: '2026-03-01T00:30:00.000Z',
        })
        expect(await patched({ description: 'second' })).toMatchObject({ description: 'second' })
        expect(await patched({ tagKey: 'team', tagValue: 'payments' })).toMatchObject({
          tagKey: 'team',
          tagValue: 'payments',
        })
        const got = (await t.request('GET', `${eventsOf(tenant.id)}/${event.id}`, keys.viewer.apiKey)).json()
        expect(got).toMatchObject({ title: 'Deploy 4.3', category: 'Launch', description: 'second', tagKey: 'team' })
        expect(got.createdAt).toBe(event.createdAt)
        expect(got.createdBy).toEqual(event.createdBy)
        t.clock.set('2026-03-01T09:00:00.000Z')
      })

      it('null and absent fields leave the event unchanged', async () => {
        const before = (await t.request('GET', `${eventsOf(tenant.id)}/${event.id}`, keys.viewer.apiKey)).json()
        const after = await patched({
          title: null,
          description: null,
          category: null,
          occurredAt: null,
          tagKey: null,
          tagValue: null,
        })
        expect({ ...after, updatedAt: '' }).toEqual({ ...before, updatedAt: '' })
        expect({ ...(await patched({})), updatedAt: '' }).toEqual({ ...before, updatedAt: '' })
      })

      it('"" clears the description', async () => {
        expect((await patched({ description: '' })).description).toBeNull()
      })

      it('one half of an existing tag may change alone', async () => {
        expect(await patched({ tagValue: 'ledger' })).toMatchObject({ tagKey: 'team', tagValue: 'ledger' })
        expect(await patched({ tagKey: 'squad' })).toMatchObject({ tagKey: 'squad', tagValue: 'ledger' })
      })

      it('clearTag removes the tag filter; clearTag false changes nothing', async () => {
        expect(await patched({ clearTag: false })).toMatchObject({ tagKey: 'squad', tagValue: 'ledger' })
        expect(await patched({ clearTag: true })).toMatchObject({ tagKey: null, tagValue: null })
      })

      it('400: half a tag on an untagged event, clearTag with a tag, bad values; nothing changes', async () => {
        const before = (await t.request('GET', `${eventsOf(tenant.id)}/${event.id}`, keys.viewer.apiKey)).json()
        expect(before.tagKey).toBeNull()
        const cases: [Record<string, unknown>, string, string?][] = [
          [{ tagKey: 'env' }, 'tagValue', 'is required when tagKey is set'],
          [{ tagValue: 'prod' }, 'tagKey', 'is required when tagValue is set'],
          [{ clearTag: true, tagKey: 'env', tagValue: 'prod' }, 'clearTag'],
          [{ clearTag: true, tagValue: 'prod' }, 'clearTag'],
          [{ title: '  ' }, 'title', 'must not be empty'],
          [{ title: 't'.repeat(201) }, 'title'],
          [{ category: 'Deploy' }, 'category'],
          [{ occurredAt: 'soon' }, 'occurredAt'],
          [{ occurredAt: '2026-13-01T00:00:00Z' }, 'occurredAt'],
          [{ description: 'd'.repeat(4001) }, 'description'],
          [{ clearTag: 'yes' }, 'clearTag'],
          [{ createdBy: 'me' }, 'createdBy', 'is not a known field'],
        ]
        for (const [body, field, message] of cases) {
          const problem = expectProblem(await patch(body), 400)
          expect(Object.keys(problem.errors), JSON.stringify(body)).toContain(field)
          if (message) expect(problem.errors[field]).toContain(message)
        }
        const after = (await t.request('GET', `${eventsOf(tenant.id)}/${event.id}`, keys.viewer.apiKey)).json()
        expect(after).toEqual(before)
      })

      it('404 for an unknown event', async () => {
        expectProblem(await patch({ title: 'x' }, keys.editorA.apiKey, '00000000-0000-4000-8000-000000000000'), 404)
      })
    })

    describe('list', () => {
      let listed: TenantRecord
      const ids: string[] = []
      beforeAll(async () => {
        listed = await t.given.tenant(org)
        listViewer = (await t.given.key(org, [{ tenancyId: listed.id, role: 'Viewer' }])).apiKey
        // Seven markers, two pairs sharing an instant, so the id tie-breaker matters.
        const at = [
          '2026-01-01T00:00:00Z',
          '2026-01-02T00:00:00Z',
          '2026-01-02T00:00:00Z',
          '2026-01-03T00:00:00Z',
          '2026-01-04T00:00:00Z',
          '2026-01-04T00:00:00Z',
          '2026-01-05T12:00:00Z',
        ]
        for (const [i, occurredAt] of at.entries()) {
          const category = i % 3 === 0 ? 'Incident' : 'Deployment'
          ids.push((await created(org.ownerKey, deploy({ occurredAt, title: `e${i}`, category }), listed.id)).id)
        }
      })
      let listViewer: string
      const list = (query: string, key = listViewer, tenantId = listed.id) =>
        t.request('GET', `${eventsOf(tenantId)}?${query}`, key)

      it('newest occurredAt first, id last, with an exact total', async () => {
        const res = await list('', org.ownerKey)
        expect(res.statusCode, res.body).toBe(200)
        const page = res.json()
        expect(page).toMatchObject({ page: 1, pageSize: 50, totalCount: 7, totalPages: 1 })
        const got = page.items.map((e: EventRecord) => [e.occurredAt, e.id])
        const expected = [...got].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? 1 : -1) : a[0] < b[0] ? 1 : -1))
        expect(got).toEqual(expected)
        expect(page.items[0].title).toBe('e6')
        expect(page.items.at(-1).title).toBe('e0')
      })

      it('a walk through the pages meets every marker once', async () => {
        const seen: string[] = []
        for (let p = 1; p <= 4; p++) {
          const res = await list(`page=${p}&pageSize=2`, org.ownerKey)
          const page = res.json()
          expect(page).toMatchObject({ page: p, pageSize: 2, totalCount: 7, totalPages: 4 })
          seen.push(...page.items.map((e: EventRecord) => e.id))
          if (p < 4) expect(res.headers.link).toContain('rel="next"')
        }
        expect(seen).toHaveLength(7)
        expect(new Set(seen)).toEqual(new Set(ids))
        expect((await list('page=5&pageSize=2', org.ownerKey)).json().items).toEqual([])
      })

      it('from and to are inclusive, in any offset; category filters; totals follow the filter', async () => {
        const range = (await list('from=2026-01-02T00:00:00Z&to=2026-01-04T00:00:00Z')).json()
        expect(range.totalCount).toBe(5)
        expect(range.items.map((e: EventRecord) => e.title).sort()).toEqual(['e1', 'e2', 'e3', 'e4', 'e5'])
        const offset = (await list(`from=${encodeURIComponent('2026-01-05T13:00:00+01:00')}`)).json()
        expect(offset.items.map((e: EventRecord) => e.title)).toEqual(['e6'])
        const incidents = (await list('category=Incident')).json()
        expect(incidents.totalCount).toBe(3)
        expect(incidents.items.map((e: EventRecord) => e.title)).toEqual(['e6', 'e3', 'e0'])
        const both = (await list('category=Incident&to=2026-01-03T00:00:00.000Z&pageSize=1')).json()
        expect(both).toMatchObject({ totalCount: 2, totalPages: 2 })
        expect(both.items.map((e: EventRecord) => e.title)).toEqual(['e3'])
      })

      it('400: from after to, bad instants, bad category, bad paging', async () => {
        const problem = expectProblem(await list('from=2026-01-03T00:00:00Z&to=2026-01-02T00:00:00Z'), 400)
        expect(problem.errors).toEqual({ from: ['must not be after to'] })
        expectProblem(await list('from=yesterday'), 400)
        expectProblem(await list('to=2026-01-02'), 400)
        expectProblem(await list('category=Deploy'), 400)
        expectProblem(await list('pageSize=201'), 400)
        expectProblem(await list('page=0'), 400)
        expect((await list('from=2026-01-02T00:00:00Z&to=2026-01-02T00:00:00Z')).json().totalCount).toBe(2)
      })

      it('the unfiltered total is the O(1) counter, kept by create and delete', async () => {
        const row = await t.db.kysely
          .selectFrom('rowCounts')
          .select('n')
          .where('counter', '=', `events:${listed.id}`)
          .executeTakeFirstOrThrow()
        expect(Number(row.n)).toBe(7)
        const extra = await created(org.ownerKey, deploy(), listed.id)
        expect((await list('')).json().totalCount).toBe(8)
        expect((await t.request('DELETE', `${eventsOf(listed.id)}/${extra.id}`, org.ownerKey)).statusCode).toBe(204)
        expect((await t.request('DELETE', `${eventsOf(listed.id)}/${extra.id}`, org.ownerKey)).statusCode).toBe(404)
        expect((await list('')).json().totalCount).toBe(7)
      })
    })

    describe('permissions', () => {
      const item = (id: string, tenantId = tenant.id) => `${eventsOf(tenantId)}/${id}`

      it('a Viewer reads but may not create or patch', async () => {
        const event = await created(keys.editorA.apiKey)
        expect((await t.request('GET', eventsOf(tenant.id), keys.viewer.apiKey)).statusCode).toBe(200)
        expect((await t.request('GET', item(event.id), keys.viewer.apiKey)).statusCode).toBe(200)
        expect(expectProblem(await create(keys.viewer.apiKey), 403).type).toBe('/problems/forbidden')
        expectProblem(await t.request('PATCH', item(event.id), keys.viewer.apiKey, { title: 'x' }), 403)
        // The permission is checked before validation: a Viewer learns nothing from field errors.
        expectProblem(await create(keys.viewer.apiKey, { title: '' }), 403)
      })

      it('Editors, Admins and owners create; an Editor patches its own events, an Admin or owner anyone’s', async () => {
        const event = await created(keys.editorA.apiKey)
        for (const key of [keys.editorB.apiKey, keys.admin.apiKey, org.ownerKey])
          expect((await create(key)).statusCode).toBe(201)
        // Another Editor may not rewrite it, as it may not delete it: nothing changes.
        const refused = expectProblem(
          await t.request('PATCH', item(event.id), keys.editorB.apiKey, { title: 'Rolled back', clearTag: true }),
          403,
        )
        expect(refused.detail).toMatch(/creator/)
        expect((await t.request('GET', item(event.id), keys.viewer.apiKey)).json()).toEqual(event)
        for (const key of [keys.editorA.apiKey, keys.admin.apiKey, org.ownerKey]) {
          const res = await t.request('PATCH', item(event.id), key, { title: `by ${key.slice(0, 6)}` })
          expect(res.statusCode, res.body).toBe(200)
          expect(res.json().title).toBe(`by ${key.slice(0, 6)}`)
        }
      })

      it('delete: a Viewer gets 403; an Editor only its own events, as for changes', async () => {
        const a = await created(keys.editorA.apiKey)
        expect(expectProblem(await t.request('DELETE', item(a.id), keys.viewer.apiKey), 403).type).toBe(
          '/problems/forbidden',
        )
        expect(expectProblem(await t.request('DELETE', item(a.id), keys.editorB.apiKey), 403).detail).toMatch(/creator/)
        expect((await t.request('GET', item(a.id), keys.viewer.apiKey)).statusCode).toBe(200)
        const res = await t.request('DELETE', item(a.id), keys.editorA.apiKey)
        expect(res.statusCode, res.body).toBe(204)
        expect(res.body).toBe('')
        expectProblem(await t.request('GET', item(a.id), keys.editorA.apiKey), 404)
        expectProblem(await t.request('DELETE', item(a.id), keys.editorA.apiKey), 404)
        expectProblem(await t.request('PATCH', item(a.id), keys.editorA.apiKey, { title: 'x' }), 404)
      })

      it('delete: a tenancy Admin and an owner delete anyone’s event, at once and for good', async () => {
        for (const key of [keys.admin.apiKey, org.ownerKey]) {
          const event = await created(keys.editorB.apiKey)
          expect((await t.request('DELETE', item(event.id), key)).statusCode).toBe(204)
          expectProblem(await t.request('GET', item(event.id), keys.viewer.apiKey), 404)
          const listed = (await t.request('GET', `${eventsOf(tenant.id)}?pageSize=200`, org.ownerKey)).json()
          expect(listed.items.map((e: EventRecord) => e.id)).not.toContain(event.id)
        }
      })

      it('a deletion is in the audit log: by whom, from where, the marker’s title; a refused one is not', async () => {
        const audit = auditLogOf(t, org)
        const before = (await audit('event.deleted')).length
        const event = await created(keys.editorA.apiKey, deploy({ title: 'Deploy billing 7.1' }))
        const as = (key: string, remoteAddress: string) =>
          t.app.inject({ method: 'DELETE', url: item(event.id), headers: { 'x-api-key': key }, remoteAddress })
        expect((await as(keys.editorB.apiKey, '198.51.100.9')).statusCode).toBe(403)
        expect(await audit('event.deleted')).toHaveLength(before)
        expect((await as(keys.admin.apiKey, '203.0.113.7')).statusCode).toBe(204)
        const entries = await audit('event.deleted')
        expect(entries).toHaveLength(before + 1)
        expect(entries[0]).toMatchObject({
          action: 'event.deleted',
          actor: { type: 'ApiKey', id: keys.admin.id, name: 'admin key' },
          target: { type: 'Event', id: event.id },
          detail: {
            title: 'Deploy billing 7.1',
            category: 'Deployment',
            occurredAt: event.occurredAt,
            tenancyId: tenant.id,
          },
          origin: '203.0.113.7',
        })
        // The filter keeps other actions out.
        expect((await audit('apiKey.revoked')).some((e) => (e.target as { id: string }).id === event.id)).toBe(false)
      })

      it('a key of another tenancy, or of another organisation, gets 404 for everything here', async () => {
        const event = await created(keys.editorA.apiKey)
        for (const key of [keys.otherTenancy.apiKey, foreignOwner]) {
          expectProblem(await t.request('GET', eventsOf(tenant.id), key), 404)
          expectProblem(await t.request('GET', item(event.id), key), 404)
          expectProblem(await create(key), 404)
          expectProblem(await t.request('PATCH', item(event.id), key, { title: 'x' }), 404)
          expectProblem(await t.request('DELETE', item(event.id), key), 404)
          expectProblem(await t.request('GET', `${eventsOf(tenant.id)}/visible?scope=tenant`, key), 404)
        }
        // An event of one tenant is not reachable through another tenant's path.
        expectProblem(await t.request('GET', item(event.id, other.id), keys.otherTenancy.apiKey), 404)
        expectProblem(await t.request('DELETE', item(event.id, other.id), keys.otherTenancy.apiKey), 404)
        expect((await t.request('GET', item(event.id), keys.viewer.apiKey)).statusCode).toBe(200)
      })

      it('401 without a key, and for a bearer token instead of X-Api-Key', async () => {
        expectProblem(await t.request('POST', eventsOf(tenant.id), null, deploy()), 401)
        const bearer = await t.request('POST', eventsOf(tenant.id), null, deploy(), {
          authorization: `Bearer ${keys.editorA.apiKey}`,
        })
        expect(expectProblem(bearer, 401).type).toBe('/problems/unauthorized')
        expectProblem(
          await t.request('GET', eventsOf(tenant.id), null, undefined, { authorization: `Bearer ${org.ownerKey}` }),
          401,
        )
      })

      it('the flat POST /api/public/v1/events of the specification example is not an operation: 404', async () => {
        const res = await t.request('POST', `${API}/events`, org.ownerKey, { ...deploy(), tenancyId: tenant.id })
        expect(expectProblem(res, 404).type).toBe('/problems/not-found')
        expectProblem(await t.request('GET', `${API}/events`, org.ownerKey), 404)
      })
    })

    describe('Idempotency-Key', () => {
      let idem: TenantRecord
      const ci = {} as Record<'a' | 'b', { id: string; apiKey: string }>
      beforeAll(async () => {
        idem = await t.given.tenant(org)
        const grants = [
          { tenancyId: idem.id, role: 'Editor' as const },
          { tenancyId: tenant.id, role: 'Editor' as const },
        ]
        ci.a = await t.given.key(org, grants, { name: 'ci a' })
        ci.b = await t.given.key(org, grants, { name: 'ci b' })
      })
      const post = (key: string, body: unknown, idempotencyKey?: string, tenantId = idem.id) =>
        t.request('POST', eventsOf(tenantId), key, body, idempotencyKey ? { 'idempotency-key': idempotencyKey } : {})
      const count = () => total(idem.id)

      it('a repeat with the same key and body answers the first response and creates nothing', async () => {
        const first = await post(ci.a.apiKey, deploy({ title: 'Deploy 7' }), 'run-1')
        expect(first.statusCode, first.body).toBe(201)
        expect(first.headers['idempotent-replayed']).toBeUndefined()
        // Field order does not make another body.
        const again = await post(
          ci.a.apiKey,
          { category: 'Deployment', title: 'Deploy 7', occurredAt: '2026-03-01T08:00:00Z' },
          'run-1',
        )
        expect(again.statusCode, again.body).toBe(201)
        expect(again.json()).toEqual(first.json())
        expect(again.headers.location).toBe(first.headers.location)
        expect(again.headers['idempotent-replayed']).toBe('true')
        expect(await count()).toBe(1)
      })

      it('the same key with another body is a 422 problem', async () => {
        const res = await post(ci.a.apiKey, deploy({ title: 'Deploy 8' }), 'run-1')
        expect(expectProblem(res, 422).type).toBe('/problems/idempotency-key-reused')
        expect(await count()).toBe(1)
      })

      it('a repeat while the first is in flight is a 409 problem (the in-flight row is there first)', async () => {
        const body = deploy({ title: 'Deploy 9' })
        await t.db.kysely
          .insertInto('idempotencyKeys')
          .values({
            actorId: ci.a.id,
            tenantId: idem.id,
            idempotencyKey: 'run-in-flight',
            requestHash: requestHash('PublicCreateTenantEvent', body),
            responseBody: null,
            createdAt: '2026-03-01T08:59:30.000Z',
            expiresAt: '2026-03-02T08:59:30.000Z',
          })
          .execute()
        const res = await post(ci.a.apiKey, body, 'run-in-flight')
        expect(expectProblem(res, 409).type).toBe('/problems/idempotency-in-flight')
        expect(res.headers['retry-after']).toBe('1')
        expectProblem(await post(ci.a.apiKey, deploy({ title: 'other' }), 'run-in-flight'), 422)
        expect(await count()).toBe(1)
        // A create in flight for more than a minute died with its process: a retry takes the key over.
        t.clock.advance(61_000)
        const retried = await post(ci.a.apiKey, body, 'run-in-flight')
        expect(retried.statusCode, retried.body).toBe(201)
        expect(await count()).toBe(2)
        t.clock.set('2026-03-01T09:00:00.000Z')
      })

      it('concurrent repeats make exactly one marker; each answer is that marker or a 409', async () => {
        const body = deploy({ title: 'Deploy concurrently' })
        const answers = await Promise.all(Array.from({ length: 8 }, () => post(ci.a.apiKey, body, 'run-race')))
        const created = answers.filter((r) => r.statusCode === 201)
        expect(
          answers.every((r) => r.statusCode === 201 || r.statusCode === 409),
          answers.map((r) => r.body).join('\n'),
        ).toBe(true)
        expect(created.length).toBeGreaterThan(0)
        expect(new Set(created.map((r) => r.json().id)).size).toBe(1)
        expect(await count()).toBe(3)
      })

      it('keys are per API key and per tenant', async () => {
        const body = deploy({ title: 'Deploy 7' })
        const byB = await post(ci.b.apiKey, body, 'run-1')
        expect(byB.statusCode).toBe(201)
        expect(byB.headers['idempotent-replayed']).toBeUndefined()
        const elsewhere = await post(ci.a.apiKey, body, 'run-1', tenant.id)
        expect(elsewhere.headers['idempotent-replayed']).toBeUndefined()
        expect(elsewhere.statusCode).toBe(201)
        expect(await count()).toBe(4)
      })

      it('a failed create keeps no key: the corrected retry with the same key creates', async () => {
        expectProblem(await post(ci.a.apiKey, deploy({ category: 'Nope' }), 'run-fix'), 400)
        expectProblem(await post(ci.a.apiKey, deploy({ title: ' ' }), 'run-fix'), 400)
        expect((await post(ci.a.apiKey, deploy(), 'run-fix')).statusCode).toBe(201)
      })

      it('keys live 24 hours; expired ones are ignored and swept', async () => {
        const keysOf = async () =>
          (
            await t.db.kysely
              .selectFrom('idempotencyKeys')
              .select('idempotencyKey')
              .where('tenantId', '=', idem.id)
              .execute()
          )
            .map((r) => r.idempotencyKey)
            .sort()
        expect(await keysOf()).toContain('run-1')
        t.clock.set('2026-03-02T08:59:59.999Z') // just inside 24 hours of run-1
        expectProblem(await post(ci.a.apiKey, deploy({ title: 'Deploy 8' }), 'run-1'), 422)
        t.clock.set('2026-03-02T09:00:00.000Z')
        const reused = await post(ci.a.apiKey, deploy({ title: 'Deploy 8' }), 'run-1')
        expect(reused.statusCode, reused.body).toBe(201)
        expect(reused.headers['idempotent-replayed']).toBeUndefined()
        t.clock.set('2026-03-03T12:00:00.000Z') // past every key; the sweep runs on the next keyed create
        expect((await post(ci.a.apiKey, deploy(), 'run-late')).statusCode).toBe(201)
        expect(await keysOf()).toEqual(['run-late'])
        t.clock.set('2026-03-01T09:00:00.000Z')
      })

      it('400 for an Idempotency-Key that is empty, too long or not visible ASCII', async () => {
        for (const bad of ['x'.repeat(256), 'with space', 'naïve']) {
          const problem = expectProblem(await post(ci.a.apiKey, deploy(), bad), 400)
          expect(Object.keys(problem.errors)).toEqual(['idempotency-key'])
        }
      })
    })

    describe('markers on a chart', () => {
      let chart: TenantRecord
      let chartViewer: string
      const ev: Record<string, EventRecord> = {}
      const res = { vm: '', db: '', rgDup1: '' }
      beforeAll(async () => {
        chart = await t.given.tenant(org)
        chartViewer = (await t.given.key(org, [{ tenancyId: chart.id, role: 'Viewer' }])).apiKey
        const seen = { firstSeenAt: '2026-02-01T00:00:00.000Z', lastSeenAt: '2026-03-01T00:00:00.000Z' }
        const k = t.db.kysely
        await k
          .insertInto('subscriptions')
          .values(
            ['sub-1', 'sub-2'].map((id) => ({
              tenantId: chart.id,
              subscriptionId: id,
              displayName: id,
              state: 'Enabled',
              currency: 'EUR',
              ...seen,
            })),
          )
          .execute()
        const group = (id: string, sub: string, name: string, tags: Record<string, string>) => ({
          id,
          tenantId: chart.id,
          subscriptionId: sub,
          name,
          nameLower: name.toLowerCase(),
          armId: `/subscriptions/${sub}/resourceGroups/${name}`,
          location: 'westeurope',
          tags: JSON.stringify(tags),
          ...seen,
        })
        const rgWeb = '0190a000-0000-7000-8000-000000000001'
        res.rgDup1 = '0190a000-0000-7000-8000-000000000002'
        await k
          .insertInto('resourceGroups')
          .values([
            group(rgWeb, 'sub-1', 'rg-Web', { Env: 'prod' }),
            group(res.rgDup1, 'sub-1', 'rg-shared', { team: 'a' }),
            group('0190a000-0000-7000-8000-000000000003', 'sub-2', 'RG-SHARED', { team: 'b' }),
          ])
          .execute()
        const resource = (id: string, name: string, tags: Record<string, string>) => ({
          id,
          tenantId: chart.id,
          subscriptionId: 'sub-1',
          resourceGroupId: rgWeb,
          resourceGroupName: 'rg-Web',
          armId: `/subscriptions/sub-1/resourceGroups/rg-Web/providers/Microsoft.Compute/virtualMachines/${name}`,
          armIdLower:
            `/subscriptions/sub-1/resourcegroups/rg-web/providers/microsoft.compute/virtualmachines/${name}`.toLowerCase(),
          name,
          resourceType: 'Microsoft.Compute/virtualMachines',
          location: 'westeurope',
          tags: JSON.stringify(tags),
          sku: 'Standard_D2s_v5',
          state: 'Running',
          ...seen,
        })
        res.vm = '0190a000-0000-7000-8000-0000000000a1'
        res.db = '0190a000-0000-7000-8000-0000000000a2'
        await k
          .insertInto('resources')
          .values([
            resource(res.vm, 'vm-checkout', { Service: 'checkout', env: 'prod' }),
            resource(res.db, 'vm-billing', { service: 'billing' }),
          ])
          .execute()
        const make = async (name: string, day: number, tag?: [string, string]) => {
          const body = deploy({ title: name, occurredAt: `2026-02-${String(day).padStart(2, '0')}T12:00:00Z` })
          ev[name] = await created(org.ownerKey, tag ? { ...body, tagKey: tag[0], tagValue: tag[1] } : body, chart.id)
        }
        await make('universal', 10)
        await make('service=checkout', 11, ['service', 'checkout'])
        await make('SERVICE=checkout', 12, ['SERVICE', 'checkout'])
        await make('service=Checkout', 13, ['service', 'Checkout'])
        await make('env=prod', 14, ['env', 'prod'])
        await make('team=x', 15, ['team', 'x'])
        await make('universal-late', 16)
      })
      const visible = (query: string, key = chartViewer) =>
        t.request(
          'GET',
          `${eventsOf(chart.id)}/visible?from=2026-02-01T00:00:00Z&to=2026-02-28T00:00:00Z&${query}`,
          key,
        )
      const titles = async (query: string) => {
        const r = await visible(query, org.ownerKey)
        expect(r.statusCode, r.body).toBe(200)
        return r.json().items.map((e: EventRecord) => e.title)
      }
      const all = [
        'universal',
        'service=checkout',
        'SERVICE=checkout',
        'service=Checkout',
        'env=prod',
        'team=x',
        'universal-late',
      ]

      it('broad charts (tenant, subscription) show every marker, oldest first', async () => {
        const r = await visible('scope=tenant')
        expect(r.statusCode, r.body).toBe(200)
        expect(r.json()).toMatchObject({
          scope: 'tenant',
          from: '2026-02-01T00:00:00.000Z',
          to: '2026-02-28T00:00:00.000Z',
          truncated: false,
        })
        expect(r.json().items[0]).toEqual(ev.universal)
        expect(await titles('scope=tenant')).toEqual(all)
        expect(await titles('scope=subscription:sub-1')).toEqual(all)
        expect(await titles('scope=subscription:SUB-1')).toEqual(all) // ids are recorded in lower case
      })

      it('a resource chart: universal markers, and tagged ones whose key (any case) and value (exact) it has', async () => {
        expect(await titles(`scope=resource:${res.vm}`)).toEqual([
          'universal',
          'service=checkout',
          'SERVICE=checkout',
          'env=prod',
          'universal-late',
        ])
        expect(await titles(`scope=resource:${res.db}`)).toEqual(['universal', 'universal-late'])
        const upper = await visible(`scope=resource:${res.vm.toUpperCase()}`)
        expect(upper.json().scope).toBe(`resource:${res.vm}`)
      })

      it('a resource-group chart uses the group’s own tags; its name matches in any case', async () => {
        expect(await titles('scope=resourceGroup:RG-WEB')).toEqual(['universal', 'env=prod', 'universal-late'])
        expect((await visible('scope=resourceGroup:RG-WEB')).json().scope).toBe('resourceGroup:RG-WEB')
      })

      it('a group name in several subscriptions is a 409 listing them; subscriptionId chooses', async () => {
        const problem = expectProblem(await visible('scope=resourceGroup:rg-shared'), 409)
        expect(problem.subscriptionIds).toEqual(['sub-1', 'sub-2'])
        expect(await titles('scope=resourceGroup:rg-shared&subscriptionId=sub-2')).toEqual([
          'universal',
          'universal-late',
        ])
      })

      it('from and to are inclusive; a marker deleted is gone from the chart', async () => {
        const r = await t.request(
          'GET',
          `${eventsOf(chart.id)}/visible?scope=tenant&from=2026-02-11T12:00:00Z&to=2026-02-13T12:00:00Z`,
          chartViewer,
        )
        expect(r.json().items.map((e: EventRecord) => e.title)).toEqual([
          'service=checkout',
          'SERVICE=checkout',
          'service=Checkout',
        ])
        expect((await t.request('DELETE', `${eventsOf(chart.id)}/${ev['team=x']!.id}`, org.ownerKey)).statusCode).toBe(
          204,
        )
        expect(await titles('scope=tenant')).not.toContain('team=x')
      })

      it('404 for an unknown subscription, group or resource; 400 for a malformed scope or range', async () => {
        expectProblem(await visible('scope=subscription:nope'), 404)
        expectProblem(await visible('scope=resourceGroup:nope'), 404)
        expectProblem(await visible('scope=resource:00000000-0000-4000-8000-000000000000'), 404)
        for (const scope of [
          '',
          'everything',
          'resource:vm-checkout',
          'resourceGroup:',
          'subscription',
          'Tenant',
          'site:x',
        ]) {
          const problem = expectProblem(await visible(`scope=${encodeURIComponent(scope)}`), 400)
          expect(Object.keys(problem.errors)).toEqual(['scope'])
        }
        const noScope = await t.request('GET', `${eventsOf(chart.id)}/visible`, chartViewer)
        expect(expectProblem(noScope, 400).errors).toEqual({ scope: ['is required'] })
        const backwards = await t.request(
          'GET',
          `${eventsOf(chart.id)}/visible?scope=tenant&from=2026-02-02T00:00:00Z&to=2026-02-01T00:00:00Z`,
          chartViewer,
        )
        expect(expectProblem(backwards, 400).errors).toEqual({ from: ['must not be after to'] })
      })

      it('from and to default to the 30 days up to now', async () => {
        t.clock.set('2026-03-10T12:00:00.000Z')
        const r = await t.request('GET', `${eventsOf(chart.id)}/visible?scope=tenant`, chartViewer)
        expect(r.json()).toMatchObject({ from: '2026-02-08T12:00:00.000Z', to: '2026-03-10T12:00:00.000Z' })
        expect(r.json().items.map((e: EventRecord) => e.title)).toEqual(all.filter((x) => x !== 'team=x'))
        t.clock.set('2026-03-01T09:00:00.000Z')
      })

      it('at most 1,000 markers, the oldest, with truncated set', async () => {
        const many = await t.given.tenant(org)
        const rows = Array.from({ length: 1005 }, (_, i) => ({
          id: `0190b000-0000-7000-8000-${String(i).padStart(12, '0')}`,
          tenantId: many.id,
          occurredAt: new Date(Date.UTC(2026, 1, 1) + i * 60_000).toISOString(),
          title: `m${i}`,
          category: 'Deployment',
          description: null,
          tagKey: i % 2 ? 'service' : null,
          tagValue: i % 2 ? 'other' : null,
          createdByType: 'ApiKey',
          createdById: keys.editorA.id,
          createdByName: 'ci editor A',
          createdAt: '2026-03-01T09:00:00.000Z',
          updatedAt: '2026-03-01T09:00:00.000Z',
        }))
        await t.db.kysely.insertInto('events').values(rows).execute()
        const r = await t.request(
          'GET',
          `${eventsOf(many.id)}/visible?scope=tenant&from=2026-02-01T00:00:00Z&to=2026-02-28T00:00:00Z`,
          keys.admin.apiKey,
        )
        expect(r.statusCode).toBe(404) // the admin key is scoped to another tenant
        const page = (
          await t.request(
            'GET',
            `${eventsOf(many.id)}/visible?scope=tenant&from=2026-02-01T00:00:00Z&to=2026-02-28T00:00:00Z`,
            org.ownerKey,
          )
        ).json()
        expect(page.items).toHaveLength(1000)
        expect(page.truncated).toBe(true)
        expect(page.items[0].title).toBe('m0')
        expect(page.items[999].title).toBe('m999')
      })

      it('a Viewer may look; the operation is in the OpenAPI document under Extensions', async () => {
        expect((await visible('scope=tenant', chartViewer)).statusCode).toBe(200)
        const doc = (await t.request('GET', `${API}/openapi.json`)).json()
        const op = doc.paths['/api/public/v1/tenants/{tenantId}/events/visible'].get
        expect(op).toMatchObject({ operationId: 'GetVisibleTenantEvents', tags: ['Extensions'] })
        const createOp = doc.paths['/api/public/v1/tenants/{tenantId}/events'].post
        expect(createOp.operationId).toBe('PublicCreateTenantEvent')
        expect(createOp.parameters).toContainEqual(
          expect.objectContaining({ in: 'header', name: 'idempotency-key', required: false }),
        )
        expect(Object.keys(createOp.responses)).toEqual(
          expect.arrayContaining(['201', '400', '403', '404', '409', '422']),
        )
        expect(Object.keys(createOp.responses)).not.toContain('501')
        const ids = Object.values(doc.paths).flatMap((p) =>
          Object.values(p as Record<string, { operationId: string }>).map((o) => o.operationId),
        )
        for (const id of [
          'PublicGetTenantEvents',
          'PublicCreateTenantEvent',
          'PublicGetTenantEvent',
          'PublicUpdateTenantEvent',
          'PublicDeleteTenantEvent',
        ]) {
          expect(ids.filter((x) => x === id)).toHaveLength(1)
        }
      })
    })
  })
}
