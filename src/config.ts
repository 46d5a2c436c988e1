import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { isIP } from 'node:net'
import { dirname, join, resolve } from 'node:path'

export const CONNECTORS = ['azure', 'simulated'] as const
export type ConnectorName = (typeof CONNECTORS)[number]

/** Every setting of the service, read from the environment once, at start. */
export interface Config {
  databaseUrl: string
  host: string
  port: number
  secretKey: Buffer
  connector: ConnectorName
  /** Report files: a folder, or `s3://bucket/prefix`. */
  blobUrl: string
  /** How long a signed download URL lives. */
  signedUrlSeconds: number
  /** The S3 client of an `s3://` blob store: endpoint of an S3-compatible server, region, static credentials. */
  s3: { endpoint: string | null; region: string; credentials: { accessKeyId: string; secretAccessKey: string } | null }
  smtpUrl: string | null
  /** The sender of the service's e-mail. */
  mailFrom: string
  publicUrl: string
  rateLimitPerMinute: number
  /**
   * Reverse proxies (IP addresses, CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`) whose X-Forwarded-For
   * gives the client address; none by default: the connection's address is the client's.
   */
  trustedProxies: string[]
  /** The bearer token `/metrics` of the API port takes; null: the API port serves no `/metrics`. */
  metricsToken: string | null
  /** Failed authentications a client address may make a minute before it gets 429s. */
  authFailureLimitPerMinute: number
  /** Requests a client address may make a minute to the routes that take no key or session, before 429s. */
  anonymousLimitPerMinute: number
  logLevel: string
  /** SQLite's `synchronous` pragma (see SQLITE_SYNCHRONOUS). */
  sqliteSynchronous: SqliteSynchronous
  /** UTC hour from which each tenant's daily snapshot is queued. */
  snapshotHour: number
  workerPollMs: number
  /** Where `costwatch worker` serves /metrics and /healthz (on HOST); 0: a free port, printed at start. */
  workerPort: number
  /** How long a worker holds a run without a heartbeat before another may take it over. */
  runLeaseMs: number
  runMaxAttempts: number
  /** Pause of the simulated connector before each day of costs (demos of progress; tests of interrupted runs). */
  simulatedLatencyMs: number
  /** The simulated connector plants the demo's changes in its longer history instead of the recent ones (`serve --demo`). */
  simulatedPlantedChanges: boolean
  /** Entra ID and Resource Manager hosts of the Azure cloud (sovereign clouds differ); https only. */
  azureAuthorityHost: string
  azureArmEndpoint: string
  /** Folder of `<THUMBPRINT>.pem` files for ServicePrincipalCertificate tenants. */
  azureCertificateDir: string | null
  /** The newest days of a collection Azure still restates: preliminary, not judged by anomaly detection. */
  azureSettlingDays: number
  /**
   * Organisations whose tenancies may use the server's own credentials (managed identity, certificate folder);
   * null when not set: then only a server of a single organisation allows them.
   */
  hostCredentialOrganisations: string[] | null
  /**
   * Networks (CIDRs) the outbound client may reach although they are not public, over http as well as https
   * (an internal chat server); empty by default.
   */
  outboundAllow: string[]
  /** BigQuery's REST address for FocusExport tenants of Google Cloud (COSTWATCH_BIGQUERY_ENDPOINT). */
  bigQueryEndpoint: string
  /** The largest FOCUS file a POST /tenants/{id}/cost-files takes, in bytes (COSTWATCH_UPLOAD_MAX_MB). */
  uploadMaxBytes: number
  /** Notification deliveries one worker sends at once (COSTWATCH_NOTIFY_CONCURRENCY), at most 4 per channel. */
  notifyConcurrency: number
  /** Anomaly detection thresholds (COSTWATCH_ANOMALY_*); the defaults are DEFAULT_DETECTION's. */
  anomalyDetection: DetectionOptions
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>

function positiveInteger(env: Env, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw new ConfigError(`Setting ${name}: must be a whole number from 1 to ${max}, got "${raw}"`)
  }
  return Number(raw)
}

