import type { Migration } from 'kysely'
import * as foundation from './0001_foundation.js'
import * as inventory from './0002_inventory.js'
import * as events from './0003_events.js'
import * as collection from './0004_collection.js'
import * as runRetries from './0005_run_retries.js'
import * as chargeCategorySeries from './0007_charge_category_series.js'

/** Every migration in order; names sort in the order they apply. Each one runs on SQLite and PostgreSQL. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_inventory': inventory,
  '0003_events': events,
  '0004_collection': collection,
  '0005_run_retries': runRetries,
  '0007_charge_category_series': chargeCategorySeries,
}
