import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { auditLogOf } from '../support/audit-log.js'
import { testDialects } from '../support/dialects.js'
import { asBrowser, signInOwner } from '../support/members.js'
import { givenChannel } from './support.js'

const API = '/api/public/v1'
const APP = '/api/app'

for (const dialect of testDialects()) {
  describe(`${dialect}: notification rules`, () => {
    const t = useTestApp({ dialect })
    let org: OrgContext
    let other: OrgContext
    let t1: TenantRecord
    let t2: TenantRecord
    let channel: string
    let otherChannel: string
    let adminT1: string
    let viewerT1: string
    let adminBoth: string

    const payments = () => ({
      name: 'Payments',
      channelIds: [channel],
      scope: { tenancyIds: [t1.id], tags: [{ key: 'team', value: 'payments' }], resourceGroup: null, service: null },
      trigger: { type: 'AnomalyRaised', minImpact: 100, minImpactPercent: 50, combine: 'any', minSeverity: null },
      frequency: 'Immediate',
      timeZone: 'Europe/Berlin',
    })

    beforeAll(async () => {
      org = await t.given.organisation()
      other = await t.given.organisation('Other')
      t1 = await t.given.tenant(org)
      t2 = await t.given.tenant(org)
      channel = await givenChannel(t, org)
      otherChannel = await givenChannel(t, other)
      adminT1 = (await t.given.key(org, [{ tenancyId: t1.id, role: 'Admin' }])).apiKey
      viewerT1 = (await t.given.key(org, [{ tenancyId: t1.id, role: 'Viewer' }])).apiKey
      adminBoth = (
        await t.given.key(org, [
          { tenancyId: t1.id, role: 'Admin' },
          { tenancyId: t2.id, role: 'Admin' },
        ])
      ).apiKey
    })

    it('creates a rule with the defaults and reads, lists, changes and deletes it', async () => {
      const created = await t.request('POST', `${API}/notification-rules`, org.ownerKey, payments())
      expect(created.statusCode, created.body).toBe(201)
      const rule = created.json()
      expect(created.headers.location).toBe(`${API}/notification-rules/${rule.id}`)
      expect(rule).toMatchObject({
        name: 'Payments',
        enabled: true,
        channelIds: [channel],
        scope: { tenancyIds: [t1.id], tags: [{ key: 'team', value: 'payments' }], resourceGroup: null, service: null },
        trigger: { type: 'AnomalyRaised', minImpact: 100, minImpactPercent: 50, combine: 'any', minSeverity: null },
        frequency: 'Immediate',
        digestHour: 8,
        digestWeekday: 'Monday',
        timeZone: 'Europe/Berlin',
        sendWhenQuiet: false,
      })
      const got = await t.request('GET', `${API}/notification-rules/${rule.id}`, org.ownerKey)
      expect(got.json()).toEqual(rule)
      // The web interface's API serves the same.
      const listed = await t.request('GET', `${API}/notification-rules`, org.ownerKey)
      expect(listed.json().items.map((r: { id: string }) => r.id)).toContain(rule.id)

      const patched = await t.request('PATCH', `${API}/notification-rules/${rule.id}`, org.ownerKey, {
        name: 'Payments, daily',
        frequency: 'Daily',
        digestHour: 7,
        enabled: false,
      })
      expect(patched.statusCode, patched.body).toBe(200)
      expect(patched.json()).toMatchObject({
        name: 'Payments, daily',
        frequency: 'Daily',
        digestHour: 7,
        enabled: false,
      })
      expect(patched.json().trigger).toEqual(rule.trigger)

      const deleted = await t.request('DELETE', `${API}/notification-rules/${rule.id}`, org.ownerKey)
      expect(deleted.statusCode).toBe(204)
      expect((await t.request('GET', `${API}/notification-rules/${rule.id}`, org.ownerKey)).statusCode).toBe(404)

      // Each change is in the audit log, by name, with the fields a change named.
      const auditOf = auditLogOf(t, org)
      const [createdEntry] = await auditOf('notificationRule.created')
      expect(createdEntry).toMatchObject({
        target: { type: 'NotificationRule', id: rule.id },
        detail: { name: 'Payments' },
      })
      const [updatedEntry] = await auditOf('notificationRule.updated')
      expect(updatedEntry).toMatchObject({
        target: { id: rule.id },
        detail: { name: 'Payments, daily', changed: 'digestHour, enabled, frequency, name' },
      })
      const [deletedEntry] = await auditOf('notificationRule.deleted')
      expect(deletedEntry).toMatchObject({ target: { id: rule.id }, detail: { name: 'Payments, daily' } })
    })

    it('fills each trigger type with its defaults: a Digest is Daily unless told', async () => {
      const digest = await t.request('POST', `${API}/notification-rules`, org.ownerKey, {
        name: 'Weekly summary',
        channelIds: [channel],
        scope: { tenancyIds: null },
        trigger: { type: 'Digest' },
      })
      expect(digest.statusCode, digest.body).toBe(201)
      expect(digest.json()).toMatchObject({ frequency: 'Daily', trigger: { type: 'Digest' }, timeZone: 'UTC' })
      const insight = await t.request('POST', `${API}/notification-rules`, org.ownerKey, {
        name: 'Savings',
        channelIds: [channel],
        scope: { tenancyIds: [t2.id] },
        trigger: { type: 'InsightFound', minMonthlySavings: 50 },
      })
      expect(insight.json().trigger).toEqual({ type: 'InsightFound', minMonthlySavings: 50 })
      const watched = await t.request('POST', `${API}/budgets`, org.ownerKey, {
        name: 'Everything',
        scope: { tenancyIds: null },
        period: 'Monthly',
        amount: 1000,
        currency: 'USD',
      })
      expect(watched.statusCode, watched.body).toBe(201)
      const budget = await t.request('POST', `${API}/notification-rules`, org.ownerKey, {
        name: 'Budgets',
        channelIds: [channel],
        scope: { tenancyIds: null },
        trigger: { type: 'BudgetThreshold', budgetIds: [watched.json().id] },
      })
      expect(budget.statusCode, budget.body).toBe(201)
      // An AnomalyRaised trigger without thresholds alerts about every anomaly.
      const every = await t.request('POST', `${API}/notification-rules`, org.ownerKey, {
        name: 'Everything',
        channelIds: [channel],
        scope: { tenancyIds: null },
        trigger: { type: 'AnomalyRaised' },
      })
      expect(every.json().trigger).toEqual({
        type: 'AnomalyRaised',
        minImpact: null,
        minImpactPercent: null,
        combine: 'any',
        minSeverity: null,
      })
    })

    it('refuses bad input with a 400 naming the field, and saves nothing', async () => {
      const before = (await t.request('GET', `${API}/notification-rules?pageSize=200`, org.ownerKey)).json().totalCount
      const cases: [Record<string, unknown>, string, string?][] = [
        [{ channelIds: [otherChannel] }, 'channelIds', 'is not a notification channel of this organisation'],
        [{ channelIds: [randomUUID()] }, 'channelIds'],
        [{ scope: { tenancyIds: [randomUUID()] } }, 'scope.tenancyIds', 'is not a tenancy of this organisation'],
        [{ trigger: { type: 'AnomalyRaised', minMonthlySavings: 5 } }, 'trigger.minMonthlySavings'],
        [{ trigger: { type: 'Digest', minImpact: 5 } }, 'trigger.minImpact'],
        [{ trigger: { type: 'InsightFound', combine: 'all' } }, 'trigger.combine'],
        [{ timeZone: 'Mars/Olympus' }, 'timeZone', 'is not an IANA time zone'],
        [{ digestHour: 9 }, 'digestHour', 'only allowed with frequency Daily or Weekly'],
        [{ sendWhenQuiet: true }, 'sendWhenQuiet'],
        [{ frequency: 'Daily', digestWeekday: 'Friday' }, 'digestWeekday', 'only allowed with frequency Weekly'],
        [{ trigger: { type: 'Digest' }, frequency: 'Immediate' }, 'frequency', 'needs Daily or Weekly'],
        [{ name: '   ' }, 'name'],
        [
          { trigger: { type: 'BudgetThreshold', budgetIds: [randomUUID()] } },
          'trigger.budgetIds',
          'is not a budget of this organisation',
        ],
        [{ trigger: { type: 'BudgetThreshold' }, frequency: 'Daily' }, 'frequency', 'once a period'],
      ]
      for (const [change, field, words] of cases) {
        const res = await t.request('POST', `${API}/notification-rules`, org.ownerKey, { ...payments(), ...change })
        expect(res.statusCode, `${JSON.stringify(change)}: ${res.body}`).toBe(400)
        const errors = res.json().errors as Record<string, string[]>
        expect(Object.keys(errors), res.body).toContain(field)
        if (words) expect(errors[field]!.join(' ')).toContain(words)
      }
      // What the schema refuses (an unknown field, a budget that is no id) is a 400 too.
      const schema = await t.request('POST', `${API}/notification-rules`, org.ownerKey, {
        ...payments(),
        trigger: { type: 'BudgetThreshold', budgetIds: ['nope'] },
      })
      expect(schema.statusCode).toBe(400)
      const after = (await t.request('GET', `${API}/notification-rules?pageSize=200`, org.ownerKey)).json().totalCount
      expect(after).toBe(before)
    })

    it("a tenancy's Admins manage its rules, its Viewers read them; organisation-wide rules are the owners'", async () => {
      const asAdmin = await t.request('POST', `${API}/notification-rules`, adminT1, payments())
      expect(asAdmin.statusCode, asAdmin.body).toBe(201)
      const rule = asAdmin.json()
      expect((await t.request('GET', `${API}/notification-rules/${rule.id}`, viewerT1)).statusCode).toBe(200)
      const viewerList = (await t.request('GET', `${API}/notification-rules?pageSize=200`, viewerT1)).json()
      expect(viewerList.items.map((r: { id: string }) => r.id)).toContain(rule.id)
      // A Viewer reads, but neither changes nor deletes nor creates.
      const viewerPatch = await t.request('PATCH', `${API}/notification-rules/${rule.id}`, viewerT1, { name: 'x' })
      expect(viewerPatch.statusCode).toBe(403)
      expect((await t.request('DELETE', `${API}/notification-rules/${rule.id}`, viewerT1)).statusCode).toBe(403)
      expect((await t.request('POST', `${API}/notification-rules`, viewerT1, payments())).statusCode).toBe(403)

      // The Admin of T1 alone cannot widen the rule to T2, nor to the whole organisation.
      const widen = await t.request('PATCH', `${API}/notification-rules/${rule.id}`, adminT1, {
        scope: { tenancyIds: [t1.id, t2.id] },
      })
      expect(widen.statusCode, widen.body).toBe(403)
      const orgWide = await t.request('POST', `${API}/notification-rules`, adminT1, {
        ...payments(),
        scope: { tenancyIds: null },
      })
      expect(orgWide.statusCode, orgWide.body).toBe(403)
      expect(orgWide.json().detail).toContain('owner')

      // A rule over T1 and T2: the Admin of both manages it; the Admin of T1 alone does not see it.
      const both = await t.request('POST', `${API}/notification-rules`, adminBoth, {
        ...payments(),
        name: 'Both',
        scope: { tenancyIds: [t1.id, t2.id] },
      })
      expect(both.statusCode, both.body).toBe(201)
      expect((await t.request('GET', `${API}/notification-rules/${both.json().id}`, adminT1)).statusCode).toBe(404)
      const adminList = (await t.request('GET', `${API}/notification-rules?pageSize=200`, adminT1)).json()
      const names = adminList.items.map((r: { name: string }) => r.name)
      expect(names).not.toContain('Both')
      expect(names).not.toContain('Weekly summary') // organisation-wide
      expect(
        adminList.items.every((r: { scope: { tenancyIds: string[] } }) => r.scope.tenancyIds.includes(t1.id)),
      ).toBe(true)
      expect((await t.request('DELETE', `${API}/notification-rules/${both.json().id}`, adminBoth)).statusCode).toBe(204)
      expect((await t.request('DELETE', `${API}/notification-rules/${rule.id}`, adminT1)).statusCode).toBe(204)
    })

    it('the preview checks its rule like a creation, and previews nothing for a trigger other than AnomalyRaised', async () => {
      const unknown = await t.request('POST', `${API}/notification-rules/preview`, org.ownerKey, {
        scope: { tenancyIds: [randomUUID()] },
        trigger: { type: 'AnomalyRaised' },
      })
      expect(unknown.statusCode).toBe(400)
      expect(Object.keys(unknown.json().errors)).toEqual(['scope.tenancyIds'])
      const foreign = await t.request('POST', `${API}/notification-rules/preview`, org.ownerKey, {
        scope: { tenancyIds: null },
        trigger: { type: 'AnomalyRaised', minMonthlySavings: 3 },
      })
      expect(foreign.statusCode).toBe(400)
      expect(Object.keys(foreign.json().errors)).toEqual(['trigger.minMonthlySavings'])
      const digest = await t.request('POST', `${API}/notification-rules/preview`, viewerT1, {
        scope: { tenancyIds: [t1.id] },
        trigger: { type: 'Digest' },
      })
      expect(digest.statusCode, digest.body).toBe(200)
      expect(digest.json()).toMatchObject({ count: 0, items: [] })
    })

    it("another organisation's rules are unknown", async () => {
      const mine = await t.request('POST', `${API}/notification-rules`, org.ownerKey, payments())
      const id = mine.json().id
      expect((await t.request('GET', `${API}/notification-rules/${id}`, other.ownerKey)).statusCode).toBe(404)
      expect(
        (await t.request('PATCH', `${API}/notification-rules/${id}`, other.ownerKey, { name: 'x' })).statusCode,
      ).toBe(404)
      expect((await t.request('DELETE', `${API}/notification-rules/${id}`, other.ownerKey)).statusCode).toBe(404)
      const list = (await t.request('GET', `${API}/notification-rules`, other.ownerKey)).json()
      expect(list.totalCount).toBe(0)
    })

    it('the web interface manages the same rules under /api/app, with its session', async () => {
      const { cookie, csrf } = await signInOwner(t, org)
      const browser = { cookie: cookie.value, csrf }
      const created = await asBrowser(t, browser, 'POST', `${APP}/notification-rules`, { ...payments(), name: 'Web' })
      expect(created.statusCode, created.body).toBe(201)
      const viaKey = await t.request('GET', `${API}/notification-rules/${created.json().id}`, org.ownerKey)
      expect(viaKey.json()).toEqual(created.json())
      const listed = await asBrowser(t, browser, 'GET', `${APP}/notification-rules?pageSize=200`)
      expect(listed.json().items.map((r: { name: string }) => r.name)).toContain('Web')
    })
  })
}
