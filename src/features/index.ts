import { alerts } from './alerts/index.js'
import { anomalies } from './anomalies/index.js'
import { apiKeys } from './apikeys/index.js'
import { audit } from './audit/index.js'
import { budgets } from './budgets/index.js'
import { costs } from './costs/index.js'
import { events } from './events/index.js'
import { insights } from './insights/index.js'
import { inventory } from './inventory/index.js'
import { notifications } from './notifications/index.js'
import { organisation } from './organisation/index.js'
import { overview } from './overview/index.js'
import { reports } from './reports/index.js'
import { session } from './session/index.js'
import { snapshots } from './snapshots/index.js'
import { tenants } from './tenants/index.js'
import { users } from './users/index.js'

/**
 * Every feature, in the order of the OpenAPI document and of `costwatch --help`. A new feature adds itself here.
 * Each keeps its own `Feature<Needs>` type (no annotation here): app.ts checks that the services provide them all.
 */
export const FEATURES = [
  organisation,
  tenants,
  snapshots,
  inventory,
  costs,
  events,
  anomalies,
  insights,
  reports,
  notifications,
  alerts,
  budgets,
  users,
  apiKeys,
  session,
  audit,
  overview,
] as const
