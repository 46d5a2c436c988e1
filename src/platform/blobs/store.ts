import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import type { Readable } from 'node:stream'
import type * as S3 from '@aws-sdk/client-s3'

/** Where report files are kept: a folder, or an S3-compatible bucket. Keys are `/`-separated relative paths. */
export interface BlobStore {
  /** What the store is, for logs: the folder or `s3://bucket/prefix`. */
  readonly location: string
  /** Stores the file at `path` under `key`, replacing any object of that key whole (readers never see half of one). */
  putFile(key: string, path: string, contentType: string): Promise<void>
  /** The object's bytes as a stream with its size, or null when there is none. */
  get(key: string): Promise<{ body: Readable; size: number } | null>
  /** Keys under `prefix`, sorted. */
  list(prefix: string): Promise<string[]>
  /** Removes every object under `prefix`. */
  deletePrefix(prefix: string): Promise<void>
}

export interface S3Settings {
  endpoint: string | null
  region: string
  /** Null: the AWS SDK's own chain (environment, shared files, instance roles). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null
}

/** The store `COSTWATCH_BLOB_URL` names: `s3://bucket/prefix`, else a folder path. */
export function openBlobStore(url: string, s3: S3Settings): BlobStore {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url)
  if (!match) return folderStore(url)
  return s3Store(match[1]!, match[2]!.replace(/\/+$/, ''), s3)
}

const TEMPORARY = '.partial-'

function safeKey(key: string): string {
  if (key.split('/').some((part) => part === '' || part === '.' || part === '..'))
    throw new Error(`Bad blob key: ${key}`)
  return key
}

export function folderStore(folder: string): BlobStore {
  const root = resolve(folder)
  const pathOf = (key: string) => join(root, ...safeKey(key).split('/'))
  return {
    location: root,
    async putFile(key, path) {
      const target = pathOf(key)
      await mkdir(dirname(target), { recursive: true })
      // Copied beside the target, then renamed over it: a reader sees the old file or the new one, never a part.
      const partial = `${target}${TEMPORARY}${randomBytes(6).toString('hex')}`
      try {
        await copyFile(path, partial)
        await rename(partial, target)
      } finally {
        await rm(partial, { force: true })
      }
    },
    async get(key) {
      const path = pathOf(key)
      try {
        const { size } = await stat(path)
        return { body: createReadStream(path), size }
      } catch (err) {
        if ((err as { code?: string }).code === 'ENOENT') return null
        throw err
      }
    },
    async list(prefix) {
      const base = join(root, ...prefix.split('/').filter(Boolean))
      const found: string[] = []
      const walk = async (dir: string): Promise<void> => {
        let entries: import('node:fs').Dirent[]
        try {
          entries = await readdir(dir, { withFileTypes: true })
        } catch (err) {
          if ((err as { code?: string }).code === 'ENOENT') return
          throw err
        }
        for (const entry of entries) {
          const path = join(dir, entry.name)
          if (entry.isDirectory()) await walk(path)
          else if (!entry.name.includes(TEMPORARY)) found.push(relative(root, path).split(sep).join('/'))
        }
      }
      await walk(base)
      return found.sort()
    },
    async deletePrefix(prefix) {
      await rm(join(root, ...safeKey(prefix.replace(/\/+$/, '')).split('/')), { recursive: true, force: true })
    },
  }
}

function s3Store(bucket: string, prefix: string, settings: S3Settings): BlobStore {
  // The SDK is loaded when the bucket is first used: a process that never touches it (the command line, an API
  // process that serves no download) does not carry it.
  let ready: Promise<{ sdk: typeof S3; client: S3.S3Client }> | null = null
  const s3 = () => (ready ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: clientOf(sdk) })))
  const clientOf = (sdk: typeof S3) =>
    new sdk.S3Client({
      region: settings.region,
      // S3-compatible servers: path-style addresses, and checksums only where S3 requires them, as many of these
      // servers store a streamed body's aws-chunked framing (with its trailing checksum) as if it were the content.
      ...(settings.endpoint
        ? {
            endpoint: settings.endpoint,
            forcePathStyle: true,
            requestChecksumCalculation: 'WHEN_REQUIRED' as const,
            responseChecksumValidation: 'WHEN_REQUIRED' as const,
          }
        : {}),
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
    })
  const full = (key: string) => (prefix ? `${prefix}/${safeKey(key)}` : safeKey(key))
  return {
    location: `s3://${bucket}/${prefix}`,
    async putFile(key, path, contentType) {
      // A PUT of one object is atomic in S3: readers see the old object or the new one.
      const { size } = await stat(path)
      const { sdk, client } = await s3()
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: bucket,
          Key: full(key),
          Body: createReadStream(path),
          ContentLength: size,
          ContentType: contentType,
        }),
      )
    },
    async get(key) {
      const { sdk, client } = await s3()
      try {
        const out = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: full(key) }))
        return { body: out.Body as Readable, size: Number(out.ContentLength ?? 0) }
      } catch (err) {
        const e = err as { name?: string; $metadata?: { httpStatusCode?: number } }
        if (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return null
        throw err
      }
    },
    async list(listPrefix) {
      const { sdk, client } = await s3()
      const keys: string[] = []
      let token: string | undefined
      do {
        const page = await client.send(
          new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: full(listPrefix), ContinuationToken: token }),
        )
        for (const object of page.Contents ?? []) keys.push(object.Key!.slice(prefix ? prefix.length + 1 : 0))
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
      return keys.sort()
    },
    async deletePrefix(listPrefix) {
      const keys = await this.list(listPrefix)
      const { sdk, client } = await s3()
      for (let i = 0; i < keys.length; i += 1000) {
        await client.send(
          new sdk.DeleteObjectsCommand({
            Bucket: bucket,
            Delete: { Objects: keys.slice(i, i + 1000).map((k) => ({ Key: full(k) })) },
          }),
        )
      }
    },
  }
}
