import { type RawBuilder, sql } from 'kysely'

/**
 * A resource's running total (or its day, `column` 'date') on the last day with one on or before `day`
 * (`inclusive`) or before it, in one currency; null when it had none by then. The resource and currency are
 * expressions of the caller's query. resource_running_costs is keyed by month first: the day's month is one seek,
 * and when it has no running total by the day, the latest earlier month's last one (resource_month_ends) is another.
 */
export function runningTotalOnOrBefore(
  resourceId: RawBuilder<unknown>,
  currency: RawBuilder<unknown>,
  day: string,
  inclusive: boolean,
  column: 'running_cost' | 'date' = 'running_cost',
): RawBuilder<number | string | null> {
  const month = day.slice(0, 7)
  const bound = inclusive ? sql`r.date <= ${day}` : sql`r.date < ${day}`
  return sql<number | string | null>`coalesce(
    (select r.${sql.raw(column)} from resource_running_costs r
      where r.month = ${month} and r.resource_id = ${resourceId} and r.currency = ${currency} and ${bound}
      order by r.date desc limit 1),
    (select e.${sql.raw(column)} from resource_month_ends e
      where e.resource_id = ${resourceId} and e.currency = ${currency} and e.month < ${month}
      order by e.month desc limit 1))`
}
