import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Principal } from '../../platform/auth/principal.js'
import { ApiError } from '../../platform/http/errors.js'
import { type FocusImporter, FocusImportRejected } from './import.js'
import type { SnapshotRun } from './schemas.js'

/** What an upload's file may be called in the run: a plain file name, nothing of a path. */
const FILE_NAME = /^[\w][\w .()+=@-]{0,199}$/

export class UploadTooLargeError extends Error {}

/**
 * FOCUS files pushed to a FocusUpload tenant (POST /tenants/{id}/cost-files): the body is spooled to a private
 * temporary folder, its bytes counted against the limit and hashed on the way (the hash is the file's version in
 * the run), then imported as the command line imports a file: the answer is the import's run, which goes on in
 * this process; the folder is removed once the import is over, whatever its end.
 */
export function createUploadService(deps: {
  importer: Pick<FocusImporter, 'startFocusImport'>
  costSourceOf(tenantId: string): Promise<string | null>
  maxBytes: number
  /** Logs what failed unexpectedly (the run records every failure in words of its own). */
  warn?: (err: unknown, message: string) => void
}) {
  return {
    async upload(
      who: Principal,
      tenantId: string,
      body: NodeJS.ReadableStream,
      fileName: string | undefined,
    ): Promise<SnapshotRun> {
      const source = await deps.costSourceOf(tenantId)
      if (source === null) throw ApiError.notFound(`Tenant ${tenantId}`)
      if (source !== 'FocusUpload')
        throw ApiError.conflict(
          source === 'FocusExport'
            ? "This tenant's costs are pulled from its location: trigger a snapshot to pull them."
            : "This tenant's costs come from the Azure connector; connect a tenant with costSource FocusUpload to push files.",
        )
      const name = fileName ?? `upload-${new Date().toISOString().slice(0, 10)}`
      if (!FILE_NAME.test(name))
        throw ApiError.invalid({
          fileName: ['must be a file name: letters, digits, spaces and . ( ) + = @ - _, at most 200'],
        })
      const folder = await mkdtemp(join(tmpdir(), 'costwatch-upload-'))
      const path = join(folder, 'file')
      try {
        const hash = createHash('sha256')
        let bytes = 0
        const counted = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            bytes += chunk.length
            if (bytes > deps.maxBytes) return done(new UploadTooLargeError())
            hash.update(chunk)
            done(null, chunk)
          },
        })
        try {
          await pipeline(body, counted, createWriteStream(path, { mode: 0o600 }))
        } catch (err) {
          if (err instanceof UploadTooLargeError)
            throw ApiError.tooLarge(
              `A cost file may hold at most ${Math.floor(deps.maxBytes / 1024 / 1024)} MB (COSTWATCH_UPLOAD_MAX_MB).`,
            )
          throw err
        }
        if (bytes === 0) throw ApiError.badRequest('The request has no file: send the FOCUS file as the body.')
        const { run, settled } = await deps.importer.startFocusImport(tenantId, [path], {
          requestedBy: who.actor.id ?? undefined,
          sources: [{ name, version: `sha256:${hash.digest('hex')}` }],
        })
        void settled.then(async ({ error }) => {
          if (error && !(error instanceof ApiError) && !(error instanceof FocusImportRejected))
            deps.warn?.(error, `the import of an uploaded cost file failed (run ${run.id})`)
          await rm(folder, { recursive: true, force: true })
        })
        return run
      } catch (err) {
        await rm(folder, { recursive: true, force: true })
        throw err
      }
    },
  }
}
export type UploadService = ReturnType<typeof createUploadService>
