import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { retryAfterMs } from '../../src/connectors/azure/http.js'
import { createAzureConnector } from '../../src/connectors/azure/index.js'
import { ConnectorError, type DailyCostRow, type TenantConnection } from '../../src/connectors/types.js'
import { fixedClock } from '../../src/platform/clock.js'
import { DAYS, IDS, SUB_DEV, SUB_PROD, sampleEstate } from '../fakes/azure/data.js'
import { type FakeAzure, startFakeAzure } from '../fakes/azure/server.js'
import { fetchTrusting, type KeyAndCertificate, selfSignedCertificate } from '../fakes/azure/tls.js'

const TENANT = 'c0ffee00-1111-4222-8333-444455556666'
const SECRET_APP = '11111111-aaaa-4bbb-8ccc-000000000001'
const CERT_APP = '11111111-aaaa-4bbb-8ccc-000000000002'
const USER_ASSIGNED = '11111111-aaaa-4bbb-8ccc-000000000003'
const OTHER_USER_ASSIGNED = '11111111-aaaa-4bbb-8ccc-000000000004'
const SECRET = 'Qx8~fake.client-secret_value-for-tests'
const WEEK = { from: '2023-11-01', to: '2023-11-05' }

const estate = sampleEstate()
let fake: FakeAzure
let serverTls: KeyAndCertificate
let appCertificate: KeyAndCertificate
let certificateDir: string
let hostsSeen: string[]
let waits: number[]

beforeAll(async () => {
  serverTls = selfSignedCertificate('127.0.0.1', 'IP:127.0.0.1')
  appCertificate = selfSignedCertificate('costwatch-test-app')
  certificateDir = mkdtempSync(join(tmpdir(), 'costwatch-azure-'))
  writeFileSync(
    join(certificateDir, `${appCertificate.thumbprint}.pem`),
    appCertificate.key + appCertificate.certificate,
  )
  const identityHeader = `ih-${Math.random().toString(36).slice(2)}`
  fake = await startFakeAzure({
    tls: { key: serverTls.key, certificate: serverTls.certificate },
    tenantId: TENANT,
    apps: [
      { clientId: SECRET_APP, secret: SECRET },
      { clientId: CERT_APP, certificate: appCertificate.certificate },
    ],
    managedIdentities: [null, USER_ASSIGNED, OTHER_USER_ASSIGNED],
    identityHeader,
    estate,
    pageSizes: { subscriptions: 1, graph: 2, costs: 4 },
  })
  // How App Service and Container Apps hand a managed identity to a process; @azure/identity reads them.
  vi.stubEnv('IDENTITY_ENDPOINT', `${fake.url}/msi/token`)
  vi.stubEnv('IDENTITY_HEADER', identityHeader)
})

afterAll(async () => {
  vi.unstubAllEnvs()
  await fake?.close()
  if (certificateDir) rmSync(certificateDir, { recursive: true, force: true })
})

beforeEach(() => {
  fake.reset()
  hostsSeen = []
  waits = []
})

/** What the worker would pass: its clock, fixed here, is the connector's "now". */
const ctx = { clock: fixedClock('2023-11-06T08:00:00Z') }

function connector(extra: Parameters<typeof createAzureConnector>[0] = {}) {
  return createAzureConnector({
    authorityHost: fake.url,
    armEndpoint: fake.url,
    fetch: fetchTrusting(serverTls.certificate, hostsSeen),
    certificateDir,
    sleep: async (ms) => {
      waits.push(ms)
    },
    ...extra,
  })
}

function tenant(over: Partial<TenantConnection>): TenantConnection {
  return {
    tenantId: '0190f0a0-0000-7000-8000-000000000001',
    cloudTenantId: TENANT,
    credentialType: 'ServicePrincipalSecret',
    clientId: SECRET_APP,
    clientSecret: SECRET,
    certificateThumbprint: null,
    ...over,
  }
}

const secretTenant = tenant({})
const certificateTenant = () =>
  tenant({
    credentialType: 'ServicePrincipalCertificate',
    clientId: CERT_APP,
    clientSecret: null,
    certificateThumbprint: appCertificate.thumbprint,
  })

async function collect(rows: AsyncIterable<DailyCostRow[]>): Promise<DailyCostRow[][]> {
  const batches: DailyCostRow[][] = []
  for await (const batch of rows) batches.push(batch)
  return batches
}

