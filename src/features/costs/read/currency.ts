import { type Kysely, sql } from 'kysely'
import { chunk } from '../../../platform/chunk.js'
import type { Database } from '../../../platform/db/index.js'

/** The currency a tenant's amounts are shown in when it has no cost row to name one. */
export const DEFAULT_CURRENCY = 'USD'

/** Tenants per statement: two parameters each. */
const TENANTS_PER_READ = 200

/**
 * The billing currency of each tenant: that of its most recent cost row (a seek into its daily series), else of
 * one of its subscriptions (asked of the inventory, which owns them, for the tenants without cost only), else USD.
 * What a record or chart with no cost row in its window is shown in.
 */
export async function billingCurrencies(
  db: Kysely<Database>,
  tenantIds: string[],
  subscriptionCurrencies: (tenantIds: string[]) => Promise<Map<string, string>>,
): Promise<Map<string, string>> {
  if (tenantIds.length === 0) return new Map()
  const currencies = new Map(tenantIds.map((id) => [id, DEFAULT_CURRENCY]))
  const unbilled = new Set(tenantIds)
  for (const part of chunk([...unbilled], TENANTS_PER_READ)) {
    // One seek per tenant, in one statement.
    const latest = sql.join(
      part.map(
        (id) => sql`select ${id} as id, (
          select c.currency from cost_series c where c.tenant_id = ${id} and c.level = 'tenant'
          order by c.date desc, c.currency limit 1) as currency`,
      ),
      sql` union all `,
    )
    const { rows } = await sql<{ id: string; currency: string | null }>`${latest}`.execute(db)
    for (const r of rows) {
      if (r.currency === null) continue
      currencies.set(r.id, r.currency)
      unbilled.delete(r.id)
    }
  }
  if (unbilled.size > 0) {
    for (const [id, currency] of await subscriptionCurrencies([...unbilled])) currencies.set(id, currency)
  }
  return currencies
}

/**
 * Of rows summed per currency, the currency a record is shown in: the one of its most recent day (a billing
 * currency changes rarely, and then the new one is what the next invoice is in). Amounts are never added across
 * currencies, nor converted: rows in another currency are left out of a record's totals.
 */
export function currencyOfLatest(groups: readonly { currency: string; lastDate: string }[]): string | undefined {
  let best: { currency: string; lastDate: string } | undefined
  for (const g of groups) {
    if (!best || g.lastDate > best.lastDate || (g.lastDate === best.lastDate && g.currency < best.currency)) best = g
  }
  return best?.currency
}
