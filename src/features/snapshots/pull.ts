import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { servicePrincipalCredential } from '../../connectors/azure/credentials.js'
import type { Fetch } from '../../connectors/azure/http.js'
import { azureBlobExportLocation } from '../../connectors/exports/azure-blob.js'
import { type BigQueryExportSettings, bigQueryExportLocation } from '../../connectors/exports/bigquery.js'
import { s3ExportLocation } from '../../connectors/exports/s3.js'
import { type ExportLocation, ExportLocationError, type ExportPeriod } from '../../connectors/exports/types.js'
import type { ConformanceResult } from '../../connectors/focus/conformance.js'
import { ConnectorError } from '../../connectors/types.js'
import { SealedSecretError, type SecretBox } from '../../platform/crypto.js'
import type { Database } from '../../platform/db/index.js'
import { ApiError } from '../../platform/http/errors.js'
import { collectGarbage } from '../../platform/memory.js'
import { checkOutboundHost, guardedAgents } from '../../platform/outbound/agents.js'
import { judgeForm, parseAllowList } from '../../platform/outbound/guard.js'
import { OutboundRefusedError } from '../../platform/outbound/types.js'
import type { CostIngest, StoredBillingPeriod } from '../costs/public.js'
import { type HostCredentialPolicy, TENANT_LOCATION_SECRET, type TenantRow } from '../tenants/public.js'
import { type FocusImporter, FocusImportRejected, failureOf } from './import.js'
import type { SnapshotRunColumns } from './store.js'

/** What a pull may do of the worker's run. */
export interface PullContext {
  runId: string
  attempt: number
  signal: AbortSignal
  progress(message: string): void
  succeed(work: (trx: Kysely<Database>) => Promise<Partial<SnapshotRunColumns>>): Promise<void>
  commitStep(work: (trx: Kysely<Database>) => Promise<void>): Promise<void>
}

/** A FocusExport tenant's stored location (tenants.location_json). */
type StoredLocation =
  | { type: 'S3'; bucket: string; prefix: string; region: string; endpoint: string | null }
  | {
      type: 'AzureBlob'
      containerUrl: string
      prefix: string
      /** Absent: stored before service principals, a SAS. */
      auth?: 'Sas' | 'ServicePrincipal'
      tenantId?: string
      clientId?: string
    }
  | { type: 'BigQuery'; projectId: string; dataset: string; table: string }

/**
 * The snapshot of a FocusExport tenant: reads the export's billing periods from its location, and imports those
 * whose files changed since the version stored (by the store's ETags), each period replacing its earlier version
 * (see replaceBillingPeriods); a pull with nothing changed writes nothing but the run's success. The files are
 * downloaded to a private temporary folder, removed at the end whatever happens.
 */