async function failure(promise: Promise<unknown>): Promise<ConnectorError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(ConnectorError)
  return err as ConnectorError
}

/** What Cost Management should answer for the week, summed the way the query groups: resource, meter, day. */
function expectedWeek() {
  const sums = new Map<string, number>()
  for (const u of estate.usage) {
    if (u.date < WEEK.from || u.date > WEEK.to) continue
    const key = [u.subscriptionId, u.resourceId.toLowerCase(), u.meterId || 'unmetered', u.date].join('|')
    sums.set(key, (sums.get(key) ?? 0) + u.cost)
  }
  return sums
}

const keyOf = (r: DailyCostRow) => [r.subscriptionId, r.resourceArmId ?? '', r.meterId, r.date].join('|')

describe('azure connector: credentials', () => {
  const kinds = [
    { name: 'a client secret', grant: 'client_secret', conn: () => secretTenant },
    { name: 'a client certificate', grant: 'client_assertion', conn: certificateTenant },
    {
      name: 'a managed identity',
      grant: 'managed_identity',
      conn: () => tenant({ credentialType: 'ManagedIdentity', clientId: OTHER_USER_ASSIGNED, clientSecret: null }),
    },
  ]
  for (const kind of kinds) {
    it(`reads subscriptions, inventory, costs and metrics with ${kind.name}`, async () => {
      const conn = kind.conn()
      const grant = kind.grant
      const azure = connector()

      const inventory = await azure.inventory(conn, ctx)
      const costs = (await collect(azure.dailyCosts(conn, WEEK, ctx))).flat()
      const cpu = await azure.cpuMetrics(conn, [IDS.devVm], WEEK, ctx)

      expect(inventory.subscriptions.map((s) => s.subscriptionId)).toEqual([SUB_PROD, SUB_DEV])
      expect(inventory.resources).toHaveLength(estate.resources.length)
      expect(costs).toHaveLength(expectedWeek().size)
      expect(cpu).toHaveLength(5)
      // One token for the whole connector: the credential is kept and MSAL caches what it got.
      expect(fake.issued.filter((t) => t.clientId === conn.clientId).at(-1)?.grant).toBe(grant)
      expect(fake.requests.filter((r) => r.kind === 'token' || r.kind === 'msi')).toHaveLength(1)
      expect(fake.requests.filter((r) => r.status === 401)).toHaveLength(0)
    })
  }

  it('gets a token with a client secret from the configured authority and reads the inventory', async () => {
    const inventory = await connector().inventory(secretTenant, ctx)

    expect(inventory.subscriptions).toEqual([
      { subscriptionId: SUB_PROD, displayName: 'Example Subscription', state: 'Enabled', currency: 'EUR' },
      { subscriptionId: SUB_DEV, displayName: 'Example Subscription2', state: 'Enabled', currency: 'USD' },
    ])
    const token = fake.requests.filter((r) => r.kind === 'token')
    expect(token).toHaveLength(1)
    expect(new URL(token[0]?.url ?? '', fake.url).pathname).toBe(`/${TENANT}/oauth2/v2.0/token`)
    expect(token[0]?.body).toMatchObject({
      grant_type: 'client_credentials',
      client_id: SECRET_APP,
      scope: `${fake.url}/.default`,
    })
    expect(
      fake.requests.some((r) => r.kind === 'openid' && r.url === `/${TENANT}/v2.0/.well-known/openid-configuration`),
    ).toBe(true)
    expect(fake.issued.at(-1)).toEqual({ grant: 'client_secret', clientId: SECRET_APP })
    // Every request, the SDK's token calls included, went to the fake: the authority host is honoured.
    expect(new Set(hostsSeen)).toEqual(new Set([new URL(fake.url).host]))
    expect(fake.requests.filter((r) => r.kind !== 'openid' && r.kind !== 'token').every((r) => r.status === 200)).toBe(
      true,
    )
  })

  it('signs a client assertion with the certificate found by thumbprint', async () => {
    const batches = await collect(connector().dailyCosts(certificateTenant(), WEEK, ctx))

    expect(batches.flat().length).toBe(expectedWeek().size)
    const token = fake.requests.find((r) => r.kind === 'token')
    expect(token?.body).toMatchObject({
      client_id: CERT_APP,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    })
    expect(token?.body).not.toHaveProperty('client_secret')
    const grant = fake.issued.at(-1)
    expect(grant).toMatchObject({ grant: 'client_assertion', clientId: CERT_APP })
    // @azure/identity names the certificate by its SHA-256 thumbprint (x5t#S256) and signs with PS256.
    expect(grant?.assertionHeader).toMatchObject({
      alg: 'PS256',
      'x5t#S256': Buffer.from(appCertificate.thumbprintSha256, 'hex').toString('base64url'),
    })
  })

  it('uses the host managed identity, system-assigned without a client id and user-assigned with one', async () => {
    const system = await connector().cpuMetrics(
      tenant({ credentialType: 'ManagedIdentity', clientId: null, clientSecret: null }),
      [IDS.devVm],
      WEEK,
      ctx,
    )
    const user = await connector().cpuMetrics(
      tenant({ credentialType: 'ManagedIdentity', clientId: USER_ASSIGNED, clientSecret: null }),
      [IDS.webVm],
      WEEK,
      ctx,
    )

    expect(system.map((s) => s.date)).toEqual(['2023-11-01', '2023-11-02', '2023-11-03', '2023-11-04', '2023-11-05'])
    expect(user).toHaveLength(5)
    const msi = fake.requests.filter((r) => r.kind === 'msi').map((r) => new URL(r.url, fake.url).searchParams)
    expect(msi.map((q) => q.get('client_id'))).toEqual([null, USER_ASSIGNED])
    expect(msi.every((q) => q.get('resource') === fake.url && q.get('api-version') === '2019-08-01')).toBe(true)
    expect(fake.issued.slice(-2)).toEqual([
      { grant: 'managed_identity', clientId: null, tid: TENANT },
      { grant: 'managed_identity', clientId: USER_ASSIGNED, tid: TENANT },
    ])
    expect(fake.requests.some((r) => r.kind === 'token')).toBe(false)
  })

  it("uses the host managed identity only for the directory it belongs to (the token's tid)", async () => {
    const elsewhere = 'a0000000-0000-4000-8000-0000000000e1'
    const err = await failure(
      connector().inventory(
        tenant({ credentialType: 'ManagedIdentity', cloudTenantId: elsewhere, clientId: null, clientSecret: null }),
        ctx,
      ),
    )
    expect(err.code).toBe('auth_failed')
    expect(err.message).toContain(`is not an identity of directory ${elsewhere}`)
    // Its own directory is not named to the tenancy's viewers.
    expect(err.message).not.toContain(TENANT)
    // MSAL may answer from its cache of the identity's tokens: what matters is that ARM was never called.
    expect(fake.requests.some((r) => ['subscriptions', 'graph', 'cost', 'metrics'].includes(r.kind))).toBe(false)

    const byName = await failure(
      connector().inventory(
        tenant({ credentialType: 'ManagedIdentity', cloudTenantId: 'contoso.com', clientId: null, clientSecret: null }),
        ctx,
      ),
    )
    expect(byName.code).toBe('invalid_credentials')
    expect(byName.message).toContain('must name its directory by id')
    expect(fake.requests.some((r) => ['subscriptions', 'graph', 'cost', 'metrics'].includes(r.kind))).toBe(false)
  })

  it('reports a wrong client secret as auth_failed without the secret in the message', async () => {
    const wrong = 'Wr0ng~secret.value_that-must-not-leak'
    const err = await failure(connector().inventory(tenant({ clientSecret: wrong }), ctx))

    expect(err.code).toBe('auth_failed')
    expect(err.retryable).toBe(false)
    expect(err.message).toContain('invalid_client')
    expect(err.message).toContain('AADSTS7000215')
    expect(err.message).toContain(SECRET_APP)
    expect(err.message).not.toContain(wrong)
    expect(err.message).not.toContain(SECRET)
    expect(fake.requests.filter((r) => r.kind === 'token').map((r) => r.status)).toEqual([401])
    expect(fake.requests.some((r) => ['subscriptions', 'graph', 'cost', 'metrics'].includes(r.kind))).toBe(false)
  })

  it('reports an unknown directory as auth_failed', async () => {
    const err = await failure(
      connector().inventory(tenant({ cloudTenantId: 'f0000000-0000-4000-8000-00000000dead' }), ctx),
    )

    expect(err.code).toBe('auth_failed')
    expect(err.message).toContain('f0000000-0000-4000-8000-00000000dead')
    expect(err.message).toContain('did not serve the OpenID configuration')
    expect(fake.requests.map((r) => [r.kind, r.status])).toEqual([['openid', 400]])
  })

  it('names a missing certificate file without trying Entra', async () => {
    const err = await failure(
      connector().inventory(tenant({ ...certificateTenant(), certificateThumbprint: 'AB'.repeat(20) }), ctx),
    )

    expect(err.code).toBe('invalid_credentials')
    expect(err.message).toContain(`${'AB'.repeat(20)}.pem`)
    expect(fake.requests).toHaveLength(0)
  })

  it('follows the authority host it is given: an unreachable one fails, and no request leaves 127.0.0.1', async () => {
    const elsewhere = connector({ authorityHost: 'https://login.example.invalid' })
    const err = await failure(elsewhere.inventory(secretTenant, ctx))

    expect(err.code).toBe('auth_failed')
    expect(hostsSeen.length).toBeGreaterThan(0)
    expect(new Set(hostsSeen)).toEqual(new Set(['login.example.invalid']))
    expect(fake.requests).toHaveLength(0)
  })
})

