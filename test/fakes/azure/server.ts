/**
 * A local fake of the Azure endpoints the connector uses, speaking their real protocols: Entra ID (OpenID
 * configuration, client credentials with a secret or a certificate assertion), the App Service managed-identity
 * endpoint, ARM subscriptions, Resource Graph, Cost Management Query and Azure Monitor metrics. Envelopes and
 * error bodies follow the examples in ./examples (see PROVENANCE.md there). Test use only.
 *
 * It serves https (MSAL refuses an http authority) on 127.0.0.1 with a throwaway certificate.
 */
import { constants, createHash, randomBytes, randomUUID, verify, X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { type FakeEstate, type FakeUsage, hourlyCpu } from './data.js'

type Json = Record<string, unknown>

const example = (file: string) => JSON.parse(readFileSync(new URL(`./examples/${file}`, import.meta.url), 'utf8'))
const TOKEN_EXAMPLE = example('client-credentials-token.docs-example.json')
const OPENID_EXAMPLE = example('openid-configuration.docs-example.json')
const SUBSCRIPTIONS_EXAMPLE = example('GetSubscriptions.2022-12-01.json')
const COST_EXAMPLE = example('BillingAccountQuery.2023-11-01.json')
const GRAPH_EXAMPLE = example('ResourcesFirstPageQuery.2024-04-01.json')
const METRICS_EXAMPLE = example('vm-percentage-cpu.docs-example.json')

export interface FakeApp {
  clientId: string
  /** The client secret value, for a ServicePrincipalSecret tenant. */
  secret?: string
  /** The PEM certificate registered on the app, for a ServicePrincipalCertificate tenant. */
  certificate?: string
}

export interface FakeAzureOptions {
  tls: { key: string; certificate: string }
  /** The directory (tenant) id. */
  tenantId: string
  apps: FakeApp[]
  /** Client ids of the user-assigned identities of the host; null stands for the system-assigned one. */
  managedIdentities: (string | null)[]
  /**
   * The home directory of the host's identities (their tokens' `tid`), `tenantId` unless given. ARM refuses a
   * token of another directory than `tenantId` (InvalidAuthenticationTokenTenant), as Azure does.
   */
  managedIdentityTenantId?: string
  /** The secret the App Service identity endpoint expects in `X-IDENTITY-HEADER`. */
  identityHeader: string
  estate: FakeEstate
  /** Rows (or items) per page; small, so that every protocol pages in the tests. */
  pageSizes?: { subscriptions?: number; graph?: number; costs?: number }
}

export type RequestKind = 'openid' | 'token' | 'msi' | 'subscriptions' | 'graph' | 'cost' | 'metrics' | 'unknown'

export interface RecordedRequest {
  kind: RequestKind
  method: string
  /** Path and query as received. */
  url: string
  headers: Record<string, string | string[] | undefined>
  /** Parsed JSON, or the form fields of a token request. */
  body: unknown
  status: number
}

export interface IssuedToken {
  grant: 'client_secret' | 'client_assertion' | 'managed_identity'
  clientId: string | null
  /** The directory the token is for (its `tid` claim). */
  tid?: string
  /** For certificate grants: the JWT header the assertion carried. */
  assertionHeader?: Json
  /** The token's `aud`: ARM's (the fake's origin) unless asked for Storage's scope. */
  audience?: string
}

/** Blob Storage's scope, and the audience of its tokens, as Entra issues them. */
export const STORAGE_SCOPE = 'https://storage.azure.com/.default'
const STORAGE_AUDIENCE = 'https://storage.azure.com'

export interface FakeAzure {
  url: string
  requests: RecordedRequest[]
  issued: IssuedToken[]
  /** The next `times` Cost Management queries answer 429 with these headers. */
  throttleCostQueries(times: number, headers: Record<string, string>): void
  /** The next `times` calls of one kind answer `status` (5xx: server error; 403: AuthorizationFailed). */
  failNext(kind: RequestKind, status: number, times: number): void
  /** Forget recorded requests, throttles and failures (tokens stay valid). */
  reset(): void
  close(): Promise<void>
}

export async function startFakeAzure(options: FakeAzureOptions): Promise<FakeAzure> {
  const requests: RecordedRequest[] = []
  const issued: IssuedToken[] = []
  const tokens = new Map<string, { expiresAt: number; tid: string }>()
  let throttle = { times: 0, headers: {} as Record<string, string> }
  let failures = new Map<RequestKind, { status: number; times: number }>()
  const sizes = { subscriptions: 1, graph: 2, costs: 4, ...options.pageSizes }
  let origin = ''

  const server: Server = createServer({ key: options.tls.key, cert: options.tls.certificate }, (req, res) => {
    void handle(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', origin)
    const text = await readBody(req)
    const kind = kindOf(req.method ?? 'GET', url.pathname)
    const body = parseBody(req, text)
    const record: RecordedRequest = {
      kind,
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body,
      status: 0,
    }
    requests.push(record)
    const answer = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      record.status = status
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers })
      res.end(payload === undefined ? undefined : JSON.stringify(payload))
    }
    try {
      route(kind, req, url, body, answer)
    } catch (err) {
      answer(500, { error: { code: 'FakeFailure', message: String(err) } })
    }
  }

  function route(kind: RequestKind, req: IncomingMessage, url: URL, body: unknown, answer: Answer) {
    if (kind === 'openid') return openIdConfiguration(url, answer)
    if (kind === 'token') return tokenEndpoint(url, body as Record<string, string>, answer)
    if (kind === 'msi') return managedIdentityEndpoint(req, url, answer)
    if (kind === 'unknown') return answer(404, { error: { code: 'NotFound', message: `No fake for ${url.pathname}` } })
    const known = tokenOf(req)
    if (known && known.tid.toLowerCase() !== options.tenantId.toLowerCase()) {
      return answer(
        401,
        {
          error: {
            code: 'InvalidAuthenticationTokenTenant',
            message: `The access token is from the wrong issuer 'https://sts.windows.net/${known.tid}/'.`,
          },
        },
        { 'WWW-Authenticate': 'Bearer authorization_uri="https://login.microsoftonline.com/", error="invalid_token"' },
      )
    }
    if (!known) {
      return answer(
        401,
        { error: { code: 'InvalidAuthenticationToken', message: 'The access token is invalid.' } },
        { 'WWW-Authenticate': 'Bearer authorization_uri="https://login.microsoftonline.com/", error="invalid_token"' },
      )
    }
    const failure = failures.get(kind)
    if (failure && failure.times > 0) {
      failure.times--
      return answer(failure.status, armError(failure.status))
    }
    if (!url.searchParams.get('api-version')) {
      return answer(400, {
        error: {
          code: 'MissingApiVersionParameter',
          message: 'The api-version query parameter (?api-version=) is required for all requests.',
        },
      })
    }
    if (kind === 'subscriptions') return subscriptions(url, answer)
    if (kind === 'graph') return resourceGraph(body as Json, answer)
    if (kind === 'cost') return costQuery(url, body as Json, answer)
    return metrics(url, answer)
  }

  // --- Entra ID -------------------------------------------------------------------------------------------

  function knownTenant(segment: string) {
    return segment.toLowerCase() === options.tenantId.toLowerCase()
  }

  function openIdConfiguration(url: URL, answer: Answer) {
    const tenant = url.pathname.split('/')[1] ?? ''
    if (!knownTenant(tenant)) return answer(400, entraError('invalid_tenant', 90002, `Tenant '${tenant}' not found.`))
    const doc = JSON.stringify(OPENID_EXAMPLE.response)
      .replaceAll('https://login.microsoftonline.com', origin)
      .replaceAll('{tenant}', options.tenantId)
    // The documentation truncates the document; MSAL also needs the issuer (checked against the authority's host).
    answer(200, { ...JSON.parse(doc), issuer: `${origin}/${options.tenantId}/v2.0` })
  }

  function tokenEndpoint(url: URL, form: Record<string, string>, answer: Answer) {
    const tenant = url.pathname.split('/')[1] ?? ''
    if (!knownTenant(tenant)) return answer(400, entraError('invalid_request', 90002, `Tenant '${tenant}' not found.`))
    if (form.grant_type !== 'client_credentials') {
      return answer(400, entraError('unsupported_grant_type', 70003, 'The app requested an unsupported grant type.'))
    }
    const audience = form.scope === STORAGE_SCOPE ? { audience: STORAGE_AUDIENCE } : {}
    if (form.scope !== `${origin}/.default` && form.scope !== STORAGE_SCOPE) {
      return answer(
        400,
        entraError(
          'invalid_scope',
          70011,
          `The provided value for the input parameter 'scope' is not valid. The scope ${form.scope} is not valid.`,
        ),
      )
    }
    const app = options.apps.find((a) => a.clientId === form.client_id)
    if (!app) {
      return answer(
        400,
        entraError(
          'unauthorized_client',
          700016,
          `Application with identifier '${form.client_id}' was not found in the directory.`,
        ),
      )
    }
    if (form.client_secret !== undefined) {
      if (!app.secret || form.client_secret !== app.secret) {
        return answer(
          401,
          entraError(
            'invalid_client',
            7000215,
            `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${app.clientId}'.`,
          ),
        )
      }
      return answer(200, issue({ grant: 'client_secret', clientId: app.clientId, ...audience }))
    }
    if (
      form.client_assertion_type !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' ||
      !form.client_assertion
    ) {
      return answer(
        401,
        entraError(
          'invalid_client',
          7000218,
          "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
        ),
      )
    }
    const checked = checkAssertion(form.client_assertion, app, `${origin}${url.pathname}`)
    if ('error' in checked) return answer(401, entraError('invalid_client', checked.code, checked.error))
    answer(
      200,
      issue({ grant: 'client_assertion', clientId: app.clientId, assertionHeader: checked.header, ...audience }),
    )
  }

  /** A certificate assertion is a JWT signed with the app's certificate key, naming that certificate by thumbprint. */
  function checkAssertion(
    jwt: string,
    app: FakeApp,
    audience: string,
  ): { header: Json } | { error: string; code: number } {
    const [h, p, s] = jwt.split('.')
    if (!h || !p || !s || !app.certificate)
      return { error: 'Client assertion is not within its valid time range or malformed.', code: 700024 }
    const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Json
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Json
    const certificate = new X509Certificate(app.certificate)
    const sha1 = createHash('sha1').update(certificate.raw).digest('base64url')
    const sha256 = createHash('sha256').update(certificate.raw).digest('base64url')
    if (header['x5t#S256'] !== sha256 && header.x5t !== sha1) {
      return {
        error: `The certificate with identifier used to sign the client assertion is not registered on application '${app.clientId}'.`,
        code: 700027,
      }
    }
    const key = certificate.publicKey
    const signed = Buffer.from(`${h}.${p}`)
    const signature = Buffer.from(s, 'base64url')
    const valid =
      header.alg === 'PS256'
        ? verify(
            'sha256',
            signed,
            { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO },
            signature,
          )
        : header.alg === 'RS256' && verify('sha256', signed, key, signature)
    if (!valid) return { error: 'Client assertion failed signature validation.', code: 700027 }
    const now = Math.floor(Date.now() / 1000)
    if (payload.iss !== app.clientId || payload.sub !== app.clientId) {
      return { error: "Client assertion application identifier doesn't match 'client_id' parameter.", code: 700021 }
    }
    if (payload.aud !== audience)
      return { error: 'Client assertion audience claim does not match Realm issuer.', code: 700023 }
    if (typeof payload.exp !== 'number' || payload.exp < now)
      return { error: 'Client assertion is not within its valid time range.', code: 700024 }
    return { header }
  }

  /** App Service protocol: GET $IDENTITY_ENDPOINT?api-version=2019-08-01&resource=...[&client_id=...]. */
  function managedIdentityEndpoint(req: IncomingMessage, url: URL, answer: Answer) {
    if (req.headers['x-identity-header'] !== options.identityHeader) {
      return answer(401, { statusCode: 401, message: 'The X-IDENTITY-HEADER header is missing or wrong.' })
    }
    if (url.searchParams.get('api-version') !== '2019-08-01') {
      return answer(400, { statusCode: 400, message: 'Unsupported api-version.' })
    }
    const resource = url.searchParams.get('resource')?.replace(/\/$/, '')
    if (resource !== origin) return answer(400, { statusCode: 400, message: `Invalid resource ${resource}.` })
    const clientId = url.searchParams.get('client_id')
    if (!options.managedIdentities.includes(clientId)) {
      return answer(400, {
        statusCode: 400,
        message: 'Unable to load the proper Managed Identity.',
        correlationId: randomUUID(),
      })
    }
    const token = issue({
      grant: 'managed_identity',
      clientId,
      tid: options.managedIdentityTenantId ?? options.tenantId,
    })
    answer(200, {
      access_token: token.access_token,
      expires_on: String(Math.floor(Date.now() / 1000) + 3600),
      resource: url.searchParams.get('resource'),
      token_type: 'Bearer',
      client_id: clientId ?? '00000000-0000-4000-8000-00000000000a',
    })
  }

  /** Opaque to the connector, but shaped like a JWT so that a leak into a message would be recognisable. */
  function issue(what: IssuedToken) {
    issued.push(what)
    const tid = what.tid ?? options.tenantId
    const part = (o: Json) => Buffer.from(JSON.stringify(o)).toString('base64url')
    const now = Math.floor(Date.now() / 1000)
    const exp = now + 3600
    // Entra's v1 access token claims: Azurite checks iss, aud, iat, nbf and exp (not the signature).
    const claims = {
      aud: what.audience ?? origin,
      iss: `https://sts.windows.net/${tid}/`,
      iat: now - 60,
      nbf: now - 60,
      exp,
      tid,
      appid: what.clientId,
    }
    const accessToken = `${part({ typ: 'JWT', alg: 'RS256' })}.${part(claims)}.${randomBytes(24).toString('base64url')}`
    tokens.set(accessToken, { expiresAt: exp * 1000, tid })
    return { ...TOKEN_EXAMPLE.responses['200'], expires_in: 3599, ext_expires_in: 3599, access_token: accessToken }
  }

  /** The live token the request carries, if any. */
  function tokenOf(req: IncomingMessage) {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    const known = token ? tokens.get(token) : undefined
    return known && known.expiresAt > Date.now() ? known : undefined
  }

  // --- ARM ------------------------------------------------------------------------------------------------

  function subscriptions(url: URL, answer: Answer) {
    const template = (SUBSCRIPTIONS_EXAMPLE.responses['200'].body.value as Json[])[0]!
    const all = options.estate.subscriptions.map((s) => ({
      ...template,
      id: `/subscriptions/${s.subscriptionId}`,
      subscriptionId: s.subscriptionId,
      tenantId: options.tenantId,
      displayName: s.displayName,
      state: s.state,
      tags: {},
    }))
    const offset = Number(url.searchParams.get('$skiptoken') ?? 0)
    const value = all.slice(offset, offset + sizes.subscriptions)
    const next = offset + sizes.subscriptions
    answer(200, {
      value,
      nextLink: next < all.length ? `${origin}/subscriptions?api-version=2022-12-01&$skiptoken=${next}` : undefined,
    })
  }

  function resourceGraph(body: Json, answer: Answer) {
    const query = String(body.query ?? '')
    const subscriptionIds = (Array.isArray(body.subscriptions) ? body.subscriptions : []).map((s) =>
      String(s).toLowerCase(),
    )
    const table = /^\s*(\w+)/.exec(query)?.[1]?.toLowerCase()
    const rows = (
      table === 'resourcecontainers' && /resourcegroups/i.test(query)
        ? groupRows()
        : table === 'resources'
          ? options.estate.resources
          : []
    )
      .filter((r) => subscriptionIds.includes(String(r.subscriptionId).toLowerCase()))
      .sort((a, b) => String(a.id).localeCompare(String(b.id)))
    if (!table || !['resources', 'resourcecontainers'].includes(table)) {
      return answer(400, {
        error: {
          code: 'BadRequest',
          message: 'Please provide below info when asking for support...',
          details: [{ code: 'InvalidQuery', message: `Table ${table} is not known.` }],
        },
      })
    }
    const opts = (body.options ?? {}) as Json
    const top = Math.min(Number(opts.$top ?? 1000), sizes.graph)
    const fingerprint = hash({ query, subscriptionIds })
    let offset = Number(opts.$skip ?? 0)
    if (typeof opts.$skipToken === 'string') {
      const token = JSON.parse(Buffer.from(opts.$skipToken, 'base64').toString('utf8')) as {
        offset: number
        fingerprint: string
      }
      if (token.fingerprint !== fingerprint)
        return answer(400, { error: { code: 'BadRequest', message: 'The skip token does not belong to this query.' } })
      offset = token.offset
    }
    const data = rows.slice(offset, offset + top).map((r) => project(r, query))
    const next = offset + top
    const envelope = GRAPH_EXAMPLE.responses['200'].body
    answer(200, {
      totalRecords: rows.length,
      count: data.length,
      resultTruncated: envelope.resultTruncated,
      facets: envelope.facets,
      ...(next < rows.length
        ? { $skipToken: Buffer.from(JSON.stringify({ offset: next, fingerprint })).toString('base64') }
        : {}),
      data,
    })
  }

  function groupRows(): Json[] {
    return options.estate.resourceGroups.map((g) => ({
      id: `/subscriptions/${g.subscriptionId}/resourceGroups/${g.name}`,
      name: g.name,
      type: 'microsoft.resources/subscriptions/resourcegroups',
      location: g.location,
      subscriptionId: g.subscriptionId,
      resourceGroup: g.name.toLowerCase(),
      tags: g.tags,
      properties: { provisioningState: 'Succeeded' },
    }))
  }

  function costQuery(url: URL, body: Json, answer: Answer) {
    if (throttle.times > 0) {
      throttle.times--
      return answer(429, { error: { code: '429', message: 'Too many requests. Please retry.' } }, throttle.headers)
    }
    const subscriptionId = /^\/subscriptions\/([^/]+)/i.exec(url.pathname)?.[1] ?? ''
    const subscription = options.estate.subscriptions.find((s) => s.subscriptionId === subscriptionId)
    if (!subscription)
      return answer(404, {
        error: { code: 'SubscriptionNotFound', message: `The subscription '${subscriptionId}' could not be found.` },
      })
    const invalid = (message: string) =>
      answer(400, { error: { code: 'BadRequest', message: `Invalid query definition: ${message}` } })
    const dataset = (body.dataset ?? {}) as Json
    const period = (body.timePeriod ?? {}) as Json
    if (!['ActualCost', 'AmortizedCost', 'Usage'].includes(String(body.type))) return invalid(`type ${body.type}`)
    if (body.timeframe !== 'Custom' || typeof period.from !== 'string' || typeof period.to !== 'string')
      return invalid('timeframe Custom needs a timePeriod')
    if (!['Daily', 'None'].includes(String(dataset.granularity))) return invalid(`granularity ${dataset.granularity}`)
    const aggregations = Object.values((dataset.aggregation ?? {}) as Json) as Json[]
    const costColumn = aggregations[0]?.name
    if (
      aggregations.length !== 1 ||
      aggregations[0]?.function !== 'Sum' ||
      !['Cost', 'PreTaxCost', 'CostUSD'].includes(String(costColumn))
    ) {
      return invalid('one Sum aggregation of Cost, CostUSD or PreTaxCost')
    }
    const grouping = (Array.isArray(dataset.grouping) ? dataset.grouping : []) as Json[]
    // The Query API's swagger caps grouping at two items (maxItems: 2).
    if (grouping.length > 2) return invalid('The query can have at most 2 groupings.')
    const dimensions = grouping.map((g) => String(g.name))
    const unknown = dimensions.find((d) => !(d in DIMENSIONS))
    if (unknown) return invalid(`Dimension ${unknown} is not valid for this scope.`)
    // A QueryFilter of one comparison (`{ dimensions: { name, operator: 'In', values } }`), the form the
    // connector sends; `and`/`or` of several and tag filters are not served.
    let keep: (u: FakeUsage) => boolean = () => true
    if (dataset.filter !== undefined) {
      const filter = (dataset.filter ?? {}) as Json
      const comparison = (filter.dimensions ?? null) as Json | null
      const name = String(comparison?.name)
      const values = comparison?.values
      if (
        !comparison ||
        Object.keys(filter).length !== 1 ||
        !(name in DIMENSIONS) ||
        comparison.operator !== 'In' ||
        !Array.isArray(values) ||
        values.length === 0
      )
        return invalid('filter must be one dimension comparison with operator In and at least one value')
      const wanted = new Set(values.map((v) => String(v).toLowerCase()))
      keep = (u) => wanted.has(DIMENSIONS[name]!(u).toLowerCase())
    }

    const from = period.from.slice(0, 10)
    const to = period.to.slice(0, 10)
    const daily = dataset.granularity === 'Daily'
    const sums = new Map<string, { values: unknown[]; date: number; cost: number }>()
    for (const u of options.estate.usage) {
      if (u.subscriptionId !== subscriptionId || u.date < from || u.date > to || !keep(u)) continue
      const values = dimensions.map((d) => DIMENSIONS[d]!(u))
      const date = daily ? Number(u.date.replaceAll('-', '')) : 0
      const key = JSON.stringify([date, values])
      const sum = sums.get(key) ?? { values, date, cost: 0 }
      sum.cost += u.cost
      sums.set(key, sum)
    }
    // Column order as in the examples: the aggregate, the groupings, UsageDate, Currency.
    const columns = [
      { name: costColumn, type: 'Number' },
      ...dimensions.map((d) => ({ name: d, type: 'String' })),
      ...(daily ? [{ name: 'UsageDate', type: 'Number' }] : []),
      { name: 'Currency', type: 'String' },
    ]
    const rows = [...sums.values()]
      .sort((a, b) => a.date - b.date || JSON.stringify(a.values).localeCompare(JSON.stringify(b.values)))
      .map((s) => [s.cost, ...s.values, ...(daily ? [s.date] : []), subscription.currency])

    const fingerprint = hash(body)
    let offset = 0
    const skipToken = url.searchParams.get('$skiptoken')
    if (skipToken) {
      const token = JSON.parse(Buffer.from(skipToken, 'base64').toString('utf8')) as {
        offset: number
        fingerprint: string
      }
      // A nextLink is only good for the body that produced it.
      if (token.fingerprint !== fingerprint) return invalid('the request body differs from the one of the first page')
      offset = token.offset
    }
    const next = offset + sizes.costs
    const queryId = randomUUID()
    // Like the example, the nextLink names `Query` with another api-version: clients follow it as given.
    const nextLink =
      next < rows.length
        ? `${origin}/subscriptions/${subscriptionId}/providers/Microsoft.CostManagement/Query?api-version=2021-10-01&$skiptoken=${encodeURIComponent(Buffer.from(JSON.stringify({ offset: next, fingerprint })).toString('base64'))}`
        : null
    answer(
      200,
      {
        id: `subscriptions/${subscriptionId}/providers/Microsoft.CostManagement/query/${queryId}`,
        name: queryId,
        type: COST_EXAMPLE.responses['200'].body.type,
        location: null,
        sku: null,
        eTag: null,
        properties: { nextLink, columns, rows: rows.slice(offset, next) },
      },
      {
        'x-ms-ratelimit-microsoft.costmanagement-qpu-consumed': '1',
        'x-ms-ratelimit-microsoft.costmanagement-qpu-remaining': 'QueriesPerHour:577,QueriesPerMin:59',
      },
    )
  }

  /** The aggregations asked for, of those a point has (a deallocated hour has none). */
  function aggregated(asked: string[], point: { average?: number; maximum?: number }) {
    return {
      ...(point.average !== undefined && asked.includes('average') ? { average: point.average } : {}),
      ...(point.maximum !== undefined && asked.includes('maximum') ? { maximum: point.maximum } : {}),
    }
  }

  function metrics(url: URL, answer: Answer) {
    const resourceId = url.pathname.replace(/\/providers\/microsoft\.insights\/metrics$/i, '')
    const vm = options.estate.resources.find((r) => String(r.id).toLowerCase() === resourceId.toLowerCase())
    if (vm?.type !== 'microsoft.compute/virtualmachines') {
      const name = resourceId.split('/').at(-1)
      return answer(404, {
        error: {
          code: 'ResourceNotFound',
          message: `The Resource 'Microsoft.Compute/virtualMachines/${name}' was not found.`,
        },
      })
    }
    const q = url.searchParams
    if (q.get('metricnames') !== 'Percentage CPU')
      return answer(400, {
        code: 'BadRequest',
        message: `Failed to find metric configuration for provider: Microsoft.Compute, resource Type: virtualMachines, metric: ${q.get('metricnames')}`,
      })
    const interval = q.get('interval') ?? 'PT1H'
    if (interval !== 'P1D' && interval !== 'PT1H')
      return answer(400, { code: 'BadRequest', message: 'This fake serves hourly and daily grains (PT1H, P1D) only.' })
    const aggregations = (q.get('aggregation') ?? 'average').toLowerCase().split(',')
    const [start, end] = (q.get('timespan') ?? '').split('/')
    if (!start || !end) return answer(400, { code: 'BadRequest', message: 'Invalid timespan.' })
    const days = options.estate.cpu.filter(
      (c) => c.resourceId === vm.id && c.date >= start.slice(0, 10) && `${c.date}T00:00:00Z` < end,
    )
    // Monitor aggregates its one-minute values to the grain asked: a day's average is that of its hours.
    const points = days.flatMap((day) => {
      const hours = hourlyCpu(day)
      if (interval === 'PT1H') {
        return hours.map((h, hour) => ({
          timeStamp: `${day.date}T${String(hour).padStart(2, '0')}:00:00Z`,
          ...aggregated(aggregations, h),
        }))
      }
      const daily =
        hours[0]?.average === undefined
          ? {}
          : {
              average: hours.reduce((sum, h) => sum + h.average!, 0) / hours.length,
              maximum: Math.max(...hours.map((h) => h.maximum!)),
            }
      return [{ timeStamp: `${day.date}T00:00:00Z`, ...aggregated(aggregations, daily) }]
    })
    const sample = METRICS_EXAMPLE.response
    const metric = sample.value[0]
    answer(200, {
      cost: sample.cost,
      timespan: `${start}/${end}`,
      interval,
      value: [
        {
          id: `${vm.id}/providers/Microsoft.Insights/metrics/Percentage CPU`,
          type: metric.type,
          name: metric.name,
          displayDescription:
            'The percentage of allocated compute units that are currently in use by the Virtual Machine(s)',
          unit: metric.unit,
          timeseries: [{ metadatavalues: [], data: points }],
          errorCode: 'Success',
        },
      ],
      namespace: 'Microsoft.Compute/virtualMachines',
      resourceregion: vm.location,
    })
  }

  return {
    url: origin,
    requests,
    issued,
    throttleCostQueries(times, headers) {
      throttle = { times, headers }
    },
    failNext(kind, status, times) {
      failures.set(kind, { status, times })
    },
    reset() {
      requests.length = 0
      throttle = { times: 0, headers: {} }
      failures = new Map()
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

type Answer = (status: number, payload: unknown, headers?: Record<string, string>) => void

/** Cost Management lower-cases resource ids in cost data; the connector must not rely on ARM casing there. */
const DIMENSIONS: Record<string, (u: FakeUsage) => string> = {
  ResourceId: (u) => u.resourceId.toLowerCase(),
  MeterId: (u) => u.meterId,
  Meter: (u) => u.meter,
  ServiceName: (u) => u.serviceName,
  MeterCategory: (u) => u.serviceName,
  ResourceGroupName: (u) => u.resourceId.split('/')[4]?.toLowerCase() ?? '',
  ChargeType: (u) => u.chargeType ?? 'Usage',
}

function kindOf(method: string, path: string): RequestKind {
  if (/^\/[^/]+\/v2\.0\/\.well-known\/openid-configuration$/.test(path)) return 'openid'
  if (method === 'POST' && /^\/[^/]+\/oauth2\/v2\.0\/token$/.test(path)) return 'token'
  if (method === 'GET' && path === '/msi/token') return 'msi'
  if (method === 'GET' && path === '/subscriptions') return 'subscriptions'
  if (method === 'POST' && /^\/providers\/Microsoft\.ResourceGraph\/resources$/i.test(path)) return 'graph'
  if (method === 'POST' && /^\/subscriptions\/[^/]+\/providers\/Microsoft\.CostManagement\/query$/i.test(path))
    return 'cost'
  if (method === 'GET' && /\/providers\/Microsoft\.Insights\/metrics$/i.test(path)) return 'metrics'
  return 'unknown'
}

function armError(status: number): Json {
  if (status === 403) {
    return {
      error: {
        code: 'AuthorizationFailed',
        message:
          "The client '00000000-0000-4000-8000-000000000099' with object id '00000000-0000-4000-8000-000000000099' does not have authorization to perform action over this scope or the scope is invalid.",
      },
    }
  }
  return {
    error: {
      code: 'InternalServerError',
      message: 'Encountered internal server error. Diagnostic information: timestamp 20231106T080000Z.',
    },
  }
}

function entraError(error: string, code: number, description: string): Json {
  const shape = TOKEN_EXAMPLE.responses['400'] as Json
  const traceId = randomUUID()
  const correlationId = randomUUID()
  const timestamp = new Date().toISOString().replace('T', ' ').slice(0, 19)
  return {
    ...shape,
    error,
    error_description: `AADSTS${code}: ${description}\r\nTrace ID: ${traceId}\r\nCorrelation ID: ${correlationId}\r\nTimestamp: ${timestamp}Z`,
    error_codes: [code],
    timestamp: `${timestamp}Z`,
    trace_id: traceId,
    correlation_id: correlationId,
  }
}

/** Resource Graph's `project a, b, c` keeps only those columns; the fake honours that much KQL. */
function project(row: Json, query: string): Json {
  const columns = /\|\s*project\s+([^|]+)/i
    .exec(query)?.[1]
    ?.split(',')
    .map((c) => c.trim())
  if (!columns) return row
  return Object.fromEntries(columns.filter((c) => c in row).map((c) => [c, row[c]]))
}

function hash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16)
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function parseBody(req: IncomingMessage, text: string): unknown {
  if (text === '') return null
  const type = req.headers['content-type'] ?? ''
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text))
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
