import { createHash, createPrivateKey, X509Certificate } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { TokenCredential } from '@azure/identity'
import { ConnectorError, type TenantConnection } from '../types.js'
import { type Fetch, fetchHttpClient, withoutTokens } from './http.js'

export interface CredentialSettings {
  authorityHost: string
  /** Scope of every token: `${armEndpoint}/.default`. */
  scope: string
  fetch: Fetch
  /** Where `<THUMBPRINT>.pem` (private key and certificate) of each certificate tenant lives. */
  certificateDir: string | null
  /** Retries of the managed-identity endpoint (the SDK's own policy; it waits 0.8 s, then doubles). */
  managedIdentityMaxRetries: number | undefined
}

export type TokenSource = (signal?: AbortSignal) => Promise<string>

/**
 * One credential per tenant and secret, kept for the connector's life: MSAL caches tokens inside a credential,
 * so a run asks Entra once per hour rather than once per request. A changed secret or certificate makes a new key.
 */
export function createTokenSources(settings: CredentialSettings) {
  const credentials = new Map<string, Promise<TokenCredential>>()

  return function tokenSourceFor(conn: TenantConnection): TokenSource {
    const key = cacheKey(conn)
    return async (signal) => {
      let credential = credentials.get(key)
      if (!credential) {
        credential = credentialFor(conn, settings)
        credentials.set(key, credential)
        credential.catch(() => credentials.delete(key)) // a missing certificate file may appear later
      }
      try {
        const token = await (await credential).getToken(settings.scope, { abortSignal: signal })
        if (!token) throw new ConnectorError('auth_failed', `${describe(conn)} returned no access token.`)
        if (conn.credentialType === 'ManagedIdentity') checkDirectory(conn, token.token)
        return token.token
      } catch (err) {
        // The SDK also throws from constructors (a malformed directory id); every failure leaves as a ConnectorError.
        if (err instanceof ConnectorError || signal?.aborted) throw err
        throw tokenError(conn, err, settings.authorityHost)
      }
    }
  }
}

/**
 * A service principal's client-secret credential for a reader besides the connector (a Blob Storage export, whose
 * SDK asks it for tokens of its own scope): the connector's credential, on the same authority host and fetch, its
 * failures told as the connector tells them (tokenError), never with the secret.
 */