describe('azure connector: inventory', () => {
  it('pages Resource Graph with $skipToken and returns every resource and group exactly once', async () => {
    const inventory = await connector().inventory(secretTenant, ctx)

    const ids = inventory.resources.map((r) => r.armId)
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(estate.resources.map((r) => String(r.id)).sort())
    expect(inventory.resourceGroups.map((g) => g.armId).sort()).toEqual([
      `/subscriptions/${SUB_PROD}/resourceGroups/RG-Data`,
      `/subscriptions/${SUB_PROD}/resourceGroups/RG-Web`,
      `/subscriptions/${SUB_DEV}/resourceGroups/rg-dev`,
    ])
    expect(inventory.resourceGroups.find((g) => g.name === 'RG-Web')?.tags).toEqual({ env: 'prod', costCenter: '4711' })

    const graph = fake.requests.filter((r) => r.kind === 'graph')
    // 3 groups and 9 resources at 2 per page: 2 + 5 pages; every later page sends the token back in options.
    expect(graph).toHaveLength(7)
    const bodies = graph.map((r) => r.body as { subscriptions: string[]; options: Record<string, unknown> })
    expect(bodies.every((b) => b.subscriptions.length === 2)).toBe(true)
    expect(bodies.filter((b) => typeof b.options.$skipToken === 'string')).toHaveLength(5)
    // Subscriptions come one per page here, so listing them followed a nextLink.
    expect(fake.requests.filter((r) => r.kind === 'subscriptions').map((r) => r.url)).toEqual([
      '/subscriptions?api-version=2022-12-01',
      '/subscriptions?api-version=2022-12-01&$skiptoken=1',
    ])
  })

  it('maps the properties the insight rules read', async () => {
    const { resources } = await connector().inventory(secretTenant, ctx)
    const byId = new Map(resources.map((r) => [r.armId, r]))

    expect(byId.get(IDS.webVm)).toMatchObject({
      name: 'web-vm-1',
      resourceType: 'microsoft.compute/virtualmachines',
      subscriptionId: SUB_PROD,
      resourceGroupName: 'RG-Web',
      location: 'westeurope',
      tags: { env: 'prod', owner: 'web' },
      sku: 'Standard_D4s_v5',
      state: 'VM running',
      properties: { vmSize: 'Standard_D4s_v5', licenseType: null, osType: 'Windows', powerState: 'VM running' },
    })
    expect(byId.get(IDS.devVm)?.properties).toMatchObject({ licenseType: 'Windows_Server' })
    expect(byId.get(IDS.batchVm)?.state).toBe('VM deallocated')
    expect(byId.get(IDS.oldDisk)).toMatchObject({
      sku: 'Standard_LRS',
      state: 'Unattached',
      tags: { project: 'migration' },
      properties: { diskState: 'Unattached', diskSizeGB: 1024 },
    })
    expect(byId.get(IDS.osDisk)).toMatchObject({ state: 'Attached', properties: { managedBy: IDS.webVm } })
    expect(byId.get(IDS.spareIp)).toMatchObject({
      state: 'Unattached',
      properties: { attached: false, ipConfigurationId: null },
    })
    expect(byId.get(IDS.webIp)).toMatchObject({ state: 'Attached', properties: { attached: true } })
    expect(byId.get(IDS.emptyPlan)).toMatchObject({
      sku: 'P1v3',
      state: 'Ready',
      properties: { numberOfSites: 0, skuTier: 'PremiumV3', capacity: 2 },
    })
    expect(byId.get(IDS.storage)).toMatchObject({ sku: 'Standard_GRS', state: 'Succeeded' })
  })

  it('gives up after bounded retries when Resource Graph keeps failing', async () => {
    fake.failNext('graph', 503, Number.POSITIVE_INFINITY)
    const err = await failure(connector({ retry: { maxRetries: 3 } }).inventory(secretTenant, ctx))

    expect(err.code).toBe('provider_error')
    expect(err.retryable).toBe(true)
    expect(err.message).toContain('Resource Graph')
    expect(err.message).toContain('503')
    expect(fake.requests.filter((r) => r.kind === 'graph')).toHaveLength(4)
    expect(waits).toEqual([1000, 2000, 4000])
  })

  it('recovers from a few server errors', async () => {
    fake.failNext('subscriptions', 500, 2)
    const inventory = await connector().inventory(secretTenant, ctx)

    expect(inventory.subscriptions).toHaveLength(2)
    expect(waits).toEqual([1000, 2000])
  })

  it('reports a missing role as forbidden', async () => {
    fake.failNext('graph', 403, 1)
    const err = await failure(connector().inventory(secretTenant, ctx))

    expect(err.code).toBe('forbidden')
    expect(err.retryable).toBe(false)
    expect(err.message).toContain('AuthorizationFailed')
    expect(waits).toEqual([])
  })
})

