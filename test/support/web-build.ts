import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { build } from 'vite'

/**
 * The web interface built once for all browser test files rather than once a file: the build is kept in the
 * temporary folder under a hash of what it is made of (web/, the lockfile and any file it bundles from elsewhere),
 * so files of one run, and later runs, reuse it until one of those changes. A lock lets the first of the files
 * running side by side build while the others wait for it.
 */

const ROOT = join(import.meta.dirname, '../..')
const WEB = join(ROOT, 'web')
/** This checkout's builds: other checkouts on the machine keep their own. */
const CACHE = join(tmpdir(), `costwatch-web-build-${sha256(ROOT).slice(0, 12)}`)
const MANIFEST = 'inputs.json'
const LOCK_WAIT_MS = 180_000

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : []
  })
}

function contentHash(files: string[]): string {
  const hash = createHash('sha256')
  for (const file of [...files].sort()) {
    hash.update(relative(ROOT, file)).update('\0')
    hash.update(existsSync(file) ? readFileSync(file) : '(missing)').update('\0')
  }
  return hash.digest('hex')
}

/** The folder the build of the current sources goes to (not yet built: call `ensureWebBuild`). */
export function webBuildDir(): string {
  const key = contentHash([...filesUnder(WEB), join(ROOT, 'package-lock.json')])
  return join(CACHE, key.slice(0, 24))
}

/** The files outside web/ and node_modules/ that a build bundled, with their hash then. */
interface Manifest {
  elsewhere: string[]
  elsewhereHash: string
}

function isCurrent(dir: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as Manifest
    return contentHash(manifest.elsewhere) === manifest.elsewhereHash
  } catch {
    return false // not built, or not finished
  }
}

/** Builds into a fresh folder and then renames it into place, so a reader never sees half a build. */
async function buildInto(dir: string): Promise<void> {
  const staging = `${dir}.building-${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  const elsewhere = new Set<string>()
  await build({
    configFile: join(WEB, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: staging, emptyOutDir: true },
    plugins: [
      {
        name: 'costwatch-test-build-inputs',
        generateBundle() {
          for (const id of this.getModuleIds()) {
            const file = id.split('?')[0]!
            if (!file.startsWith(sep) || file.startsWith(WEB + sep) || file.includes(`${sep}node_modules${sep}`))
              continue
            if (existsSync(file)) elsewhere.add(file)
          }
        },
      },
    ],
  })
  const manifest: Manifest = { elsewhere: [...elsewhere], elsewhereHash: contentHash([...elsewhere]) }
  writeFileSync(join(staging, MANIFEST), JSON.stringify(manifest))
  rmSync(dir, { recursive: true, force: true })
  renameSync(staging, dir)
}

function lockHolderAlive(lock: string): boolean {
  try {
    process.kill(Number(readFileSync(join(lock, 'pid'), 'utf8')), 0)
    return true
  } catch {
    return false
  }
}

/** Makes sure `dir` (from `webBuildDir`) holds a current build: reuses it, waits for another file's, or builds. */
export async function ensureWebBuild(dir: string): Promise<void> {
  mkdirSync(CACHE, { recursive: true })
  const lock = `${dir}.lock`
  const deadline = Date.now() + LOCK_WAIT_MS
  for (;;) {
    if (isCurrent(dir)) return
    try {
      mkdirSync(lock)
    } catch {
      // Another test file is building it: wait for that build (or for its process to be gone).
      if (existsSync(lock) && !lockHolderAlive(lock) && statSync(lock).mtimeMs < Date.now() - 5_000) {
        rmSync(lock, { recursive: true, force: true })
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for the web build in ${dir}`)
      await new Promise((r) => setTimeout(r, 200))
      continue
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid))
      if (!isCurrent(dir)) await buildInto(dir)
      pruneOlderBuilds(dir)
    } finally {
      rmSync(lock, { recursive: true, force: true })
    }
    return
  }
}

/** Drops this checkout's builds of earlier sources, once an hour has passed since they were made. */
function pruneOlderBuilds(keep: string) {
  const hourAgo = Date.now() - 3_600_000
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name)
    if (path === keep || path.startsWith(`${keep}.`)) continue
    if (statSync(path).mtimeMs < hourAgo) rmSync(path, { recursive: true, force: true })
  }
}
