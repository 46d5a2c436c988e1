/**
 * Types the API from the OpenAPI documents the app builds (without listening), with openapi-typescript:
 * - src/client/generated/public-api.ts: the public API's document (the one served at /api/public/v1/openapi.json),
 *   for the TypeScript client `costwatch/client`;
 * - src/client/generated/web-api.ts: the web interface's (`/api/app`: the same routes for the session, and its own),
 *   for the web interface.
 * Paths are written without their prefix: each client sets it as its base URL.
 *
 * `npm run generate:api` writes them; a test fails when the committed files differ from what this generates.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript'
import { API_PREFIX } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { APP_API_PREFIX } from '../src/platform/auth/plugin.js'
import { migrateToLatest, openDatabase } from '../src/platform/db/index.js'
import { createRuntime } from '../src/runtime.js'

const ROOT = resolve(fileURLToPath(import.meta.url), '../..')
export const GENERATED_FILES = {
  public: 'src/client/generated/public-api.ts',
  web: 'src/client/generated/web-api.ts',
} as const
export const GENERATE_COMMAND = 'npm run generate:api'

const HEADER = `// Generated from the app's OpenAPI document by \`${GENERATE_COMMAND}\` (scripts/generate-api-types.ts): do not edit.\n\n`

/** The document `app.swagger()` builds for one audience, on a throwaway SQLite database. */
async function documentOf(audience: 'public' | 'web'): Promise<OpenAPI3> {
  const dir = mkdtempSync(join(tmpdir(), 'costwatch-openapi-'))
  const databaseUrl = join(dir, 'costwatch.db')
  const db = openDatabase(databaseUrl)
  try {
    await migrateToLatest(db)
    const config = loadConfig({
      COSTWATCH_DATABASE_URL: databaseUrl,
      COSTWATCH_SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
      COSTWATCH_LOG_LEVEL: 'silent',
    })
    const { app } = await createRuntime({ db, config, openApiDocument: audience })
    try {
      await app.ready()
      return structuredClone(app.swagger()) as OpenAPI3
    } finally {
      await app.close()
    }
  } finally {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The document with each path relative to `prefix`, the base URL its client sets. */
function relativeTo(doc: OpenAPI3, prefix: string): OpenAPI3 {
  const paths = Object.fromEntries(
    Object.entries(doc.paths ?? {}).map(([path, item]) => {
      if (!path.startsWith(`${prefix}/`)) throw new Error(`${path} is not under ${prefix}`)
      return [path.slice(prefix.length), item]
    }),
  )
  return { ...doc, paths }
}

/** The text of each generated file, by audience. */
export async function generatedApiTypes(): Promise<Record<keyof typeof GENERATED_FILES, string>> {
  const typed = async (audience: 'public' | 'web', prefix: string) =>
    HEADER +
    astToString(
      await openapiTS(relativeTo(await documentOf(audience), prefix), { alphabetize: true, defaultNonNullable: false }),
    )
  return { public: await typed('public', API_PREFIX), web: await typed('web', APP_API_PREFIX) }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await generatedApiTypes()
  for (const [audience, path] of Object.entries(GENERATED_FILES)) {
    writeFileSync(join(ROOT, path), files[audience as keyof typeof files])
    console.log(`Wrote ${path}`)
  }
}
