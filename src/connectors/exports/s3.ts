import { createWriteStream } from 'node:fs'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type * as S3 from '@aws-sdk/client-s3'
import type { guardedAgents } from '../../platform/outbound/agents.js'
import { type ExportFile, type ExportLocation, ExportLocationError, type ExportPeriod } from './types.js'

export interface S3ExportSettings {
  bucket: string
  /** The export's own folder, `<S3 path prefix>/<export name>`, without slashes at either end. */
  prefix: string
  region: string
  /** An S3-compatible store's address (path-style); null for AWS. */
  endpoint: string | null
  /** null: the host's default credential chain. */
  credentials: { accessKeyId: string; secretAccessKey: string } | null
  agents: ReturnType<typeof guardedAgents>
}

/** `metadata/BILLING_PERIOD=2026-10/<export name>-Manifest.json` under the export's folder. */
const MANIFEST = /(?:^|\/)metadata\/BILLING_PERIOD=(\d{4}-\d{2})\/[^/]*Manifest\.json$/

/**
 * An AWS Data Exports FOCUS export in S3. AWS rewrites a billing period's files several times a day (into new
 * folders when the export does not overwrite), and writes a manifest naming the files of the newest version: only
 * those are read, whatever else the folder holds, so an old version is never counted beside the new one.
 */
export function s3ExportLocation(settings: S3ExportSettings): ExportLocation {
  let ready: Promise<{ sdk: typeof S3; client: S3.S3Client }> | null = null
  // Loaded on first use: the SDK is large, and most servers never pull from S3.
  const s3 = () =>
    (ready ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: settings.region,
        requestHandler: { ...settings.agents, requestTimeout: 60_000 },
        ...(settings.endpoint
          ? {
              endpoint: settings.endpoint,
              forcePathStyle: true,
              requestChecksumCalculation: 'WHEN_REQUIRED' as const,
              responseChecksumValidation: 'WHEN_REQUIRED' as const,
            }
          : {}),
        ...(settings.credentials ? { credentials: settings.credentials } : {}),
      }),
    })))
  const root = settings.prefix === '' ? '' : `${settings.prefix}/`

  /** Every object under `prefix`, page by page. */
  async function list(prefix: string, signal?: AbortSignal): Promise<S3._Object[]> {
    const { sdk, client } = await s3()
    const objects: S3._Object[] = []
    let token: string | undefined
    do {
      const page = await call(() =>
        client.send(
          new sdk.ListObjectsV2Command({ Bucket: settings.bucket, Prefix: prefix, ContinuationToken: token }),
          { abortSignal: signal },
        ),
      )
      objects.push(...(page.Contents ?? []))
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
    return objects
  }

  async function body(key: string, signal?: AbortSignal): Promise<Readable> {
    const { sdk, client } = await s3()
    const answer = await call(() =>
      client.send(new sdk.GetObjectCommand({ Bucket: settings.bucket, Key: key }), { abortSignal: signal }),
    )
    return answer.Body as Readable
  }

  /** The key of an `s3://bucket/key` URI of this bucket; null for another bucket's. */
  function keyOf(uri: string): string | null {
    const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(uri)
    if (!match || match[1] !== settings.bucket) return null
    return match[2]!
  }

  return {
    async periods(signal) {
      const objects = await list(`${root}metadata/`, signal)
      // The newest manifest of each period (a folder may keep older ones).
      const manifests = new Map<string, S3._Object>()
      for (const object of objects) {
        const period = MANIFEST.exec(object.Key ?? '')?.[1]
        if (!period) continue
        const seen = manifests.get(period)
        if (!seen || (object.LastModified ?? 0) > (seen.LastModified ?? 0)) manifests.set(period, object)
      }
      const periods: ExportPeriod[] = []
      for (const [billingPeriod, manifest] of [...manifests].sort(([a], [b]) => a.localeCompare(b))) {
        let named: unknown
        try {
          const text = await (await body(manifest.Key!, signal)).toArray()
          named = JSON.parse(Buffer.concat(text).toString('utf8'))
        } catch (err) {
          if (err instanceof ExportLocationError) throw err
          throw new ExportLocationError('location_invalid', `The manifest ${manifest.Key} is not valid JSON.`)
        }
        const dataFiles = (named as { dataFiles?: unknown }).dataFiles
        if (!Array.isArray(dataFiles) || !dataFiles.every((f) => typeof f === 'string'))
          throw new ExportLocationError('location_invalid', `The manifest ${manifest.Key} has no list of dataFiles.`)
        const stored = new Map(
          (await list(`${root}data/BILLING_PERIOD=${billingPeriod}/`, signal)).map((o) => [o.Key!, o]),
        )
        const files: ExportFile[] = []
        for (const uri of dataFiles as string[]) {
          const key = keyOf(uri)
          const object = key === null ? undefined : stored.get(key)
          if (!object)
            throw new ExportLocationError(
              'location_invalid',
              `The manifest ${manifest.Key} names ${uri}, which is not in the export's data folder.`,
            )
          files.push({ key: key!, version: object.ETag ?? '', size: object.Size ?? 0 })
        }
        periods.push({ billingPeriod, files })
      }
      return periods
    },

    async download(file, path, signal) {
      await pipeline(await body(file.key, signal), createWriteStream(path, { mode: 0o600 }))
    },
  }
}

/** The store's answers in words of the run's error: what was refused or unreachable, never a credential. */
async function call<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send()
  } catch (err) {
    const e = err as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } }
    const status = e.$metadata?.httpStatusCode
    if (
      status === 403 ||
      e.name === 'AccessDenied' ||
      e.name === 'InvalidAccessKeyId' ||
      e.name === 'SignatureDoesNotMatch'
    )
      throw new ExportLocationError('location_denied', `The bucket refused the request (${e.name ?? status}).`)
    if (e.name === 'NoSuchBucket') throw new ExportLocationError('location_invalid', 'The bucket does not exist.')
    if (status === undefined)
      throw new ExportLocationError(
        'location_unreachable',
        `The bucket could not be reached (${e.code === 'EREFUSED_OUTBOUND' ? e.message : (e.code ?? e.name ?? 'network error')}).`,
      )
    throw new ExportLocationError('location_unreachable', `The bucket answered ${status} (${e.name ?? 'error'}).`)
  }
}
