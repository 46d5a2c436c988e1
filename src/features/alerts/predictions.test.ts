import { describe, expect, it } from 'vitest'
import type { EventRecord } from '../events/public.js'
import { MIN_OBSERVED_DAYS, predictionExcess, scopeTakesMarker } from './predictions.js'
import type { RuleScope, RuleTrigger } from './schemas.js'

const marker = (over: Partial<EventRecord> = {}, monthlyDelta = 120): EventRecord => ({
  id: 'e1',
  tenantId: 't1',
  occurredAt: '2026-02-13T15:00:00.000Z',
  title: 'Deploy',
  category: 'Deployment',
  description: null,
  tagKey: 'Team',
  tagValue: 'platform',
  createdBy: { type: 'ApiKey', id: 'k', name: 'ci' },
  createdAt: '2026-02-13T15:00:00.000Z',
  updatedAt: '2026-02-13T15:00:00.000Z',
  prediction: { monthlyDelta, currency: 'USD', source: 'Infracost', commit: null, pullRequestUrl: null },
  ...over,
})
const trigger = (over: Partial<RuleTrigger> = {}): RuleTrigger => ({ type: 'PredictionExceeded', ...over })
const seen = (monthlyDelta: number | null, days = 14, currency = 'USD') => ({ monthlyDelta, days, currency })

describe('predictionExcess', () => {
  it('fires when observed runs over predicted by every threshold set', () => {
    expect(predictionExcess(trigger(), marker(), seen(1900))).toEqual({
      predicted: 120,
      observed: 1900,
      excess: 1780,
      excessPercent: 1483.33,
      days: 14,
      currency: 'USD',
    })
    expect(predictionExcess(trigger({ minExcess: 1780 }), marker(), seen(1900))).not.toBeNull()
    expect(predictionExcess(trigger({ minExcess: 1781 }), marker(), seen(1900))).toBeNull()
    expect(predictionExcess(trigger({ minExcessPercent: 1500 }), marker(), seen(1900))).toBeNull()
    expect(predictionExcess(trigger({ minExcess: 10, minExcessPercent: 50 }), marker(), seen(170))).toBeNull()
    expect(predictionExcess(trigger({ minExcess: 10, minExcessPercent: 50 }), marker(), seen(180))).not.toBeNull()
  })

  it('never fires under the estimate, too early, without a prediction or across currencies', () => {
    expect(predictionExcess(trigger(), marker(), seen(120))).toBeNull()
    expect(predictionExcess(trigger(), marker(), seen(-50))).toBeNull()
    expect(predictionExcess(trigger(), marker(), seen(1900, MIN_OBSERVED_DAYS - 1))).toBeNull()
    expect(predictionExcess(trigger(), marker(), seen(1900, MIN_OBSERVED_DAYS))).not.toBeNull()
    expect(predictionExcess(trigger(), marker(), seen(null, 0))).toBeNull()
    expect(predictionExcess(trigger(), marker({ prediction: undefined }), seen(1900))).toBeNull()
    expect(predictionExcess(trigger(), marker(), seen(1900, 14, 'EUR'))).toBeNull()
  })

  it('a saving predicted is measured by its size; nothing predicted passes any percentage', () => {
    expect(predictionExcess(trigger({ minExcessPercent: 100 }), marker({}, -100), seen(10))?.excessPercent).toBe(110)
    const zero = predictionExcess(trigger({ minExcessPercent: 1000 }), marker({}, 0), seen(5))
    expect(zero).toMatchObject({ excess: 5, excessPercent: null })
  })
})

describe('scopeTakesMarker', () => {
  const scope = (over: Partial<RuleScope> = {}): RuleScope => ({ tenancyIds: null, ...over })
  it('takes every marker without filters, tagged ones by key (any case) and value (exact)', () => {
    expect(scopeTakesMarker(scope(), marker())).toBe(true)
    expect(scopeTakesMarker(scope(), marker({ tagKey: null, tagValue: null }))).toBe(true)
    expect(scopeTakesMarker(scope({ tags: [{ key: 'TEAM', value: 'platform' }] }), marker())).toBe(true)
    expect(scopeTakesMarker(scope({ tags: [{ key: 'team', value: 'Platform' }] }), marker())).toBe(false)
    expect(scopeTakesMarker(scope({ tags: [{ key: 'team', value: 'platform' }] }), marker({ tagKey: null }))).toBe(
      false,
    )
    expect(scopeTakesMarker(scope({ resourceGroup: 'rg' }), marker())).toBe(false)
    expect(scopeTakesMarker(scope({ service: 'Storage' }), marker())).toBe(false)
  })
})
