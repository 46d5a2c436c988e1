import type { FieldErrors } from '../../../platform/http/errors.js'
import { checkPeriod, type PeriodParameters, resolvePeriod } from '../period.js'
import { cents, largest, type ResourceTotal, resourceTotals } from './resources.js'
import type { ReportKind } from './types.js'

export interface TopResourcesParameters extends PeriodParameters {
  count: number
}

const MAX_COUNT = 1000

/** The most expensive resources over a period, ranked, with their share of the scope's whole cost. */
export const topResources: ReportKind<TopResourcesParameters> = {
  name: 'TopResources',
  description: 'The `count` most expensive resources (default 20, at most 1,000) over a period, ranked.',

  parse(raw) {
    const errors: FieldErrors = {}
    for (const key of Object.keys(raw))
      if (!['count', 'period', 'from', 'to'].includes(key))
        errors[`parameters.${key}`] = ['is not a parameter of TopResources']
    const count = raw.count ?? 20
    if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_COUNT)
      errors['parameters.count'] = [`must be a whole number from 1 to ${MAX_COUNT}`]
    const period = checkPeriod(raw, errors)
    if (Object.keys(errors).length) return { ok: false, errors }
    return { ok: true, value: { count: count as number, ...period } }
  },

  period: (p, today) => resolvePeriod(p, today),

  subtitle: (p) => `Top ${p.count} resources by cost`,

  produce(p, { tenancyIds, period, source }) {
    async function* rows() {
      const top = largest<ResourceTotal>(p.count, (a, b) => (a.resourceKey < b.resourceKey ? -1 : 1))
      for await (const batch of resourceTotals(source, tenancyIds, period)) top.add(batch)
      yield top
        .result()
        .map((r, i) => [
          i + 1,
          r.name,
          r.resourceType,
          r.resourceGroupName,
          r.subscriptionId,
          cents(r.cost),
          r.currency,
        ])
    }
    return {
      columns: [
        { title: 'Rank', type: 'integer', width: 6 },
        { title: 'Resource', type: 'text', width: 32 },
        { title: 'Type', type: 'text', width: 30 },
        { title: 'Resource group', type: 'text', width: 24 },
        { title: 'Subscription', type: 'text', width: 38 },
        { title: 'Cost', type: 'money', width: 14 },
        { title: 'Currency', type: 'text', width: 9 },
      ],
      amountColumn: 5,
      currencyColumn: 6,
      rows: rows(),
    }
  },
}
