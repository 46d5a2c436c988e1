import { randomUUID } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { FROM_CLI } from '../../src/platform/audit.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { activeMember, asBrowser, type Browser, signIn } from '../support/members.js'

/**
 * One security suite for every operation of the OpenAPI document, so a new route gets it without a line here:
 * 401s alike whatever the cause, another organisation's ids indistinguishable from unknown ones, 403 for a role
 * too low exactly where the document says 403, and children of another tenant (or of another kind) 404. Keys made
 * by a user act within the user's current rights (a disabled creator: 401; a demoted one: the roles left), a
 * principal with no tenancy gets nothing (never a 500), and an item the key cannot see answers as an unknown id.
 * Operations that answer 501 (not built yet) take the 401 and 403 parts; the parts that need real items skip them.
 */

interface Schema {
  type?: string | string[]
  $ref?: string
  enum?: unknown[]
  anyOf?: Schema[]
  format?: string
  minLength?: number
  pattern?: string
  minimum?: number
  items?: Schema
  required?: string[]
  properties?: Record<string, Schema>
}
interface Operation {
  method: string
  path: string
  operationId: string
  statuses: Set<number>
  pathParams: string[]
  query: { name: string; schema: Schema }[]
  body?: Schema
  /** The media type of a body that is a file (an upload), not JSON. */
  file?: string
}
interface Doc {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string
        parameters?: { name: string; in: string; required?: boolean; schema: Schema }[]
        requestBody?: { content: { 'application/json': { schema: Schema } } }
        responses: Record<string, unknown>
      }
    >
  >
  components: { schemas: Record<string, Schema> }
}

/** What an operation taking a file is sent: a FOCUS header alone. */
const FILE_BODY = 'BilledCost,EffectiveCost\n'

/** The ids a request can name, by path parameter. */
type Ids = Record<string, string>

const API = '/api/public/v1'

function operationsOf(doc: Doc): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      operationId: op.operationId,
      statuses: new Set(Object.keys(op.responses).map(Number)),
      pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
      query: (op.parameters ?? []).filter((p) => p.in === 'query' && p.required),
      body: op.requestBody?.content['application/json']?.schema,
      file:
        op.requestBody && !op.requestBody.content['application/json']
          ? Object.keys(op.requestBody.content)[0]
          : undefined,
    })),
  )
}

