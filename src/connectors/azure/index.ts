import type { Clock } from '../../platform/clock.js'
import { lastDays, toDay } from '../../platform/time.js'
import {
  type Connector,
  ConnectorError,
  type DayWindow,
  type SubscriptionItem,
  type TenantConnection,
} from '../types.js'
import { billingCurrency, subscriptionDailyCosts } from './costs.js'
import { createTokenSources } from './credentials.js'
import {
  type ArmClient,
  createArmClient,
  defaultRetryPolicy,
  type Fetch,
  type RetryPolicy,
  realSleep,
  type Sleep,
} from './http.js'
import {
  graphQuery,
  listSubscriptions,
  RESOURCE_GROUPS_QUERY,
  RESOURCES_QUERY,
  toResource,
  toResourceGroup,
} from './inventory.js'
import { cpuSamples } from './metrics.js'

export interface AzureConnectorOptions {
  /** Entra ID host; another one for sovereign clouds (`https://login.microsoftonline.us`) or a test fake. Must be https. */
  authorityHost?: string
  /** Azure Resource Manager; tokens are asked for `${armEndpoint}/.default`. */
  armEndpoint?: string
  /** Carries every request, token requests included. */
  fetch?: Fetch
  /** Folder of `<THUMBPRINT>.pem` files (private key and certificate) for ServicePrincipalCertificate tenants. */
  certificateDir?: string | null
  /**
   * The managed identity itself comes from the host (IMDS, or IDENTITY_ENDPOINT and IDENTITY_HEADER on App Service
   * and Container Apps); a tenant's client id picks a user-assigned one. Only the SDK's retries are set here.
   */
  managedIdentity?: { maxRetries?: number }
  /** Retries of throttled (429) and failed (5xx, network) ARM calls; `maxRetries` alone is enough to change. */
  retry?: Partial<RetryPolicy>
  sleep?: Sleep
  /** For subscriptions that have no cost yet, whose billing currency Cost Management cannot tell. */
  defaultCurrency?: string
}

const CURRENCY_LOOKBACK_DAYS = 30

export function createAzureConnector(options: AzureConnectorOptions = {}): Connector {
  const armEndpoint = (options.armEndpoint ?? 'https://management.azure.com').replace(/\/+$/, '')
  const authorityHost = (options.authorityHost ?? 'https://login.microsoftonline.com').replace(/\/+$/, '')
  const fetch: Fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init))
  const retry = { ...defaultRetryPolicy, ...options.retry }
  const tokenSourceFor = createTokenSources({
    authorityHost,
    scope: `${armEndpoint}/.default`,
    fetch,
    certificateDir: options.certificateDir ?? null,
    managedIdentityMaxRetries: options.managedIdentity?.maxRetries,
  })

  function armFor(conn: TenantConnection, clock: Clock): ArmClient {
    return createArmClient({
      armEndpoint,
      fetch,
      sleep: options.sleep ?? realSleep,
      clock,
      retry,
      token: tokenSourceFor(conn),
    })
  }

  return {
    name: 'azure',

    async inventory(conn, { clock, signal }) {
      const arm = armFor(conn, clock)
      const found = await listSubscriptions(arm, signal)
      const ids = found.map((s) => s.subscriptionId)
      const subscriptions: SubscriptionItem[] = []
      for (const s of found) {
        const currency = await billingCurrency(
          arm,
          s.subscriptionId,
          lastDays(toDay(clock.now()), CURRENCY_LOOKBACK_DAYS),
          signal,
        )
        subscriptions.push({ ...s, currency: currency ?? options.defaultCurrency ?? 'USD' })
      }
      if (ids.length === 0) return { subscriptions, resourceGroups: [], resources: [] }
      const groupRows = await graphQuery(
        arm,
        ids,
        RESOURCE_GROUPS_QUERY,
        'the Resource Graph query of resource groups',
        signal,
      )
      const resourceRows = await graphQuery(arm, ids, RESOURCES_QUERY, 'the Resource Graph query of resources', signal)
      return {
        subscriptions,
        resourceGroups: groupRows.map(toResourceGroup).filter((g) => g !== null),
        resources: resourceRows.map(toResource).filter((r) => r !== null),
      }
    },

    async *dailyCosts(conn, window, { clock, signal }) {
      checkWindow(window)
      const arm = armFor(conn, clock)
      // A deleted subscription has no cost scope left to query; a disabled one still has its past costs.
      const subscriptions = (await listSubscriptions(arm, signal)).filter((s) => s.state !== 'Deleted')
      for (const s of subscriptions) yield* subscriptionDailyCosts(arm, s.subscriptionId, window, signal)
    },

    async cpuMetrics(conn, vmArmIds, window, { clock, signal }) {
      checkWindow(window)
      if (vmArmIds.length === 0) return []
      return cpuSamples(armFor(conn, clock), vmArmIds, window, signal)
    },
  }
}

function checkWindow(window: DayWindow) {
  const day = /^\d{4}-\d{2}-\d{2}$/
  if (!day.test(window.from) || !day.test(window.to) || window.from > window.to) {
    throw new ConnectorError('invalid_window', `The day window ${window.from}..${window.to} is not valid.`)
  }
}
