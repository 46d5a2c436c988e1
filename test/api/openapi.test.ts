import { readFileSync } from 'node:fs'
import { Validator } from '@seriousme/openapi-schema-validator'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../support/app.js'

interface SpecOperation {
  operationId: string
  method: string
  path: string
  query: string[]
  hasBody: boolean
}

/** The specification's endpoint table (section 4.2), parsed from a verbatim copy. */
function specOperations(): SpecOperation[] {
  const table = readFileSync(new URL('../fixtures/spec-operations.md', import.meta.url), 'utf8')
  return table
    .split('\n')
    .filter((line) => /^\| Public/.test(line))
    .map((line) => {
      const [operationId, methodPath, query, body] = line
        .split('|')
        .slice(1)
        .map((c) => c.trim())
      const [method, path] = methodPath!.split(' ')
      const params =
        query === 'none'
          ? []
          : query!
              .replace(/\([^)]*\)/g, '')
              .split(',')
              .map((q) => q.trim().split(' ')[0]!)
      return {
        operationId: operationId!,
        method: method!.toLowerCase(),
        path: path!,
        query: params,
        hasBody: body !== 'none',
      }
    })
}

type Doc = {
  openapi: string
  paths: Record<string, Record<string, Operation>>
  components: {
    schemas: Record<
      string,
      { properties?: Record<string, { enum?: string[]; anyOf?: { enum?: string[] }[] }>; required?: string[] }
    >
    securitySchemes: Record<string, unknown>
  }
}
type Operation = {
  operationId: string
  tags: string[]
  security: Record<string, string[]>[]
  parameters?: { name: string; in: string; required?: boolean }[]
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> }
  responses: Record<string, { description: string; content?: Record<string, unknown> }>
}

describe('the OpenAPI document', () => {
  const t = useTestApp({ dialect: 'sqlite' })
  let doc: Doc
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    )

  beforeAll(async () => {
    const res = await t.request('GET', '/api/public/v1/openapi.json') // no key needed
    expect(res.statusCode).toBe(200)
    doc = res.json()
  })

  it('is valid OpenAPI 3.1', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./)
    const result = await new Validator().validate(
      structuredClone(doc) as unknown as Parameters<Validator['validate']>[0],
    )
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('has the 36 operations of the specification with their exact ids, methods, paths and parameters', () => {
    const spec = specOperations()
    expect(spec).toHaveLength(36)
    const publicOps = operations().filter((o) => o.op.tags.includes('PublicApi'))
    expect(publicOps.map((o) => o.op.operationId).sort()).toEqual(spec.map((s) => s.operationId).sort())
    for (const s of spec) {
      const found = publicOps.find((o) => o.op.operationId === s.operationId)!
      expect(`${found.method} ${found.path}`, s.operationId).toBe(`${s.method} ${s.path}`)
      const params = found.op.parameters ?? []
      const pathParams = [...s.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
      expect(
        params
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort(),
        s.operationId,
      ).toEqual(pathParams.sort())
      for (const p of params.filter((p) => p.in === 'path')) expect(p.required, `${s.operationId} ${p.name}`).toBe(true)
      const query = params.filter((p) => p.in === 'query').map((p) => p.name)
      for (const q of s.query) expect(query, s.operationId).toContain(q)
      expect(!!found.op.requestBody, `${s.operationId} body`).toBe(s.hasBody)
    }
  })

  it('tags additions Extensions, and puts every operation under the X-Api-Key scheme', () => {
    expect(doc.components.securitySchemes).toEqual({ apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } })
    for (const { op } of operations()) {
      expect(op.tags.length, op.operationId).toBe(1)
      expect(['PublicApi', 'Extensions'], op.operationId).toContain(op.tags[0])
      expect(op.security, op.operationId).toEqual([{ apiKey: [] }])
    }
  })

  it('documents every response, errors included, as problem+json', () => {
    for (const { op } of operations()) {
      const statuses = Object.keys(op.responses)
      expect(
        statuses.some((s) => /^2|^3/.test(s)),
        op.operationId,
      ).toBe(true)
      for (const s of ['401', '429', '500']) expect(statuses, op.operationId).toContain(s)
      if (op.requestBody) for (const s of ['400', '413', '415']) expect(statuses, op.operationId).toContain(s)
      if (op.parameters?.some((p) => p.in === 'path')) expect(statuses, op.operationId).toContain('404')
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.description, `${op.operationId} ${status}`).toBeTruthy()
        if (Number(status) >= 400)
          expect(Object.keys(response.content ?? {}), `${op.operationId} ${status}`).toEqual([
            'application/problem+json',
          ])
      }
    }
  })

  it('names the request bodies of the specification with their exact fields and enums', () => {
    const schemas = doc.components.schemas
    const fields = (name: string) => Object.keys(schemas[name]?.properties ?? {}).sort()
    expect(fields('CreateTenancyRequest')).toEqual([
      'certificateThumbprint',
      'clientId',
      'clientSecret',
      'cloudTenantId',
      'costSource', // an extension
      'credentialType',
      'location', // an extension
      'name',
    ])
    // cloudTenantId and credentialType are required for the specification's tenant (the AzureConnector source,
    // the default), and refused for a tenant of FOCUS files: the service requires them by source, naming the field.
    expect(schemas.CreateTenancyRequest!.required!.sort()).toEqual(['name'])
    expect(schemas.CreateTenancyRequest!.properties!.credentialType!.enum).toEqual([
      'ServicePrincipalSecret',
      'ServicePrincipalCertificate',
      'ManagedIdentity',
    ])
    expect(fields('CreatePublicEventRequest')).toEqual([
      'category',
      'description',
      'occurredAt',
      'prediction', // an extension
      'tagKey',
      'tagValue',
      'title',
    ])
    expect(schemas.CreatePublicEventRequest!.required!.sort()).toEqual(['category', 'occurredAt', 'title'])
    expect(fields('PatchPublicEventRequest')).toEqual([
      'category',
      'clearPrediction', // an extension
      'clearTag',
      'description',
      'occurredAt',
      'prediction', // an extension
      'tagKey',
      'tagValue',
      'title',
    ])
    expect(fields('PatchAnomalyRequest')).toEqual(['feedback', 'status']) // feedback: an extension
    expect(fields('PatchInsightRequest')).toEqual(['action', 'snoozeDays'])
    expect(schemas.PatchInsightRequest!.properties!.action!.enum).toEqual([
      'NotRelevant',
      'AcceptedRisk',
      'Implemented',
      'FalsePositive',
      'Snoozed',
      'AutoResolved',
    ])
    expect(fields('InvitePublicUserRequest')).toEqual(['displayName', 'email'])
    expect(fields('PatchPublicUserRequest')).toEqual(['displayName', 'isDisabled', 'isOwner'])
    const categories = ['Deployment', 'Launch', 'Campaign', 'Configuration', 'Incident', 'Other']
    expect(schemas.CreatePublicEventRequest!.properties!.category!.enum).toEqual(categories)
  })

  it('is served without a key, and a reference page is at /docs', async () => {
    const docs = await t.request('GET', '/docs/')
    expect(docs.statusCode).toBe(200)
    expect(docs.headers['content-type']).toMatch(/text\/html/)
    expect(docs.body).toContain('/api/public/v1/openapi.json')
  })
})
