import type { Migration } from 'kysely'
import * as foundation from './0001_foundation.js'

/** Every migration in order; names sort in the order they apply. Each one runs on SQLite and PostgreSQL. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
}