export function createExportPuller(deps: {
  importer: Pick<FocusImporter, 'importInRun'>
  costs: Pick<CostIngest, 'billingPeriods'>
  secrets: SecretBox
  hostCredentials: HostCredentialPolicy
  /** The operator's networks an endpoint may be in although not public (config.outboundAllow). */
  outboundAllow: string[]
  /** BigQuery's REST address (config.bigQueryEndpoint): Google's, or an emulator's. */
  bigQueryEndpoint: string
  /**
   * How a Blob location's service principal signs in, as the Azure connector does: Entra's address
   * (config.azureAuthorityHost) and the fetch of the token requests (the global one unless given).
   */
  azure: { authorityHost: string; fetch?: Fetch }
  /** The certificates a store's TLS is checked against instead of the system's (a test's emulator). */
  tlsCa?: string
}) {
  const agents = guardedAgents(deps.outboundAllow)
  const allow = parseAllowList(deps.outboundAllow)
  const azureAuthorityHost = deps.azure.authorityHost.replace(/\/+$/, '')
  const azureFetch: Fetch = deps.azure.fetch ?? ((url, init) => globalThis.fetch(url, init))

  async function locationOf(tenant: TenantRow): Promise<ExportLocation> {
    if (!tenant.locationJson) throw new ConnectorError('location_missing', 'The tenant has no location to pull from.')
    const stored = JSON.parse(tenant.locationJson) as StoredLocation
    // A container's address is judged, form and host, by checkHost before the first request.
    if (stored.type === 'S3' && stored.endpoint) {
      const judged = judgeForm(stored.endpoint, allow)
      if ('refusal' in judged) throw new ConnectorError('location_refused', `${judged.refusal}.`)
    }
    let secret: Record<string, string> | null = null
    if (tenant.locationSecretSealed) {
      try {
        secret = JSON.parse(deps.secrets.open(tenant.locationSecretSealed, TENANT_LOCATION_SECRET.purpose(tenant.id)))
      } catch (err) {
        if (!(err instanceof SealedSecretError)) throw err
        throw new ConnectorError('invalid_credentials', `The location's stored secret cannot be used. ${err.message}`)
      }
    }
    if (stored.type === 'BigQuery')
      return bigQueryExportLocation({
        projectId: stored.projectId,
        dataset: stored.dataset,
        table: stored.table,
        serviceAccountKey: secret?.serviceAccountKey as unknown as BigQueryExportSettings['serviceAccountKey'],
        apiEndpoint: deps.bigQueryEndpoint,
      })
    if (stored.type === 'AzureBlob')
      return azureBlobExportLocation({
        containerUrl: stored.containerUrl,
        prefix: stored.prefix,
        signIn:
          stored.auth === 'ServicePrincipal'
            ? {
                credential: servicePrincipalCredential(
                  {
                    tenantId: stored.tenantId ?? '',
                    clientId: stored.clientId ?? '',
                    clientSecret: secret?.clientSecret ?? '',
                  },
                  { authorityHost: azureAuthorityHost, fetch: azureFetch },
                ),
                clientId: stored.clientId ?? '',
              }
            : { sasToken: secret?.sasToken ?? '' },
        tlsCa: deps.tlsCa,
        checkHost: async (url) => {
          try {
            await checkOutboundHost(url, deps.outboundAllow)
          } catch (err) {
            if (err instanceof OutboundRefusedError) throw new ConnectorError('location_refused', `${err.message}.`)
            const code = (err as { code?: string }).code ?? 'no address'
            throw new ExportLocationError('location_unreachable', `The storage could not be reached (${code}).`)
          }
        },
      })
    if (secret === null && !(await deps.hostCredentials.allows(tenant.organisationId)))
      throw new ConnectorError(
        'host_credentials_not_allowed',
        "The location has no access key, and the server's own AWS credentials are not allowed for this organisation (COSTWATCH_HOST_CREDENTIAL_ORGS).",
      )
    const credentials = secret as { accessKeyId: string; secretAccessKey: string } | null
    return s3ExportLocation({ ...stored, credentials, agents })
  }

  return async function pull(tenant: TenantRow, run: PullContext): Promise<void> {
    run.progress("reading the export's manifests")
    const location = await locationOf(tenant)
    const periods = await location.periods(run.signal)
    const stored = new Map((await deps.costs.billingPeriods(tenant.id)).map((p) => [p.billingPeriod, p]))
    const changed = periods.filter((p) => p.files.length > 0 && !sameFiles(p, stored.get(p.billingPeriod)))
    if (changed.length === 0) {
      await run.succeed(async () => ({ periodsJson: '[]' }))
      return
    }
    // One billing period at a time, each downloaded, imported and committed on its own (oldest first): the
    // database's write lock is held for one period's rows, not the whole export's (ten million rows on
    // SQLite would hold every other writer for minutes), and a period is still replaced all at once. Periods of
    // one file each go two by two, so that both reader threads have a file. A pull that stops half way keeps
    // the periods it committed; the next one skips them (their files are stored) and goes on with the rest.
    const steps: Partial<SnapshotRunColumns>[] = []
    const ordered = stepsOf([...changed].sort((a, b) => a.billingPeriod.localeCompare(b.billingPeriod)))
    let done = 0
    /** A step's files, downloaded into a folder of their own; `progress` for the one the pull waits for. */
    const download = async (step: ExportPeriod[], progress: ((message: string) => void) | null) => {
      const folder = await mkdtemp(join(tmpdir(), 'costwatch-pull-'))
      const files = step.flatMap((p) => p.files)
      const paths: string[] = []
      try {
        for (const [i, file] of files.entries()) {
          progress?.(`downloading file ${i + 1} of ${files.length}`)
          const path = join(folder, `${i}-${file.key.split('/').pop()}`)
          await location.download(file, path, run.signal)
          paths.push(path)
        }
        return { folder, paths }
      } catch (err) {
        await rm(folder, { recursive: true, force: true })
        throw err
      }
    }
    // Steps overlap: once a step's files are read, the next step's are read while it merges and commits, their
    // rows staged once it has committed (`after`), so every step's rows are still merged in a transaction of
    // their own, in order. Downloads run DOWNLOADS_AHEAD steps ahead: a merge holds this thread (SQLite's calls
    // are synchronous), so a download gets on only while rows are read and staged, and one started a single step
    // ahead was not done when the readers wanted its files. A step's files are removed once read.
    const downloads = new Map<number, ReturnType<typeof download>>()
    const downloadAhead = (from: number) => {
      for (let i = from; i < from + DOWNLOADS_AHEAD && i < ordered.length; i++) {
        if (downloads.has(i)) continue
        const fetching = download(ordered[i]!, null)
        fetching.catch(() => {}) // awaited in its turn, or cleaned up below
        downloads.set(i, fetching)
      }
    }
    /** Each step's import, in order: the last is the one the next step's staging waits for. */
    const underWay: Promise<void>[] = []
    let position = 0
    try {
      for (const [n, step] of ordered.entries()) {
        const names = step.map((p) => p.billingPeriod)
        const label = `billing period${names.length > 1 ? 's' : ''} ${names.join(' and ')} (${position + 1}${
          names.length > 1 ? `-${position + names.length}` : ''
        } of ${changed.length})`
        position += names.length
        const current = downloads.get(n) ?? download(step, (message) => run.progress(`${label}: ${message}`))
        downloads.delete(n)
        const { folder, paths } = await current
        downloadAhead(n + 1)
        const sourcesOf = (p: ExportPeriod) => p.files.map((f) => ({ name: f.key, version: f.version }))
        let filesRead = () => {}
        const read = new Promise<void>((resolve) => (filesRead = resolve))
        const importing = deps.importer
          .importInRun(
            tenant.id,
            paths,
            {
              sources: step.flatMap(sourcesOf),
              periodSources: new Map(step.map((p) => [p.billingPeriod, sourcesOf(p)])),
              after: underWay.at(-1),
              onRead: () => {
                // What staging left (its batches) is garbage before the merge, which collects nothing while it runs.
                collectGarbage()
                filesRead()
                rm(folder, { recursive: true, force: true }).catch(() => {})
              },
            },
            {
              runId: run.runId,
              stagingKey: `${run.runId}:${run.attempt}`,
              heartbeat: async (progress) => run.progress(`${label}: ${progress}`),
              succeed: (work) => run.commitStep(async (trx) => void steps.push(await work(trx))),
              // The worker records the failure, and whether to retry.
              fail: async () => {},
            },
          )
          .then(
            () => {
              done += step.length
              // The step's keys and inventory are garbage now; the next step's reading holds little yet.
              collectGarbage()
            },
            (err: unknown) => {
              if (!(err instanceof FocusImportRejected || err instanceof ApiError)) throw err
              const which =
                names.length > 1 ? `Billing periods ${names.join(' and ')} were` : `Billing period ${names[0]} was`
              const before = done === 0 ? '' : ` (the ${done} before ${names.length > 1 ? 'them' : 'it'} were)`
              throw new ConnectorError('import_rejected', `${which} not imported${before}. ${failureOf(err).message}`)
            },
          )
          .finally(() => rm(folder, { recursive: true, force: true }))
        underWay.push(importing)
        // On to the next step once this one's files are read (or its import failed before that).
        await Promise.race([read, importing])
      }
      await underWay.at(-1)
    } finally {
      // A pull stopped half way: the steps under way are waited for, and the downloads ahead and their files
      // removed.
      await Promise.allSettled(underWay)
      for (const fetching of downloads.values())
        await fetching.then(
          (fetched) => rm(fetched.folder, { recursive: true, force: true }),
          () => {},
        )
    }
    await run.succeed(async () => runColumnsOf(steps))
  }
}
export type ExportPuller = ReturnType<typeof createExportPuller>