/** COSTWATCH_AZURE_SETTLING_DAYS: the newest days of a collection Azure still restates, 0 to 14; 2 by default. */
function azureSettlingDaysFrom(env: Env): number {
  const raw = env.COSTWATCH_AZURE_SETTLING_DAYS
  if (raw === undefined || raw === '') return 2
  if (!/^\d+$/.test(raw) || Number(raw) > 14)
    throw new ConfigError(`Setting COSTWATCH_AZURE_SETTLING_DAYS: must be a whole number from 0 to 14, got "${raw}"`)
  return Number(raw)
}

function positiveNumber(env: Env, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) <= 0) {
    throw new ConfigError(`Setting ${name}: must be a number above 0, got "${raw}"`)
  }
  return Number(raw)
}

/** Anomaly detection's thresholds (analysis/anomalies/detect.ts): settings, so declared here with their defaults. */
export interface DetectionOptions {
  /** Days of history needed before a day is judged. */
  minHistoryDays: number
  /** How many previous same weekdays make the baseline. */
  seasonWeeks: number
  /** Robust score (deviations in units of the scale) a day must reach. */
  scoreThreshold: number
  /** Smallest absolute deviation, in the series' currency, that can be an anomaly. */
  minImpact: number
  /** Smallest deviation in percent of the expected cost that can be an anomaly. */
  minImpactPercent: number
  /** Days an episode must last to count as a new level rather than a spike. */
  shiftConfirmDays: number
}

export const DEFAULT_DETECTION: DetectionOptions = {
  minHistoryDays: 14,
  seasonWeeks: 8,
  scoreThreshold: 4,
  minImpact: 25,
  minImpactPercent: 20,
  shiftConfirmDays: 3,
}

/** Detection thresholds: money and percent a change must reach, its robust score, and the history it needs. */
function anomalyDetectionFrom(env: Env): DetectionOptions {
  const d = DEFAULT_DETECTION
  return {
    minImpact: positiveNumber(env, 'COSTWATCH_ANOMALY_MIN_IMPACT', d.minImpact),
    minImpactPercent: positiveNumber(env, 'COSTWATCH_ANOMALY_MIN_IMPACT_PERCENT', d.minImpactPercent),
    scoreThreshold: positiveNumber(env, 'COSTWATCH_ANOMALY_SCORE', d.scoreThreshold),
    minHistoryDays: positiveInteger(env, 'COSTWATCH_ANOMALY_MIN_HISTORY_DAYS', d.minHistoryDays, 365),
    seasonWeeks: positiveInteger(env, 'COSTWATCH_ANOMALY_SEASON_WEEKS', d.seasonWeeks, 26),
    shiftConfirmDays: positiveInteger(env, 'COSTWATCH_ANOMALY_SHIFT_DAYS', d.shiftConfirmDays, 60),
  }
}

/**
 * When SQLite waits for the disk: `NORMAL` (the default) syncs the WAL only at checkpoints, so a power cut may lose
 * the last commits (a revoked key, an audit row), never corrupting the file; `FULL` syncs it at every commit, so a
 * commit that returned survives a power cut. FULL cost half of the idempotent event creates a second (one sync of
 * 3-5 ms per commit on the test machine's disk): README "Reports, markers and durability".
 */
export const SQLITE_SYNCHRONOUS = ['FULL', 'NORMAL'] as const
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS)[number]

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!values.includes(raw as T))
    throw new ConfigError(`Setting ${name}: must be one of ${values.join(', ')}, got "${raw}"`)
  return raw as T
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** A comma-separated list of organisation ids; unset or empty: null. */
function organisationIds(env: Env, name: string): string[] | null {
  const raw = env[name]?.trim()
  if (!raw) return null
  const ids = raw.split(',').map((id) => id.trim().toLowerCase())
  const bad = ids.find((id) => !UUID.test(id))
  if (bad !== undefined)
    throw new ConfigError(`Setting ${name}: must be organisation ids separated by commas, got "${bad}"`)
  return ids
}

/** A list of CIDRs separated by commas (`10.1.2.0/24, fd00::/8`); a bare address is its own /32 or /128. */
function cidrList(env: Env, name: string): string[] {
  const raw = env[name]?.trim()
  if (!raw) return []
  // node:net, not ipaddr.js: every command reads the settings, and most never send a request (the outbound
  // client parses the list again with ipaddr.js when it is built).
  return raw.split(',').map((item) => {
    const text = item.trim()
    const cidr = cidrOf(text)
    if (!cidr)
      throw new ConfigError(`Setting ${name}: must be CIDRs separated by commas (10.1.2.0/24, fd00::/8), got "${text}"`)
    return cidr
  })
}

