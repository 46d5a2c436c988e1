import type { Kysely } from 'kysely'
import type { Database } from '../../../platform/db/index.js'

/** The currency a tenant's amounts are shown in when it has no cost row to name one. */
export const DEFAULT_CURRENCY = 'USD'

/**
 * The billing currency of each tenant: that of its most recent cost row (a seek into its daily series), else of
 * one of its subscriptions, else USD. What a record or chart with no cost row in its window is shown in.
 */
export async function billingCurrencies(db: Kysely<Database>, tenantIds: string[]): Promise<Map<string, string>> {
  if (tenantIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('tenants as t')
    .select((eb) => [
      't.id',
      eb.fn
        .coalesce(
          eb
            .selectFrom('costSeries as c')
            .select('c.currency')
            .whereRef('c.tenantId', '=', 't.id')
            .where('c.level', '=', 'tenant')
            .orderBy('c.date', 'desc')
            .orderBy('c.currency')
            .limit(1),
          eb
            .selectFrom('subscriptions as s')
            .select('s.currency')
            .whereRef('s.tenantId', '=', 't.id')
            .orderBy('s.lastSeenAt', 'desc')
            .orderBy('s.subscriptionId')
            .limit(1),
        )
        .as('currency'),
    ])
    .where('t.id', 'in', tenantIds)
    .execute()
  const currencies = new Map(tenantIds.map((id) => [id, DEFAULT_CURRENCY]))
  for (const r of rows) if (r.currency) currencies.set(r.id, r.currency)
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
