import type { TestProject } from 'vitest/node'
import { testDialects } from './support/dialects.js'
import { startThrowawayPostgres } from './support/postgres.js'

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string | null
  }
}

/** The suite runs on SQLite and PostgreSQL; without COSTWATCH_TEST_PG_URL it starts its own PostgreSQL. */
export default async function setup(project: TestProject) {
  if (!testDialects().includes('postgres')) {
    project.provide('pgUrl', null)
    return
  }
  const given = process.env.COSTWATCH_TEST_PG_URL
  if (given) {
    project.provide('pgUrl', given)
    return
  }
  const pg = await startThrowawayPostgres()
  project.provide('pgUrl', pg.url)
  return () => pg.stop()
}
