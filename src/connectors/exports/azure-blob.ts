import type { TokenCredential } from '@azure/identity'
import type { ContainerClient } from '@azure/storage-blob'
import { ConnectorError } from '../types.js'
import { type ExportFile, type ExportLocation, ExportLocationError, type ExportPeriod } from './types.js'

export interface AzureBlobExportSettings {
  /** `https://<account>.blob.core.windows.net/<container>` (or an emulator's address). */
  containerUrl: string
  /** The export's folder in the container (its root folder path and name), without slashes at either end. */
  prefix: string
  /**
   * How the pull signs in: a SAS granting read and list on the container (without its leading `?`), or a service
   * principal's credential (tokens for `https://storage.azure.com/.default`), which needs Storage Blob Data Reader
   * on the container; `clientId` names it in errors.
   */
  signIn: { sasToken: string } | { credential: TokenCredential; clientId: string }
  /** The certificates the storage's TLS is checked against instead of the system's (a test's emulator). */
  tlsCa?: string
  /** Refuses, before any request, a container whose host resolves where outbound requests may not go. */
  checkHost(url: string): Promise<void>
}

/** What the reader needs of a Cost Management export's manifest.json. */
interface ExportManifest {
  runInfo?: { startDate?: string; submittedTime?: string }
  blobs?: { blobName?: string }[]
}

/**
 * A Cost Management FOCUS export in Azure Blob Storage. Each run of the export writes its files into a folder of
 * its own, `<prefix>/<YYYYMMDD-YYYYMMDD>/<run id>/`, with a `manifest.json` naming them (`blobs[].blobName`) and the
 * period (`runInfo.startDate`): for each billing period only the files of its newest run are read (the newest
 * `runInfo.submittedTime`), whatever older runs left in the container.
 */
export function azureBlobExportLocation(settings: AzureBlobExportSettings): ExportLocation {
  let ready: Promise<ContainerClient> | null = null
  // Loaded on first use: the SDK is large, and most servers never pull from Blob Storage.
  async function open(): Promise<ContainerClient> {
    await settings.checkHost(settings.containerUrl)
    const { ContainerClient } = await import('@azure/storage-blob')
    // `tlsOptions` is the core pipeline's own option, which the storage client passes on but does not declare.
    const options = { retryOptions: { maxTries: 2 }, ...(settings.tlsCa ? { tlsOptions: { ca: settings.tlsCa } } : {}) }
    const { signIn } = settings
    return 'sasToken' in signIn
      ? new ContainerClient(`${settings.containerUrl}?${signIn.sasToken}`, undefined, options)
      : new ContainerClient(settings.containerUrl, signIn.credential, options)
  }
  const refused = (status: number, code: string | undefined) => {
    const reason = code ?? (status === 401 ? 'AuthenticationFailed' : 'AuthorizationFailure')
    if ('sasToken' in settings.signIn) return `The storage refused the SAS (${reason}).`
    const who = `the service principal ${settings.signIn.clientId}`
    // A token it does not take (another directory, audience or cloud), or one it takes without the role.
    return status === 401 || /^(AuthenticationFailed|InvalidAuthenticationInfo)$/.test(reason)
      ? `The storage refused the token of ${who} (${reason}).`
      : `The storage refused ${who} (${reason}): it needs the role Storage Blob Data Reader on the container.`
  }
  const call = <T>(send: () => Promise<T>) => callStorage(send, refused)
  const container = () => {
    ready ??= open()
    return ready
  }
  const root = settings.prefix === '' ? '' : `${settings.prefix}/`

  return {
    async periods(signal) {
      const client = await container()
      const listed = new Map<string, { etag: string; size: number }>()
      const manifests: string[] = []
      await call(async () => {
        for await (const blob of client.listBlobsFlat({ prefix: root, abortSignal: signal })) {
          listed.set(blob.name, { etag: blob.properties.etag ?? '', size: blob.properties.contentLength ?? 0 })
          if (blob.name.endsWith('/manifest.json')) manifests.push(blob.name)
        }
      })
      const newest = new Map<string, { submitted: string; files: ExportFile[] }>()
      for (const name of manifests) {
        const text = await call(async () =>
          (await client.getBlobClient(name).downloadToBuffer(undefined, undefined, { abortSignal: signal })).toString(
            'utf8',
          ),
        )
        let manifest: ExportManifest
        try {
          manifest = JSON.parse(text) as ExportManifest
        } catch {
          throw new ExportLocationError('location_invalid', `The manifest ${name} is not valid JSON.`)
        }
        const billingPeriod = /^(\d{4})-?(\d{2})/.exec(manifest.runInfo?.startDate ?? '')
        if (!billingPeriod || !Array.isArray(manifest.blobs))
          throw new ExportLocationError('location_invalid', `The manifest ${name} has no runInfo.startDate or blobs.`)
        const period = `${billingPeriod[1]}-${billingPeriod[2]}`
        const submitted = manifest.runInfo?.submittedTime ?? ''
        const seen = newest.get(period)
        if (seen && seen.submitted >= submitted) continue
        const files = manifest.blobs.map(({ blobName }) => {
          const key = (blobName ?? '').replace(/^\/+/, '')
          const stored = listed.get(key)
          if (!stored)
            throw new ExportLocationError(
              'location_invalid',
              `The manifest ${name} names ${key}, which is not in the container under the export's folder.`,
            )
          return { key, version: stored.etag, size: stored.size }
        })
        newest.set(period, { submitted, files })
      }
      return [...newest]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([billingPeriod, { files }]): ExportPeriod => ({ billingPeriod, files }))
    },

    async download(file, path, signal) {
      const client = await container()
      await call(() =>
        client.getBlobClient(file.key).downloadToFile(path, undefined, undefined, { abortSignal: signal }),
      )
    },
  }
}

/**
 * The storage's answers in words of the run's error: never the SAS. A failed sign-in (the service principal's
 * token) leaves as its credential tells it.
 */
async function callStorage<T>(
  send: () => Promise<T>,
  refused: (status: number, code: string | undefined) => string,
): Promise<T> {
  try {
    return await send()
  } catch (err) {
    if (err instanceof ConnectorError) throw err
    const e = err as { statusCode?: number; code?: string; name?: string }
    if (e.statusCode === 401 || e.statusCode === 403)
      throw new ExportLocationError('location_denied', refused(e.statusCode, e.code))
    if (e.statusCode === 404)
      throw new ExportLocationError('location_invalid', `The container does not exist (${e.code ?? 'NotFound'}).`)
    if (e.statusCode === undefined)
      throw new ExportLocationError(
        'location_unreachable',
        `The storage could not be reached (${e.code ?? e.name ?? 'network error'}).`,
      )
    throw new ExportLocationError(
      'location_unreachable',
      `The storage answered ${e.statusCode} (${e.code ?? 'error'}).`,
    )
  }
}
