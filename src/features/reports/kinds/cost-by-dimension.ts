import type { FieldErrors } from '../../../platform/http/errors.js'
import { checkPeriod, type PeriodParameters, resolvePeriod } from '../period.js'
import { cents, largest, type ResourceTotal, resourceTotals } from './resources.js'
import type { Column, ReportKind, Row } from './types.js'

export const DIMENSIONS = ['Subscription', 'ResourceGroup', 'Service', 'Resource', 'Tag'] as const
export type Dimension = (typeof DIMENSIONS)[number]

export interface CostByDimensionParameters extends PeriodParameters {
  dimension: Dimension
  /** With dimension Tag: the tag whose values are the rows (matched case-insensitively, as Azure does). */
  tagKey?: string
  /** Only the `top` largest rows; all rows when absent. */
  top?: number
}

export const MAX_TOP = 1000
const UNTAGGED = '(untagged)'

const money: Column = { title: 'Cost', type: 'money', width: 14 }
const currency: Column = { title: 'Currency', type: 'text', width: 9 }

const LEADING: Record<Dimension, (p: CostByDimensionParameters) => Column[]> = {
  Subscription: () => [{ title: 'Subscription', type: 'text', width: 38 }],
  ResourceGroup: () => [
    { title: 'Resource group', type: 'text', width: 32 },
    { title: 'Subscription', type: 'text', width: 38 },
  ],
  Service: () => [{ title: 'Service', type: 'text', width: 32 }],
  Resource: () => [
    { title: 'Resource', type: 'text', width: 32 },
    { title: 'Type', type: 'text', width: 30 },
    { title: 'Resource group', type: 'text', width: 24 },
    { title: 'Subscription', type: 'text', width: 38 },
  ],
  Tag: (p) => [{ title: `Tag ${p.tagKey}`, type: 'text', width: 32 }],
}

const DIMENSION_WORDS: Record<Dimension, string> = {
  Subscription: 'subscription',
  ResourceGroup: 'resource group',
  Service: 'service',
  Resource: 'resource',
  Tag: 'tag',
}

/** A tag's value on a resource, its key matched case-insensitively. */
function tagValue(tags: Record<string, string>, key: string): string | undefined {
  const lower = key.toLowerCase()
  for (const [k, v] of Object.entries(tags)) if (k.toLowerCase() === lower) return v
  return undefined
}

/** Cost by subscription, resource group, service, resource or a tag's values, over a period. */
export const costByDimension: ReportKind<CostByDimensionParameters> = {
  name: 'CostByDimension',
  description:
    'Cost by subscription, resource group, service, resource or the values of a tag over a period, largest first ' +
    '(by resource: in resource id order, unless `top` asks for the largest).',

  parse(raw) {
    const errors: FieldErrors = {}
    for (const key of Object.keys(raw))
      if (!['dimension', 'tagKey', 'top', 'period', 'from', 'to'].includes(key))
        errors[`parameters.${key}`] = ['is not a parameter of CostByDimension']
    const dimension = raw.dimension as Dimension
    if (!DIMENSIONS.includes(dimension)) errors['parameters.dimension'] = [`must be one of: ${DIMENSIONS.join(', ')}`]
    const tagKey = raw.tagKey
    if (dimension === 'Tag') {
      if (typeof tagKey !== 'string' || tagKey.trim() === '' || tagKey.length > 512)
        errors['parameters.tagKey'] = ['is required with dimension Tag (1 to 512 characters)']
    } else if (tagKey !== undefined) errors['parameters.tagKey'] = ['is only allowed with dimension Tag']
    const top = raw.top
    if (top !== undefined && (!Number.isInteger(top) || (top as number) < 1 || (top as number) > MAX_TOP))
      errors['parameters.top'] = [`must be a whole number from 1 to ${MAX_TOP}`]
    const period = checkPeriod(raw, errors)
    if (Object.keys(errors).length) return { ok: false, errors }
    return {
      ok: true,
      value: {
        dimension,
        ...(dimension === 'Tag' ? { tagKey: (tagKey as string).trim() } : {}),
        ...(top !== undefined ? { top: top as number } : {}),
        ...period,
      },
    }
  },

  period: (p, today) => resolvePeriod(p, today),

  subtitle: (p) =>
    `${p.top ? `Top ${p.top} by ` : 'Cost by '}${p.dimension === 'Tag' ? `tag ${p.tagKey}` : DIMENSION_WORDS[p.dimension]}`,

  produce(p, { tenancyIds, period, source }) {
    const columns = [...LEADING[p.dimension](p), money, currency]
    const amountColumn = columns.length - 2
    const all = resourceTotals(source, tenancyIds, period)
    const rowOf = (r: ResourceTotal): Row => [
      r.name,
      r.resourceType,
      r.resourceGroupName,
      r.subscriptionId,
      cents(r.cost),
      r.currency,
    ]

    async function* byResource(): AsyncGenerator<Row[]> {
      if (p.top) {
        const top = largest<ResourceTotal>(p.top, (a, b) => (a.resourceKey < b.resourceKey ? -1 : 1))
        for await (const batch of all) top.add(batch)
        yield top.result().map(rowOf)
        return
      }
      // Streamed in resource id order (subscription, group, type, name): a million rows never sit in memory.
      for await (const batch of all) yield batch.map(rowOf)
    }

    /** The other dimensions have few groups: folded in memory, then largest first. */
    async function* grouped(): AsyncGenerator<Row[]> {
      const groups = new Map<string, { labels: string[]; currency: string; cost: number }>()
      const add = (labels: string[], currency: string, cost: number) => {
        const key = `${labels.join('\u0000')}\u0000${currency}`
        const g = groups.get(key) ?? { labels, currency, cost: 0 }
        g.cost += cost
        groups.set(key, g)
      }
      if (p.dimension === 'Service') {
        for (const tenancyId of tenancyIds)
          for await (const { costs } of source.resourceCosts(tenancyId, period))
            for (const c of costs) add([c.serviceName], c.currency, c.cost)
      } else {
        for await (const batch of all)
          for (const r of batch) {
            if (p.dimension === 'Subscription') add([r.subscriptionId], r.currency, r.cost)
            else if (p.dimension === 'ResourceGroup')
              add([r.resourceGroupName || '(none)', r.subscriptionId], r.currency, r.cost)
            else add([tagValue(r.tags, p.tagKey!) ?? UNTAGGED], r.currency, r.cost)
          }
      }
      const sorted = [...groups.values()].sort(
        (a, b) =>
          b.cost - a.cost ||
          a.labels.join('/').localeCompare(b.labels.join('/')) ||
          a.currency.localeCompare(b.currency),
      )
      const kept = p.top ? sorted.slice(0, p.top) : sorted
      yield kept.map((g) => [...g.labels, cents(g.cost), g.currency])
    }

    return {
      columns,
      amountColumn,
      currencyColumn: amountColumn + 1,
      rows: p.dimension === 'Resource' ? byResource() : grouped(),
    }
  },
}
