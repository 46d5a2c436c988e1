import { describe, expect, it } from 'vitest'
import { settledThroughOf } from '../costs/read/index.js'
import { isRemoval, judgedFrom, removalsOf, settledOptions } from './settling.js'

const source = (source: string, coveredFrom: string, coveredTo: string, settledThrough: string) => ({
  source,
  coveredFrom,
  coveredTo,
  settledThrough,
})

describe('settled days', () => {
  it('is the earliest settled day of the sources active within 4 weeks of the newest covered day', () => {
    expect(settledThroughOf([])).toEqual({ settledThrough: null, sources: [] })
    const mixed = settledThroughOf([
      source('focus', '2026-01-01', '2026-02-28', '2026-02-27'),
      source('azure', '2026-02-27', '2026-03-05', '2026-03-03'),
    ])
    expect(mixed.settledThrough).toBe('2026-02-27')
    // An import not repeated for more than 4 weeks no longer holds the collection's days back.
    const stale = settledThroughOf([
      source('focus', '2026-01-01', '2026-01-31', '2026-01-30'),
      source('azure', '2026-02-27', '2026-03-05', '2026-03-03'),
    ])
    expect(stale.settledThrough).toBe('2026-03-03')
    expect(stale.sources.map((s) => s.active)).toEqual([false, true])
    // A source settles nothing beyond what it covered.
    expect(settledThroughOf([source('azure', '2026-03-01', '2026-03-02', '2026-03-09')]).settledThrough).toBe(
      '2026-03-02',
    )
  })

  it('judges again the 14 days up to the settled one', () => {
    expect(judgedFrom('2026-03-03', null)).toBe('2026-03-03')
    expect(judgedFrom('2026-03-03', '2026-03-04')).toBe('2026-02-19')
    expect(judgedFrom('2026-01-01', '2026-03-04')).toBe('2026-01-01')
  })

  it('makes a stopped resource a removal when the collection no longer lists it or an import covers later days', () => {
    const stopped = [
      { resourceKey: 'a', lastDate: '2026-02-10', subscriptionId: 's', groupKey: 's/g', services: ['VM'] },
      { resourceKey: 'b', lastDate: '2026-02-12', subscriptionId: 's', groupKey: 's/h', services: ['SQL'] },
    ]
    const collected = settledThroughOf([source('azure', '2026-01-01', '2026-03-01', '2026-02-27')])
    const byInventory = removalsOf(stopped, new Set(['a']), collected)
    expect(byInventory.get('resource')).toEqual(new Map([['a', ['2026-02-10']]]))
    expect(byInventory.get('resourceGroup')).toEqual(new Map([['s/g', ['2026-02-10']]]))
    expect(byInventory.get('tenant')).toEqual(new Map([['', ['2026-02-10']]]))
    expect(byInventory.get('service')).toEqual(new Map([['VM', ['2026-02-10']]]))
    // Stopped while still listed: an outage.
    expect(removalsOf(stopped, new Set(), collected).size).toBe(0)
    const imported = settledThroughOf([source('focus', '2026-01-01', '2026-02-28', '2026-02-27')])
    const byImport = removalsOf(stopped, null, imported)
    expect([...byImport.get('resource')!.keys()]).toEqual(['a', 'b'])
    expect(byImport.get('subscription')).toEqual(new Map([['s', ['2026-02-10', '2026-02-12']]]))

    const settling = { settledThrough: '2026-02-27', removals: byImport }
    expect(settledOptions(settling, 'resource', 'a', '2026-02-01')).toEqual({ judgeThrough: 26, adoptAt: new Set([9]) })
    expect(settledOptions(settling, 'resource', 'c', '2026-02-01')).toEqual({ judgeThrough: 26 })
    // The drop of its last day or the day after is the removal's; a spike then, or a later drop, is not.
    expect(isRemoval(settling, 'resourceGroup', 's/g', '2026-02-11', { impact: -50 })).toBe(true)
    expect(isRemoval(settling, 'resourceGroup', 's/g', '2026-02-10', { impact: -50 })).toBe(true)
    expect(isRemoval(settling, 'resourceGroup', 's/g', '2026-02-11', { impact: 50 })).toBe(false)
    expect(isRemoval(settling, 'resourceGroup', 's/g', '2026-02-13', { impact: -50 })).toBe(false)
  })
})