/**
 * Steps whose files a pull has downloaded, or is downloading, while it reads one: the disk holds the files of one
 * more step than this at most (a step's are removed once read).
 */
const DOWNLOADS_AHEAD = 2

/**
 * The periods in the steps a pull imports them in: one period each, but a period of one file goes with the next
 * (two files, one per reader thread).
 */
export function stepsOf(periods: ExportPeriod[]): ExportPeriod[][] {
  const steps: ExportPeriod[][] = []
  let step: ExportPeriod[] = []
  let files = 0
  for (const period of periods) {
    step.push(period)
    files += period.files.length
    if (files >= 2) {
      steps.push(step)
      step = []
      files = 0
    }
  }
  if (step.length > 0) steps.push(step)
  return steps
}

/** Whether a period's files are those of its stored version: the same keys with the same ETags. */
function sameFiles(period: ExportPeriod, stored: StoredBillingPeriod | undefined): boolean {
  if (!stored || stored.files.length !== period.files.length) return false
  const versions = new Map(stored.files.map((f) => [f.name, f.version]))
  return period.files.every((f) => versions.get(f.key) === f.version)
}

/** The run's columns from those of its periods' imports: the days they covered, their rows, periods and checks. */
export function runColumnsOf(steps: Partial<SnapshotRunColumns>[]): Partial<SnapshotRunColumns> {
  const periods: unknown[] = []
  const conformance = new Map<string, ConformanceResult>()
  let periodStart: string | null = null
  let periodEnd: string | null = null
  const columns = { statSubscriptions: 0, statResourceGroups: 0, statResources: 0, statCostRows: 0 }
  for (const step of steps) {
    if (step.periodStart && (periodStart === null || step.periodStart < periodStart)) periodStart = step.periodStart
    if (step.periodEnd && (periodEnd === null || step.periodEnd > periodEnd)) periodEnd = step.periodEnd
    // The inventory each import saw: the largest of them (the same accounts and resources recur every period).
    for (const stat of ['statSubscriptions', 'statResourceGroups', 'statResources'] as const)
      columns[stat] = Math.max(columns[stat], Number(step[stat] ?? 0))
    columns.statCostRows += Number(step.statCostRows ?? 0)
    periods.push(...(JSON.parse(step.periodsJson ?? '[]') as unknown[]))
    for (const check of JSON.parse(step.conformanceJson ?? '[]') as ConformanceResult[]) {
      const known = conformance.get(check.requirement)
      if (known) known.failedRows += check.failedRows
      else conformance.set(check.requirement, { ...check })
    }
  }
  return {
    ...columns,
    periodStart,
    periodEnd,
    periodsJson: JSON.stringify(periods),
    conformanceJson: JSON.stringify([...conformance.values()]),
  }
}
