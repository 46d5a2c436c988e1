import type { ChildProcess } from 'node:child_process'
import { afterAll } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { systemClock, uuidV7Ids } from '../../src/platform/clock.js'
import { type DialectName, migrateToLatest, openDatabase } from '../../src/platform/db/index.js'
import { createServices } from '../../src/services.js'
import { createTestDatabase, TEST_SECRET_KEY } from './app.js'
import { startWorker } from './cli.js'

/** Polls `probe` every 50 ms until it gives something, for at most `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/**
 * For tests of `costwatch worker` processes: a fresh database of the dialect with an organisation, its services in
 * this process (system clock) and the environment a worker needs; the workers started are killed and the
 * databases dropped after the file.
 */
export function useWorkerProcesses() {
  const children: ChildProcess[] = []
  const cleanups: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
    for (const cleanup of cleanups.reverse()) await cleanup()
  })
  return {
    async start(env: Record<string, string>) {
      const worker = await startWorker(env)
      children.push(worker)
      return worker
    },

    async database(dialect: DialectName, settings: Record<string, string>) {
      const database = await createTestDatabase(dialect)
      cleanups.push(database.drop)
      const env = {
        COSTWATCH_DATABASE_URL: database.url,
        COSTWATCH_SECRET_KEY: TEST_SECRET_KEY,
        COSTWATCH_CONNECTOR: 'simulated',
        ...settings,
      }
      const db = openDatabase(database.url)
      cleanups.push(() => db.close())
      await migrateToLatest(db)
      const services = createServices({ db, config: loadConfig(env), clock: systemClock, ids: uuidV7Ids })
      const { organisation } = await services.organisations.create({
        name: `Workers ${dialect}`,
        ownerEmail: `ops-${Math.random().toString(36).slice(2, 8)}@workers.test`,
      })
      const owner = {
        organisationId: organisation.id,
        actor: { type: 'User' as const, id: null, name: 'test' },
        isOwner: true,
        tenancyRoles: new Map(),
      }
      /** A tenant of the organisation, on the simulated connector. */
      const tenant = (name: string) =>
        services.tenants.create(owner, {
          name,
          cloudTenantId: `${name.toLowerCase()}-${Math.random().toString(36).slice(2, 8)}.workers.test`,
          credentialType: 'ManagedIdentity',
        })
      return { env, db, services, owner, tenant }
    },
  }
}