export function servicePrincipalCredential(
  principal: { tenantId: string; clientId: string; clientSecret: string },
  settings: Pick<CredentialSettings, 'authorityHost' | 'fetch'>,
): TokenCredential {
  const conn: TenantConnection = {
    tenantId: '',
    cloudTenantId: principal.tenantId,
    credentialType: 'ServicePrincipalSecret',
    clientId: principal.clientId,
    clientSecret: principal.clientSecret,
    certificateThumbprint: null,
  }
  let credential: Promise<TokenCredential> | null = null
  return {
    async getToken(scopes, options) {
      try {
        credential ??= credentialFor(conn, {
          ...settings,
          scope: '',
          certificateDir: null,
          managedIdentityMaxRetries: undefined,
        })
        return await (await credential).getToken(scopes, options)
      } catch (err) {
        if (err instanceof ConnectorError || options?.abortSignal?.aborted) throw err
        throw tokenError(conn, err, settings.authorityHost)
      }
    },
  }
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * The host's managed identity has one home directory, whatever the tenancy names: its token is used only when its
 * `tid` claim is the tenancy's directory id, so a tenancy can never collect another directory's costs under its
 * own name. The identity endpoint takes no directory, so the check is on the token it answers. Which directory it
 * did belong to is not said: the tenancy's viewers read the message.
 */
function checkDirectory(conn: TenantConnection, accessToken: string): void {
  const wanted = conn.cloudTenantId.toLowerCase()
  if (!GUID.test(wanted)) {
    throw new ConnectorError(
      'invalid_credentials',
      `${describe(conn)}: a managed identity tenancy must name its directory by id (a GUID), not by domain name.`,
    )
  }
  let tid: unknown
  try {
    tid = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')).tid
  } catch {}
  if (typeof tid !== 'string' || tid.toLowerCase() !== wanted) {
    throw new ConnectorError(
      'auth_failed',
      `${describe(conn)}: the server's managed identity is not an identity of directory ${conn.cloudTenantId}.`,
    )
  }
}

function cacheKey(conn: TenantConnection): string {
  const secret = conn.clientSecret ? createHash('sha256').update(conn.clientSecret).digest('hex') : ''
  return [conn.cloudTenantId, conn.credentialType, conn.clientId, conn.certificateThumbprint, secret].join('|')
}

async function credentialFor(conn: TenantConnection, settings: CredentialSettings): Promise<TokenCredential> {
  // Loaded by the first Azure collection: the command line and the API never need the identity library.
  const { ClientCertificateCredential, ClientSecretCredential, ManagedIdentityCredential } = await import(
    '@azure/identity'
  )
  const common = {
    authorityHost: settings.authorityHost,
    httpClient: fetchHttpClient(settings.fetch),
    // Instance discovery would ask login.microsoftonline.com to vouch for the authority, even for a sovereign or
    // private one; the authority host is the operator's setting, so it is trusted as configured.
    disableInstanceDiscovery: true,
  }
  switch (conn.credentialType) {
    case 'ServicePrincipalSecret':
      if (!conn.clientId || !conn.clientSecret) throw missing(conn, 'a client id and a client secret')
      return new ClientSecretCredential(conn.cloudTenantId, conn.clientId, conn.clientSecret, common)
    case 'ServicePrincipalCertificate': {
      if (!conn.clientId || !conn.certificateThumbprint) throw missing(conn, 'a client id and a certificate thumbprint')
      const certificate = await loadCertificate(settings.certificateDir, conn.certificateThumbprint)
      return new ClientCertificateCredential(conn.cloudTenantId, conn.clientId, { certificate }, common)
    }
    case 'ManagedIdentity': {
      // The host provides the identity (IMDS on a VM, IDENTITY_ENDPOINT and IDENTITY_HEADER on App Service and
      // Container Apps); a client id picks a user-assigned identity.
      const retryOptions =
        settings.managedIdentityMaxRetries === undefined
          ? undefined
          : { maxRetries: settings.managedIdentityMaxRetries }
      return new ManagedIdentityCredential({ ...common, clientId: conn.clientId ?? undefined, retryOptions })
    }
  }
}

/** Reads `<dir>/<THUMBPRINT>.pem` and checks that it holds a private key and the certificate with that thumbprint. */
export async function loadCertificate(dir: string | null, thumbprint: string): Promise<string> {
  const wanted = thumbprint.replace(/[:\s]/g, '').toUpperCase()
  if (!/^([0-9A-F]{40}|[0-9A-F]{64})$/.test(wanted)) {
    throw new ConnectorError('invalid_credentials', 'The certificate thumbprint must be 40 or 64 hexadecimal digits.')
  }
  if (!dir) {
    throw new ConnectorError('invalid_credentials', 'No certificate folder is configured for certificate tenants.')
  }
  const file = join(dir, `${wanted}.pem`)
  const pem = await readFile(file, 'utf8').catch(() => {
    throw new ConnectorError('invalid_credentials', `The certificate file ${wanted}.pem is missing or unreadable.`)
  })
  const certificateBlock = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem)?.[0]
  if (!certificateBlock || !hasPrivateKey(pem)) {
    throw new ConnectorError(
      'invalid_credentials',
      `The certificate file ${wanted}.pem must hold an unencrypted private key and its certificate (PEM).`,
    )
  }
  const certificate = new X509Certificate(certificateBlock)
  const thumbprints = [certificate.fingerprint, certificate.fingerprint256].map((f) => f.replaceAll(':', ''))
  if (!thumbprints.includes(wanted)) {
    throw new ConnectorError('invalid_credentials', `The certificate in ${wanted}.pem has a different thumbprint.`)
  }
  return pem
}

function hasPrivateKey(pem: string): boolean {
  try {
    createPrivateKey(pem)
    return true
  } catch {
    return false
  }
}

function missing(conn: TenantConnection, what: string): ConnectorError {
  return new ConnectorError('invalid_credentials', `${describe(conn)} needs ${what}.`)
}

function describe(conn: TenantConnection): string {
  const client = conn.clientId ? ` (client ${conn.clientId})` : ''
  return `The ${conn.credentialType} credential of directory ${conn.cloudTenantId}${client}`
}

/**
 * Entra's answer names the reason (`invalid_client`, `AADSTS7000215: Invalid client secret provided...`) and never
 * the secret, but the text is still cleaned: the secret and anything token-shaped are removed before it is shown.
 */
function tokenError(conn: TenantConnection, err: unknown, authorityHost: string): ConnectorError {
  const e = err as { name?: string; statusCode?: number; errorResponse?: { error?: string; errorDescription?: string } }
  const retryable = e.statusCode !== undefined && (e.statusCode === 429 || e.statusCode >= 500)
  let reason = e.errorResponse
    ? [e.errorResponse.error, firstLine(e.errorResponse.errorDescription)].filter(Boolean).join(': ')
    : firstLine(err instanceof Error ? err.message : String(err))
  // MSAL's own words for "no OpenID configuration" only point at a web page; say what it means here.
  if (reason.includes('endpoints_resolution_error')) {
    reason = `${authorityHost} did not serve the OpenID configuration of this directory (unreachable, or an unknown directory id)`
  }
  if (conn.clientSecret) reason = reason.split(conn.clientSecret).join('[secret]')
  reason = withoutTokens(reason).slice(0, 400).replace(/\.+$/, '')
  return new ConnectorError(
    'auth_failed',
    `${describe(conn)} could not get an access token${reason ? `: ${reason}` : ''}.`,
    retryable,
  )
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split(/\r?\n/)[0]?.trim() ?? ''
}