/** A small valid value of a schema: required fields only (or the first field when none is required). */
function sample(schema: Schema, doc: Doc): unknown {
  if (schema.$ref) return sample(doc.components.schemas[schema.$ref.replace(/^#\/components\/schemas\//, '')]!, doc)
  if (schema.anyOf) return sample(schema.anyOf.find((s) => s.type !== 'null')!, doc)
  if (schema.enum) return schema.enum[0]
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type
  switch (type) {
    case 'object': {
      const properties = schema.properties ?? {}
      const names = schema.required?.length ? schema.required : Object.keys(properties).slice(0, 1)
      return Object.fromEntries(names.map((name) => [name, sample(properties[name]!, doc)]))
    }
    case 'string':
      if (schema.format === 'date-time') return '2026-02-27T12:00:00.000Z'
      if (schema.format === 'date') return '2026-02-27'
      if (schema.format === 'email') return 'someone@example.test'
      if (schema.format === 'uuid') return randomUUID()
      if (schema.pattern === '^[A-Z]{3}$') return 'USD' // a currency
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1))
    case 'integer':
    case 'number':
      return schema.minimum ?? 1
    case 'boolean':
      return false
    case 'array':
      return [sample(schema.items!, doc)]
    default:
      throw new Error(`No sample for schema ${JSON.stringify(schema)}`)
  }
}

/** The body without what names the request (traceId, instance) and with each id in it named by its parameter. */
function comparable(res: LightMyRequestResponse, ids: Ids): unknown {
  let text = res.body
  for (const [name, value] of Object.entries(ids)) text = text.replaceAll(value, `{${name}}`)
  const { traceId: _traceId, instance: _instance, ...rest } = JSON.parse(text)
  return rest
}

for (const dialect of testDialects()) {
  describe(`${dialect}: security of every documented operation`, () => {
    const t = useTestApp({ dialect })
    let doc: Doc
    let operations: Operation[]
    let org: OrgContext
    let other: OrgContext
    /** Ids of the tenant the keys act on, of a second tenant of the same organisation, and unknown ones. */
    let own: Ids
    let sibling: Ids
    let unknown: Ids
    let revokedKey: string
    let expiringKey: string
    let viewerKey: string
    /** Owner keys made in the web interface by owners since disabled, demoted to a Viewer of the own tenant, and
     * demoted with no role left. */
    let disabledCreatorKey: string
    let demotedCreatorKey: string
    let emptyKey: string
    /** A signed-in member with no role. */
    let emptyBrowser: Browser
    let address = 0

    /** One request; each from its own client address, so a limit on failed authentications never answers first. */
    function call(op: Operation, ids: Ids, key: string | null, more: Ids = {}): Promise<LightMyRequestResponse> {
      const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
        const value = ids[name]
        if (value === undefined) throw new Error(`${op.operationId}: no id for {${name}}`)
        return encodeURIComponent(value)
      })
      const query = new URLSearchParams(
        op.query.map((q): [string, string] => [q.name, String(sample(q.schema, doc))]).concat(Object.entries(more)),
      ).toString()
      address++
      return t.app.inject({
        method: op.method as 'GET',
        url: query ? `${path}?${query}` : path,
        remoteAddress: `10.0.${address >> 8}.${address & 255}`,
        headers: { ...(key ? { 'x-api-key': key } : {}), ...(op.file ? { 'content-type': op.file } : {}) },
        ...(op.body ? { payload: sample(op.body, doc) as object } : {}),
        ...(op.file ? { payload: FILE_BODY } : {}),
      })
    }
    /** The operation's request in the web interface's API, as a signed-in browser sends it. */
    function callApp(op: Operation, ids: Ids, browser: Browser): Promise<LightMyRequestResponse> {
      const path = op.path
        .replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(ids[name]!))
        .replace(API, '/api/app')
      const query = new URLSearchParams(
        op.query.map((q): [string, string] => [q.name, String(sample(q.schema, doc))]),
      ).toString()
      return asBrowser(t, browser, op.method as 'GET', query ? `${path}?${query}` : path)
    }
    /** An owner key made in the web interface by a new owner, who is then changed by `after`. */
    async function keyOfOwner(email: string, after: (userId: string) => Promise<void>): Promise<string> {
      const user = await activeMember(t, org, email, { owner: true })
      const made = await asBrowser(t, await signIn(t, email), 'POST', '/api/app/keys', { name: email, scope: 'owner' })
      expect(made.statusCode, made.body).toBe(201)
      await after(user.id)
      return made.json().apiKey
    }
    const changeUser = async (userId: string, body: object) => {
      const res = await t.request('PATCH', `${API}/users/${userId}`, org.ownerKey, body)
      expect(res.statusCode, res.body).toBe(200)
    }
    /** An anomaly of the tenant, as detection writes one. */
    async function anomalyOf(tenantId: string): Promise<string> {
      const id = randomUUID()
      await t.db.kysely
        .insertInto('anomalies')
        .values({
          id,
          organisationId: org.organisationId,
          tenantId,
          scopeKey: 'tenant',
          scopeKind: 'Tenant',
          subscriptionId: null,
          resourceGroupName: null,
          resourceId: null,
          serviceName: null,
          dateRaised: '2026-02-27',
          severity: 'High',
          status: 'New',
          expectedCost: 10,
          actualCost: 30,
          impact: 20,
          impactPercent: 200,
          currency: 'USD',
          description: 'Cost of the tenant was 30.00 USD against 10.00 USD expected (+200%).',
          detectedAt: '2026-02-28T06:00:00.000Z',
          updatedAt: '2026-02-28T06:00:00.000Z',
          statusChangedAt: null,
          statusChangedByType: null,
          statusChangedById: null,
          statusChangedByName: null,
        })
        .execute()
      return id
    }
    const name = (op: Operation) => `${op.method} ${op.path} (${op.operationId})`
    const planned = (op: Operation) => op.statuses.has(501)

    /** A tenant with collected inventory, a snapshot run, its insights, a report of it with a run, and an event, by the ids its paths take. */
    async function populatedTenant(): Promise<Ids> {
      const tenant = await t.given.tenant(org)
      const run = await t.services.snapshots.trigger(org.owner, tenant.id, false)
      const report = await t.services.reports.create(org.owner, {
        name: 'Top resources',
        kind: 'TopResources',
        tenancyIds: [tenant.id],
      })
      const reportRun = await t.services.reports.trigger(org.owner, report.id)
      while (await t.worker().runOnce()) {}
      const first = async (list: string) =>
        (await t.request('GET', `${API}/tenants/${tenant.id}/${list}?pageSize=200`, org.ownerKey)).json().items
      const [subscription] = await first('subscriptions')
      const [resource] = await first('resources')
      const groups: { name: string }[] = await first('resource-groups')
      const insights = await t.request('GET', `${API}/insights?tenancyId=${tenant.id}&pageSize=1`, org.ownerKey)
      const [insight] = insights.json().items
      const event = await t.request('POST', `${API}/tenants/${tenant.id}/events`, org.ownerKey, {
        title: 'Deploy',
        category: 'Deployment',
        occurredAt: '2026-02-27T12:00:00.000Z',
      })
      expect(event.statusCode, event.body).toBe(201)
      return {
        tenantId: tenant.id,
        tenancyId: tenant.id,
        snapshotId: run.id,
        subscriptionId: subscription.subscriptionId,
        resourceId: resource.id,
        resourceGroupName: groups.map((g) => g.name).join('\n'), // narrowed below to a name of this tenant only
        eventId: event.json().id,
        insightId: insight.id,
        reportId: report.id,
        runId: reportRun.id,
      }
    }

    beforeAll(async () => {
      doc = (await t.request('GET', `${API}/openapi.json`)).json()
      operations = operationsOf(doc)
      org = await t.given.organisation('Keyholder')
      other = await t.given.organisation('Stranger')
      own = await populatedTenant()
      sibling = await populatedTenant()
      // A group name the sibling has and the own tenant does not, so it names nothing under the own tenant.
      const ownGroups = own.resourceGroupName!.split('\n')
      own.resourceGroupName = ownGroups[0]!
      sibling.resourceGroupName = sibling.resourceGroupName!.split('\n').find((n) => !ownGroups.includes(n))!
      expect(sibling.resourceGroupName).toBeTruthy()
      Object.assign(own, { anomalyId: await anomalyOf(own.tenantId!), userId: org.ownerId })
      // Users belong to the organisation, not to a tenant: "of the sibling" is a user of another organisation.
      Object.assign(sibling, { anomalyId: await anomalyOf(sibling.tenantId!), userId: other.ownerId })
      // Channels belong to the organisation too: "of the sibling" is another organisation's channel.
      const channelOf = async (of: OrgContext) =>
        (
          await t.services.channels.create(of.organisationId, FROM_CLI, {
            name: 'On-call',
            type: 'Webhook',
            url: 'https://hooks.example.com/cw',
          })
        ).id
      Object.assign(own, { channelId: await channelOf(org) })
      Object.assign(sibling, { channelId: await channelOf(other) })
      // A delivery of each channel (its test message), for the delivery log's paths.
      const deliveryOf = async (of: OrgContext, channelId: string) => {
        const res = await t.request('POST', `${API}/notification-channels/${channelId}/test`, of.ownerKey)
        expect(res.statusCode, res.body).toBe(202)
        return res.json().deliveryId as string
      }
      Object.assign(own, { deliveryId: await deliveryOf(org, own.channelId!) })
      Object.assign(sibling, { deliveryId: await deliveryOf(other, sibling.channelId!) })
      // Alert rules cover tenancies: the own tenant's rule, and one of the sibling tenant.
      const ruleOf = async (tenancyId: string) =>
        (
          await t.services.alerts.create(org.owner, FROM_CLI, {
            name: 'Rule',
            channelIds: [own.channelId!],
            scope: { tenancyIds: [tenancyId] },
            trigger: { type: 'AnomalyRaised' },
          })
        ).id
      Object.assign(own, { ruleId: await ruleOf(own.tenantId!) })
      Object.assign(sibling, { ruleId: await ruleOf(sibling.tenantId!) })
      // Budgets cover tenancies too: the own tenant's budget, and one of the sibling tenant.
      const budgetOf = async (tenancyId: string) =>
        (
          await t.services.budgets.create(org.owner, FROM_CLI, {
            name: 'Budget',
            scope: { tenancyIds: [tenancyId] },
            period: 'Monthly',
            amount: 1000,
            currency: 'USD',
          })
        ).id
      Object.assign(own, { budgetId: await budgetOf(own.tenantId!) })
      Object.assign(sibling, { budgetId: await budgetOf(sibling.tenantId!) })
      // One unknown id for each own one (tenantId and tenancyId name the same tenant).
      const fresh = new Map<string, string>()
      unknown = Object.fromEntries(
        Object.entries(own).map(([k, v]) => {
          if (!fresh.has(v)) fresh.set(v, k === 'resourceGroupName' ? 'rg-nowhere' : randomUUID())
          return [k, fresh.get(v)!]
        }),
      )
      const revoked = await t.given.key(org, null, { name: 'revoked' })
      await t.services.apiKeys.revoke(org.organisationId, revoked.id)
      revokedKey = revoked.apiKey
      expiringKey = (await t.given.key(org, null, { name: 'expiring', expiresAt: '2026-03-01T10:00:00.000Z' })).apiKey
      viewerKey = (await t.given.key(org, [{ tenancyId: own.tenantId!, role: 'Viewer' }], { name: 'viewer' })).apiKey
      disabledCreatorKey = await keyOfOwner('disabled@keyholder.test', (id) =>
        changeUser(id, { isDisabled: true, isOwner: false }),
      )
      demotedCreatorKey = await keyOfOwner('demoted@keyholder.test', async (id) => {
        const granted = await t.request('PUT', `${API}/tenancies/${own.tenantId}/users/${id}`, org.ownerKey, {
          role: 'Viewer',
        })
        expect(granted.statusCode, granted.body).toBe(200)
        await changeUser(id, { isOwner: false })
      })
      emptyKey = await keyOfOwner('emptied@keyholder.test', (id) => changeUser(id, { isOwner: false }))
      emptyBrowser = await signIn(t, (await activeMember(t, org, 'nobody@keyholder.test')).email)
    })

    it('covers every operation of the document', () => {
      expect(operations.length).toBeGreaterThanOrEqual(39)
      expect(operations.filter((op) => op.pathParams.length > 0).length).toBeGreaterThan(20)
    })

    it('401 with one body for no key, a revoked key and an expired key, on every operation', async () => {
      t.clock.set('2026-03-01T10:00:00.000Z') // the expiring key's expiry instant
      try {
        const bodies = new Set<string>()
        for (const op of operations) {
          for (const [cause, key] of [
            ['no key', null],
            ['revoked', revokedKey],
            ['expired', expiringKey],
            ['made by a user since disabled', disabledCreatorKey],
          ] as const) {
            const res = await call(op, own, key)
            expect(res.statusCode, `${name(op)}, ${cause}: ${res.body}`).toBe(401)
            expect(res.headers['content-type'], name(op)).toMatch(/^application\/problem\+json/)
            bodies.add(JSON.stringify(comparable(res, own)))
          }
        }
        expect([...bodies]).toHaveLength(1)
      } finally {
        t.clock.set('2026-03-01T09:00:00.000Z')
      }
    })

    it("answers another organisation's ids exactly as unknown ones (404 once built)", async () => {
      for (const op of operations.filter((o) => o.pathParams.length > 0)) {
        const foreign = await call(op, own, other.ownerKey)
        const random = await call(op, unknown, other.ownerKey)
        expect(foreign.statusCode, `${name(op)}: ${foreign.body}`).toBe(random.statusCode)
        expect(comparable(foreign, own), name(op)).toEqual(comparable(random, unknown))
        if (!planned(op)) expect(foreign.statusCode, name(op)).toBe(404)
      }
    })

    it('403 for a role too low exactly where the document lists 403 (a Viewer key, a demoted owner’s owner key)', async () => {
      for (const op of operations) {
        for (const [what, key] of [
          ['a Viewer key', viewerKey],
          ['the owner key of an owner demoted to Viewer', demotedCreatorKey],
        ] as const) {
          const res = await call(op, own, key)
          if (op.statuses.has(403)) {
            expect(res.statusCode, `${name(op)} with ${what}: ${res.body}`).toBe(403)
            expect(res.json().type, name(op)).toBe('/problems/forbidden')
          } else {
            expect(res.statusCode, `${name(op)} with ${what}: ${res.body}`).not.toBe(403)
          }
        }
      }
    })

    it('a principal with no tenancy reads nothing on every GET: 200 with nothing in it, or 404, never a 500', async () => {
      const ownIds = Object.values(own).filter((v) => /^[0-9a-f-]{36}$/.test(v))
      for (const op of operations.filter((o) => o.method === 'GET')) {
        for (const [what, res] of [
          ['a key whose creator has no role left', await call(op, own, emptyKey)],
          ['a signed-in member with no role', await callApp(op, own, emptyBrowser)],
        ] as const) {
          const allowed = [200, 404, ...(op.statuses.has(403) ? [403] : []), ...(planned(op) ? [501] : [])]
          expect(allowed, `${name(op)} as ${what}: ${res.statusCode} ${res.body}`).toContain(res.statusCode)
          if (res.statusCode !== 200) continue
          const body = res.json()
          if (Array.isArray(body.items)) expect(body.items, `${name(op)} as ${what}`).toEqual([])
          for (const id of ownIds) expect(res.body, `${name(op)} as ${what}`).not.toContain(id)
        }
      }
    })

    it('an item of a tenancy the key cannot see answers exactly as an unknown id, whatever its roles elsewhere', async () => {
      // Items named without their tenancy (users are the organisation's).
      const items = operations.filter(
        (op) => op.pathParams.length > 0 && !op.pathParams.some((p) => ['tenantId', 'tenancyId'].includes(p)),
      )
      expect(items.length).toBeGreaterThan(6)
      const wide = await t.services.reports.create(org.owner, {
        name: 'Everything',
        kind: 'TopResources',
        tenancyIds: null,
      })
      const wideRun = await t.services.reports.trigger(org.owner, wide.id)
      // A run over both tenants, read after its report was narrowed to the own one: the run still covers the sibling.
      const narrowed = await t.services.reports.create(org.owner, {
        name: 'Both, then one',
        kind: 'TopResources',
        tenancyIds: [own.tenantId!, sibling.tenantId!],
      })
      const oldRun = await t.services.reports.trigger(org.owner, narrowed.id)
      const narrow = await t.request('PATCH', `${API}/reports/${narrowed.id}`, org.ownerKey, {
        tenancyIds: [own.tenantId],
      })
      expect(narrow.statusCode, narrow.body).toBe(200)
      // Admin of every tenancy but no owner: an operation refusing it an unknown id is for owners only, a 403 to
      // any other key whatever the id; every other one answers an item it cannot see 404.
      const adminKey = (
        await t.given.key(org, [
          { tenancyId: own.tenantId!, role: 'Admin' },
          { tenancyId: sibling.tenantId!, role: 'Admin' },
        ])
      ).apiKey
      for (const op of items) {
        const ownersOnly = (await call(op, unknown, adminKey)).statusCode === 403
        for (const [what, key, hidden] of [
          ["a Viewer key, the sibling tenant's item", viewerKey, sibling],
          ["a key with no tenancy, the own tenant's item", emptyKey, own],
          ['a Viewer key, an organisation-wide report', viewerKey, { ...own, reportId: wide.id, runId: wideRun.id }],
          [
            'a Viewer key, a run of a tenant since taken off its report',
            viewerKey,
            { ...own, reportId: narrowed.id, runId: oldRun.id },
          ],
        ] as const) {
          // The organisation-wide report is the one hidden item of the third case, the old run of the fourth.
          if (what.endsWith('report') && !op.pathParams.includes('reportId')) continue
          if (what.endsWith('its report') && !op.pathParams.includes('runId')) continue
          const seen = await call(op, hidden, key)
          const random = await call(op, unknown, key)
          expect(seen.statusCode, `${name(op)}, ${what}: ${seen.body}`).toBe(random.statusCode)
          expect(comparable(seen, hidden), `${name(op)}, ${what}`).toEqual(comparable(random, unknown))
          if (!ownersOnly) expect(random.statusCode, `${name(op)}, ${what}`).toBe(404)
        }
      }
    })

    it('400 for a control character in any path or query parameter, on every operation', async () => {
      const controls = ['\u0000', '\u0001', '\n', '\u001f', '\u007f']
      let checked = 0
      for (const op of operations) {
        const query = doc.paths[op.path]![op.method.toLowerCase()]!.parameters?.filter((p) => p.in === 'query') ?? []
        for (const [i, place] of [...op.pathParams, ...query.map((q) => q.name)].entries()) {
          const bad = controls[i % controls.length]!
          const inPath = i < op.pathParams.length
          const res = inPath
            ? await call(op, { ...own, [place]: `${own[place]}${bad}x` }, org.ownerKey)
            : await call(op, own, org.ownerKey, { [place]: `x${bad}` })
          const what = `${name(op)}: {${place}} with U+${bad.charCodeAt(0).toString(16).padStart(4, '0')}: ${res.body}`
          expect(res.statusCode, what).toBe(400)
          expect(res.json().errors?.[place], what).toEqual(['must not contain control characters'])
          checked++
        }
      }
      expect(checked).toBeGreaterThan(60)
    })

    it("404 for a child of another tenant, or of another kind, under this tenant's path", async () => {
      const kinds = ['snapshotId', 'eventId', 'resourceId', 'subscriptionId', 'runId']
      const nested = operations.filter((op) => op.pathParams.length > 1 && !planned(op))
      expect(nested.length).toBeGreaterThan(4)
      for (const op of nested) {
        // The own ids are found: the 404s below come from the child, not from a bad fixture.
        if (op.method === 'GET')
          expect([401, 403, 404], name(op)).not.toContain((await call(op, own, org.ownerKey)).statusCode)
        for (const child of op.pathParams.slice(1)) {
          const anotherKind = own[kinds.find((k) => k !== child)!]!
          const wrong: [string, string][] = [
            ['of the sibling tenant', sibling[child]!],
            ['of another kind', anotherKind],
          ]
          for (const [what, value] of wrong) {
            const res = await call(op, { ...own, [child]: value }, org.ownerKey)
            expect(res.statusCode, `${name(op)}: {${child}} ${what}: ${res.body}`).toBe(404)
          }
        }
      }
    })
  })
}
