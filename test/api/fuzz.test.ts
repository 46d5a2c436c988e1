import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import type { TenantRecord } from '../../src/features/tenants/schemas.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { tableDump } from '../support/tables.js'

/**
 * Bad input on every operation of the OpenAPI document, generated: no 5xx, every error problem+json with a traceId
 * and the security headers, and not one row written. Every request carries at least one defect (a bad path
 * parameter, a bad query parameter, or a bad body), so none of them may succeed at writing anything.
 */
const API = '/api/public/v1'
const RUNS_PER_OPERATION = 12

interface Schema {
  type?: string | string[]
  enum?: unknown[]
  format?: string
  properties?: Record<string, Schema>
  $ref?: string
}
interface Parameter {
  in: 'path' | 'query' | 'header'
  name: string
  schema: Schema
}
interface Operation {
  method: string
  path: string
  parameters: Parameter[]
  body: Schema | null
}

/** Text that no parameter of this API takes as it is: wrong types, huge, odd unicode, near-UUIDs, bad enums. */
const badText = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
  fc.integer({ min: 1, max: 20_000 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom(
    '-1',
    '0',
    '1.5',
    '1e309',
    'NaN',
    'null',
    'true',
    '[]',
    '{}',
    '\u0000',
    '\u202e',
    '\ufeff',
    '𝕏',
    'e\u0301\u0301',
    '00000000-0000-0000-0000-00000000000g',
    '00000000000000000000000000000000',
    '{00000000-0000-4000-8000-000000000000}',
    'Deployment ',
    'HIGH',
    '../..',
    '%00',
    "' or 1=1 --",
  ),
  fc.uuid(),
)

/** Percent-encodes a value for a URL, keeping lone surrogates as the invalid UTF-8 they would be. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value)
  } catch {
    return value.replace(/[\ud800-\udfff]/g, '%ED%A0%80').replace(/[^%\w-]/g, (c) => encodeURIComponent(c))
  }
}

/** A bad value as it goes into a URL: encoded, or raw broken percent-encoding. */
const badSegment = fc.oneof(
  { weight: 5, arbitrary: badText.map(encode) },
  { weight: 1, arbitrary: fc.constantFrom('%zz', '%', '%E0%A4%A', '%C0%AF', '%ED%A0%80') },
)

const anyJson = fc.oneof(
  badText,
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
)

/** A value of another JSON type than the schema's. */
function wrongType(schema: Schema) {
  const types = [schema.type ?? []].flat()
  const options = [
    types.includes('string') ? null : fc.string({ maxLength: 10 }),
    types.includes('integer') || types.includes('number') ? null : fc.integer(),
    types.includes('boolean') ? null : fc.boolean(),
    types.includes('null') ? null : fc.constant(null),
    types.includes('array') ? null : fc.array(fc.integer(), { maxLength: 3 }),
    types.includes('object') ? null : fc.constant({ nested: true }),
  ].filter((o) => o !== null)
  return fc.oneof(...(options as fc.Arbitrary<unknown>[]))
}

/** A request body with at least one defect: malformed JSON, not an object, a wrong type, or an unknown field. */
function badBody(schema: Schema): fc.Arbitrary<{ payload: string; contentType: string }> {
  const properties = Object.entries(schema.properties ?? {})
  const json = (value: unknown) => ({ payload: JSON.stringify(value), contentType: 'application/json' })
  const filled = fc.record(Object.fromEntries(properties.map(([name]) => [name, anyJson])), { requiredKeys: [] })
  const defects: fc.Arbitrary<{ payload: string; contentType: string }>[] = [
    fc
      .constantFrom('{"name": ', '{', '[1,', '{"a":1}}', 'nul', "{'a': 1}", '{"a":"\\x"}', '\u0000', '{"a":1,}')
      .map((payload) => ({ payload, contentType: 'application/json' })),
    fc.oneof(fc.array(anyJson, { maxLength: 3 }), fc.integer(), fc.string(), fc.constant(null)).map(json),
    fc
      .tuple(filled, fc.string({ minLength: 1, maxLength: 12 }), anyJson)
      .filter(([, name]) => !(name in (schema.properties ?? {})) && name !== '__proto__')
      .map(([object, name, value]) => json({ ...object, [name]: value })),
    fc.record({ payload: fc.string({ maxLength: 30 }), contentType: fc.constantFrom('text/plain', 'application/xml') }),
  ]
  if (properties.length) {
    defects.push(
      fc
        .constantFrom(...properties)
        .chain(([name, property]) =>
          fc.tuple(filled, wrongType(property)).map(([object, value]) => json({ ...object, [name]: value })),
        ),
    )
  }
  return fc.oneof(...defects)
}

for (const dialect of testDialects()) {
  describe(`${dialect}: bad input, fuzzed over the OpenAPI document`, () => {
    const t = useTestApp({ dialect, env: { COSTWATCH_RATE_LIMIT: '100000' } })
    let org: OrgContext
    let tenant: TenantRecord
    let operations: Operation[]

    beforeAll(async () => {
      org = await t.given.organisation()
      tenant = await t.given.tenant(org)
      await t.request('POST', `${API}/tenants/${tenant.id}/events`, org.ownerKey, {
        title: 'Deploy 1',
        category: 'Deployment',
        occurredAt: '2026-02-27T10:00:00Z',
      })
      // The key's first use is recorded in the background: let it land before the tables are compared.
      await t.services.apiKeys.touchesSettled()
      expect((await t.services.apiKeys.list(org.organisationId))[0]?.lastUsedAt).not.toBeNull()
      const doc = (await t.request('GET', `${API}/openapi.json`)).json()
      const resolve = (schema: Schema): Schema =>
        schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema
      operations = Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(
        ([path, methods]) =>
          Object.entries(methods).map(([method, op]) => {
            const body = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content?.[
              'application/json'
            ]?.schema
            return {
              method: method.toUpperCase(),
              path,
              parameters: (op.parameters as Parameter[] | undefined) ?? [],
              body: body ? resolve(body) : null,
            }
          }),
      )
    })

    /** One request to `op` with at least one defect, the other parts well-formed (real ids where there are some). */
    function badRequest(op: Operation) {
      const path = op.parameters.filter((p) => p.in === 'path')
      const query = op.parameters.filter((p) => p.in === 'query')
      const places = [
        ...path.map((p) => `path:${p.name}`),
        ...query.map((p) => `query:${p.name}`),
        ...(op.body ? ['body'] : []),
      ]
      // An operation that takes no input gets unknown query parameters, which are ignored: then only a read may pass.
      if (places.length === 0) places.push('unknown query')
      const goodId = (name: string) => (name === 'tenantId' || name === 'tenancyId' ? tenant.id : null)
      return fc
        .record({
          defect: fc.constantFrom(...places),
          ids: fc.array(fc.uuid(), { minLength: path.length, maxLength: path.length }),
          pathValues: fc.array(badSegment, { minLength: path.length, maxLength: path.length }),
          queryValues: fc.array(fc.option(fc.oneof(badSegment, fc.constant('')), { nil: undefined }), {
            minLength: query.length,
            maxLength: query.length,
          }),
          badQueryValue: fc.oneof(badSegment, fc.constant('')),
          unknownQuery: fc.option(fc.tuple(fc.constantFrom('colour', 'x', 'page[size]', 'a.b'), badSegment)),
          body: op.body ? badBody(op.body) : fc.constant(null),
        })
        .map((r) => {
          let url = op.path
          path.forEach((p, i) => {
            const value = r.defect === `path:${p.name}` ? r.pathValues[i]! : (goodId(p.name) ?? r.ids[i]!)
            url = url.replace(`{${p.name}}`, value)
          })
          const params: string[] = []
          query.forEach((p, i) => {
            const value = r.defect === `query:${p.name}` ? r.badQueryValue : r.queryValues[i]
            if (value !== undefined) params.push(`${p.name}=${value}`)
          })
          if (r.defect === 'unknown query') params.push(`colour=${r.badQueryValue}`)
          if (r.unknownQuery) params.push(`${r.unknownQuery[0]}=${r.unknownQuery[1]}`)
          const body =
            r.defect === 'body' || r.body === null ? r.body : { payload: '{}', contentType: 'application/json' }
          return { defect: r.defect, method: op.method, url: params.length ? `${url}?${params.join('&')}` : url, body }
        })
    }

    it('no 5xx but 501, every error a problem with a traceId, nothing written', async () => {
      expect(operations.length).toBeGreaterThan(20)
      const before = await tableDump(t.db)
      const seen = new Map<number, number>()
      for (const op of operations) {
        await fc.assert(
          fc.asyncProperty(badRequest(op), async (req) => {
            const res = await t.app.inject({
              method: req.method as 'GET',
              url: req.url,
              headers: { 'x-api-key': org.ownerKey, ...(req.body ? { 'content-type': req.body.contentType } : {}) },
              ...(req.body ? { payload: req.body.payload } : {}),
            })
            const what = `${req.method} ${req.url.slice(0, 200)} (${req.defect}) -> ${res.statusCode} ${res.body.slice(0, 300)}`
            seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1)
            expect(res.statusCode >= 500 && res.statusCode !== 501, what).toBe(false)
            expect(res.headers['x-content-type-options'], what).toBe('nosniff')
            if (res.statusCode < 400) {
              // Only a read may succeed: a defect in a free-text parameter is a search that finds nothing.
              expect(req.method, what).toBe('GET')
              return
            }
            expect(res.headers['content-type'], what).toMatch(/^application\/problem\+json/)
            const problem = res.json()
            expect(problem, what).toMatchObject({
              status: res.statusCode,
              type: expect.stringMatching(/^\/problems\//),
            })
            expect(problem.traceId, what).toBe(res.headers['x-request-id'])
          }),
          { numRuns: RUNS_PER_OPERATION, seed: 20260301 + operations.indexOf(op) },
        )
      }
      expect(await tableDump(t.db)).toEqual(before)
      // The defects reached the validators, the router and the handlers' lookups alike.
      expect(
        [400, 404, 414].every((status) => seen.has(status)),
        JSON.stringify([...seen]),
      ).toBe(true)
    })
  })
}