describe('azure connector: costs', () => {
  it('pages Cost Management with nextLink and returns every row exactly once', async () => {
    const batches = await collect(connector().dailyCosts(secretTenant, WEEK, ctx))
    const rows = batches.flat()

    const expected = expectedWeek()
    expect(new Set(rows.map(keyOf)).size).toBe(rows.length)
    expect(rows).toHaveLength(expected.size)
    for (const row of rows) expect(row.cost, keyOf(row)).toBeCloseTo(expected.get(keyOf(row)) ?? Number.NaN, 9)

    const daily = fake.requests.filter(
      (r) => r.kind === 'cost' && (r.body as { dataset: { granularity: string } }).dataset.granularity === 'Daily',
    )
    const pagesOf = (sub: string) => Math.ceil([...expected.keys()].filter((k) => k.startsWith(sub)).length / 4)
    expect(pagesOf(SUB_PROD)).toBeGreaterThan(5)
    expect(daily).toHaveLength(pagesOf(SUB_PROD) + pagesOf(SUB_DEV))
    expect(batches).toHaveLength(daily.length)
    // Every page after the first is the nextLink, POSTed with the first page's body.
    const prodPages = daily.filter((r) => r.url.includes(SUB_PROD))
    expect(prodPages.slice(1).every((r) => r.url.includes('$skiptoken='))).toBe(true)
    expect(new Set(prodPages.map((r) => JSON.stringify(r.body))).size).toBe(1)
    expect(prodPages[0]?.body).toEqual({
      type: 'AmortizedCost',
      timeframe: 'Custom',
      timePeriod: { from: '2023-11-01T00:00:00Z', to: '2023-11-05T23:59:59Z' },
      dataset: {
        granularity: 'Daily',
        aggregation: { totalCost: { name: 'Cost', function: 'Sum' } },
        grouping: [
          { type: 'Dimension', name: 'ResourceId' },
          { type: 'Dimension', name: 'MeterId' },
        ],
      },
    })
  })

  it('maps dates, groups, services, meters and charges without a resource', async () => {
    const rows = (await collect(connector().dailyCosts(secretTenant, WEEK, ctx))).flat()

    expect(new Set(rows.map((r) => r.date))).toEqual(new Set(DAYS.slice(1, 6)))
    const reads = rows.find(
      (r) =>
        r.resourceArmId === IDS.storage.toLowerCase() && r.meterName === 'Read Operations' && r.date === '2023-11-02',
    )
    expect(reads).toMatchObject({
      subscriptionId: SUB_PROD,
      resourceGroupName: 'rg-data', // Cost Management lower-cases ids; names match case-insensitively
      serviceName: 'Storage',
      currency: 'EUR',
    })
    expect(reads?.cost).toBeCloseTo(0.034, 9) // two usage records of one meter and day, summed
    const defender = rows.filter((r) => r.serviceName === 'Microsoft Defender for Cloud')
    expect(defender).toHaveLength(5)
    expect(defender.every((r) => r.resourceArmId === null && r.resourceGroupName === null)).toBe(true)
    const marketplace = rows.filter((r) => r.meterId === 'unmetered')
    expect(marketplace.map((r) => r.date)).toEqual(['2023-11-02', '2023-11-04'])
    expect(marketplace.every((r) => r.resourceArmId === null && r.serviceName === 'Marketplace')).toBe(true)
    expect(
      rows
        .filter((r) => r.subscriptionId === SUB_DEV)
        .every((r) => r.currency === 'USD' && r.serviceName === 'Virtual Machines'),
    ).toBe(true)
  })

  it('keeps charge types apart: one query per type, filtered, when the window has several', async () => {
    const vmUsage = estate.usage.find((u) => u.resourceId === IDS.webVm && u.date === '2023-11-03')!
    const METER_OF_VM = { meterId: vmUsage.meterId, meter: vmUsage.meter, serviceName: vmUsage.serviceName }
    const extra = [
      { chargeType: 'Purchase', meterId: '', meter: '', serviceName: 'Marketplace', resourceId: '', cost: 40 },
      { chargeType: 'Tax', meterId: '', meter: '', serviceName: 'Marketplace', resourceId: '', cost: 7.6 },
      { chargeType: 'Refund', meterId: '', meter: '', serviceName: 'Marketplace', resourceId: '', cost: -10 },
      { chargeType: 'UnusedReservation', ...METER_OF_VM, resourceId: IDS.webVm, cost: 0.25 },
    ].map((u) => ({ ...u, date: '2023-11-03', subscriptionId: SUB_PROD }))
    estate.usage.push(...extra)
    try {
      const rows = (await collect(connector().dailyCosts(secretTenant, WEEK, ctx))).flat()
      const charges = rows
        .filter((r) => r.subscriptionId === SUB_PROD && r.date === '2023-11-03' && r.resourceArmId === null)
        .filter((r) => r.meterId === 'unmetered')
        .map((r) => [r.chargeCategory, r.chargeClass, r.cost])
        .sort()
      expect(charges).toEqual([
        ['Purchase', null, 40],
        ['Purchase', 'Correction', -10],
        ['Tax', null, 7.6],
      ])
      // Unused reservation hours are usage: the same key as the VM's own usage that day, summed at merge.
      const vm = rows.filter((r) => r.resourceArmId === IDS.webVm.toLowerCase() && r.date === '2023-11-03')
      expect(vm.map((r) => r.chargeCategory)).toEqual(['Usage', 'Usage'])
      expect(vm.reduce((a, r) => a + r.cost, 0)).toBeCloseTo(vmUsage.cost + 0.25, 9)
      expect(rows.filter((r) => r.subscriptionId === SUB_DEV).every((r) => r.chargeCategory === 'Usage')).toBe(true)

      const bodies = fake.requests
        .filter((r) => r.kind === 'cost' && r.url.includes(SUB_PROD) && !r.url.includes('$skiptoken'))
        .map((r) => r.body as { dataset: { granularity: string; grouping: { name: string }[]; filter?: unknown } })
      expect(bodies.filter((b) => b.dataset.grouping.map((g) => g.name).join() === 'ChargeType')).toHaveLength(1)
      expect(bodies.filter((b) => b.dataset.granularity === 'Daily').map((b) => b.dataset.filter)).toEqual(
        ['Purchase', 'Refund', 'Tax', 'UnusedReservation', 'Usage'].map((type) => ({
          dimensions: { name: 'ChargeType', operator: 'In', values: [type] },
        })),
      )
      // With one type only (the other subscription), the daily query goes out unfiltered, as before.
      const dev = fake.requests
        .filter((r) => r.kind === 'cost' && r.url.includes(SUB_DEV))
        .map((r) => r.body as { dataset: { granularity: string; filter?: unknown } })
      expect(dev.filter((b) => b.dataset.granularity === 'Daily').every((b) => b.dataset.filter === undefined)).toBe(
        true,
      )
    } finally {
      estate.usage.splice(estate.usage.length - extra.length, extra.length)
    }
  })

  it('waits as long as the longest retry-after header of a 429, then succeeds', async () => {
    fake.throttleCostQueries(2, {
      'x-ms-ratelimit-microsoft.costmanagement-qpu-retry-after': '7',
      'x-ms-ratelimit-microsoft.costmanagement-entity-retry-after': '12',
    })
    const rows = (await collect(connector().dailyCosts(secretTenant, WEEK, ctx))).flat()

    expect(rows).toHaveLength(expectedWeek().size)
    expect(waits).toEqual([12_000, 12_000])
    expect(fake.requests.filter((r) => r.kind === 'cost' && r.status === 429)).toHaveLength(2)
  })

  it('honours Retry-After when that is the header given', async () => {
    fake.throttleCostQueries(1, { 'Retry-After': '3' })
    await collect(connector().dailyCosts(secretTenant, WEEK, ctx))

    expect(waits).toEqual([3_000])
  })

  it('fails as throttled when Azure asks for a longer pause than the connector waits', async () => {
    fake.throttleCostQueries(1, { 'x-ms-ratelimit-microsoft.costmanagement-tenant-retry-after': '3600' })
    const err = await failure(collect(connector().dailyCosts(secretTenant, WEEK, ctx)))

    expect(err.code).toBe('throttled')
    expect(err.retryable).toBe(true)
    expect(waits).toEqual([])
  })

  it('gives up with a retryable error after bounded retries of a failing query', async () => {
    fake.failNext('cost', 500, Number.POSITIVE_INFINITY)
    const err = await failure(collect(connector({ retry: { maxRetries: 2 } }).dailyCosts(secretTenant, WEEK, ctx)))

    expect(err).toMatchObject({ code: 'provider_error', retryable: true })
    expect(err.message).toContain('Cost Management')
    expect(fake.requests.filter((r) => r.kind === 'cost')).toHaveLength(3)
    expect(waits).toEqual([1000, 2000])
  })
})