/** `address/bits` of a CIDR, or of a bare address (its own /32 or /128); null when the text is neither. */
function cidrOf(text: string): string | null {
  const [address = '', bits, ...rest] = text.split('/')
  const version = isIP(address)
  const max = version === 4 ? 32 : 128
  if (version === 0 || rest.length || (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > max)))
    return null
  return `${address}/${bits ?? max}`
}

function httpsUrl(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback
  if (!/^https:\/\/[^/?#@\s]+\/?$/.test(raw))
    throw new ConfigError(`Setting ${name}: must be an https:// origin, got "${raw}"`)
  return raw.replace(/\/+$/, '')
}

/** An https:// origin, or an http:// one on the loopback interface (an emulator on the same machine). */
function httpsOrLoopbackUrl(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback
  if (/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/?$/.test(raw)) return raw.replace(/\/+$/, '')
  return httpsUrl(env, name, fallback)
}

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/** COSTWATCH_TRUST_PROXY: comma-separated addresses and CIDR ranges, as Fastify's trustProxy takes them. */
function trustedProxiesFrom(env: Env): string[] {
  const entries = (env.COSTWATCH_TRUST_PROXY ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  for (const entry of entries) {
    if (PROXY_RANGE_NAMES.has(entry)) continue
    if (!cidrOf(entry))
      throw new ConfigError(
        `Setting COSTWATCH_TRUST_PROXY: "${entry}" is not an IP address or CIDR range (e.g. 10.0.0.5, 10.0.0.0/8, loopback)`,
      )
  }
  return entries
}

/** COSTWATCH_METRICS_TOKEN: long enough not to be guessed, and sendable in a header. The value is never repeated. */
function metricsTokenFrom(env: Env): string | null {
  const token = env.COSTWATCH_METRICS_TOKEN
  if (!token) return null
  if (!/^[\x21-\x7e]{16,}$/.test(token))
    throw new ConfigError('Setting COSTWATCH_METRICS_TOKEN: must be at least 16 printable characters, without spaces')
  return token
}

/** The folder that holds the SQLite file and generated files; `null` for PostgreSQL. */
export function dataFolderOf(databaseUrl: string): string | null {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return null
  return dirname(resolve(sqliteFileOf(databaseUrl)))
}

export function sqliteFileOf(databaseUrl: string): string {
  return databaseUrl.startsWith('sqlite:')
    ? databaseUrl.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '')
    : databaseUrl
}

function secretKeyFrom(env: Env, databaseUrl: string): Buffer {
  const raw = env.COSTWATCH_SECRET_KEY
  if (raw) {
    const key = Buffer.from(raw, 'base64')
    if (key.length !== 32) throw new ConfigError('Setting COSTWATCH_SECRET_KEY: must be 32 bytes, base64-encoded')
    return key
  }
  // First start without a key: generate one beside the database, readable by this user only.
  const folder = dataFolderOf(databaseUrl) ?? resolve('data')
  const file = join(folder, 'secret.key')
  if (existsSync(file)) return secretKeyFrom({ COSTWATCH_SECRET_KEY: readFileSync(file, 'utf8').trim() }, databaseUrl)
  mkdirSync(folder, { recursive: true })
  const key = randomBytes(32)
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return key
}

/** `http://HOST:PORT`, with an IPv6 host in brackets. */
export function httpBase(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`
}

export function loadConfig(
  env: Env = process.env,
  defaults: { defaultConnector?: ConnectorName; simulatedPlantedChanges?: boolean } = {},
): Config {
  const databaseUrl = env.COSTWATCH_DATABASE_URL || './data/costwatch.db'
  const host = env.HOST || '127.0.0.1'
  const port = env.PORT === '0' ? 0 : positiveInteger(env, 'PORT', 8080, 65535)
  const publicUrl = (env.COSTWATCH_PUBLIC_URL || httpBase(host, port)).replace(/\/+$/, '')
  if (!/^https?:\/\//.test(publicUrl))
    throw new ConfigError('Setting COSTWATCH_PUBLIC_URL: must start with http:// or https://')
  const smtpUrl = env.COSTWATCH_SMTP_URL || null
  // The value is never repeated in the message: it may hold the SMTP password.
  if (smtpUrl && (!/^smtps?:\/\//.test(smtpUrl) || !URL.canParse(smtpUrl) || !new URL(smtpUrl).hostname))
    throw new ConfigError('Setting COSTWATCH_SMTP_URL: must be an smtp:// or smtps:// URL with a host')
  return {
    databaseUrl,
    host,
    port,
    secretKey: secretKeyFrom(env, databaseUrl),
    connector: oneOf(env, 'COSTWATCH_CONNECTOR', CONNECTORS, defaults.defaultConnector ?? 'azure'),
    // By default beside the SQLite file (one folder to back up), or ./data/blobs with PostgreSQL.
    blobUrl: env.COSTWATCH_BLOB_URL || join(dataFolderOf(databaseUrl) ?? resolve('data'), 'blobs'),
    signedUrlSeconds: positiveInteger(env, 'COSTWATCH_SIGNED_URL_SECONDS', 300, 7 * 86_400),
    s3: {
      endpoint: env.COSTWATCH_S3_ENDPOINT || null,
      region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
      credentials:
        env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
          ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY }
          : null,
    },
    smtpUrl,
    mailFrom:
      env.COSTWATCH_MAIL_FROM ||
      `Costwatch <costwatch@${new URL(publicUrl).hostname.replace(/^\[|\]$/g, '') || 'localhost'}>`,
    publicUrl,
    rateLimitPerMinute: positiveInteger(env, 'COSTWATCH_RATE_LIMIT', 600),
    trustedProxies: trustedProxiesFrom(env),
    metricsToken: metricsTokenFrom(env),
    authFailureLimitPerMinute: positiveInteger(env, 'COSTWATCH_AUTH_FAILURE_LIMIT', 60),
    anonymousLimitPerMinute: positiveInteger(env, 'COSTWATCH_ANONYMOUS_LIMIT', 30),
    snapshotHour: env.COSTWATCH_SNAPSHOT_HOUR === '0' ? 0 : positiveInteger(env, 'COSTWATCH_SNAPSHOT_HOUR', 2, 23),
    workerPollMs: positiveInteger(env, 'COSTWATCH_WORKER_POLL_MS', 1000, 600_000),
    workerPort: env.WORKER_PORT === '0' ? 0 : positiveInteger(env, 'WORKER_PORT', 9464, 65535),
    runLeaseMs: positiveInteger(env, 'COSTWATCH_RUN_LEASE_MS', 60_000, 3_600_000),
    runMaxAttempts: positiveInteger(env, 'COSTWATCH_RUN_MAX_ATTEMPTS', 3, 100),
    simulatedLatencyMs: env.COSTWATCH_SIMULATED_LATENCY_MS
      ? positiveInteger(env, 'COSTWATCH_SIMULATED_LATENCY_MS', 0, 60_000)
      : 0,
    simulatedPlantedChanges: defaults.simulatedPlantedChanges ?? false,
    azureAuthorityHost: httpsUrl(env, 'COSTWATCH_AZURE_AUTHORITY_HOST', 'https://login.microsoftonline.com'),
    azureArmEndpoint: httpsUrl(env, 'COSTWATCH_AZURE_ARM_ENDPOINT', 'https://management.azure.com'),
    azureCertificateDir: env.COSTWATCH_AZURE_CERT_DIR || null,
    azureSettlingDays: azureSettlingDaysFrom(env),
    hostCredentialOrganisations: organisationIds(env, 'COSTWATCH_HOST_CREDENTIAL_ORGS'),
    outboundAllow: cidrList(env, 'COSTWATCH_OUTBOUND_ALLOW'),
    bigQueryEndpoint: httpsOrLoopbackUrl(env, 'COSTWATCH_BIGQUERY_ENDPOINT', 'https://bigquery.googleapis.com'),
    uploadMaxBytes: positiveInteger(env, 'COSTWATCH_UPLOAD_MAX_MB', 2048, 1024 * 1024) * 1024 * 1024,
    notifyConcurrency: positiveInteger(env, 'COSTWATCH_NOTIFY_CONCURRENCY', 16, 256),
    anomalyDetection: anomalyDetectionFrom(env),
    logLevel: oneOf(env, 'COSTWATCH_LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    sqliteSynchronous: oneOf(env, 'COSTWATCH_SQLITE_SYNCHRONOUS', SQLITE_SYNCHRONOUS, 'NORMAL'),
  }
}