describe('azure connector: CPU metrics', () => {
  it('reads daily average, maximum and p95 CPU per VM from its hours; deallocated days and deleted VMs give no samples', async () => {
    const gone = `/subscriptions/${SUB_PROD}/resourceGroups/RG-Web/providers/Microsoft.Compute/virtualMachines/deleted-vm`
    const samples = await connector().cpuMetrics(secretTenant, [IDS.webVm, IDS.batchVm, gone], WEEK, ctx)

    expect(samples).toHaveLength(5)
    // The day's hours: one peak hour at 81%, 23 hours at (24 x 36 - 81) / 23 = 34.043478%; p95 is the 23rd of 24.
    expect(samples[0]).toEqual({
      resourceArmId: IDS.webVm,
      date: '2023-11-01',
      averagePercent: 36,
      maxPercent: 81,
      p95Percent: 34.043478,
    })
    const q = fake.requests.filter((r) => r.kind === 'metrics').map((r) => new URL(r.url, fake.url).searchParams)
    expect(q).toHaveLength(3)
    expect(q[0]?.get('metricnames')).toBe('Percentage CPU')
    expect(q[0]?.get('aggregation')).toBe('Average,Maximum')
    expect(q[0]?.get('interval')).toBe('PT1H')
    expect(q[0]?.get('timespan')).toBe('2023-11-01T00:00:00Z/2023-11-06T00:00:00Z')
    expect(q[0]?.get('api-version')).toBe('2023-10-01')
  })
})

describe('retryAfterMs', () => {
  const clock = fixedClock('2023-11-06T08:00:00Z')
  it('reads seconds, milliseconds and HTTP dates, and takes the longest', () => {
    expect(retryAfterMs(new Headers({ 'Retry-After': 'Mon, 06 Nov 2023 08:00:30 GMT' }), clock)).toBe(30_000)
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'Retry-After': '1' }), clock)).toBe(1_000)
    expect(
      retryAfterMs(
        new Headers({
          'x-ms-ratelimit-microsoft.costmanagement-clienttype-retry-after': '4',
          'x-ms-ratelimit-microsoft.costmanagement-qpu-retry-after': '9',
        }),
        clock,
      ),
    ).toBe(9_000)
    expect(
      retryAfterMs(
        new Headers({ 'x-ms-ratelimit-remaining-microsoft.costmanagement-entity-requests': 'DefaultQuota:3' }),
        clock,
      ),
    ).toBeNull()
  })
})
