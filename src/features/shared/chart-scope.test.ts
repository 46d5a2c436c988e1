import { describe, expect, it } from 'vitest'
import { formatChartScope, parseChartScope } from './chart-scope.js'

describe('chart scopes', () => {
  const uuid = '0190A000-0000-7000-8000-0000000000A1'
  it.each([
    ['tenant', { kind: 'tenant' }],
    ['subscription:sub-1', { kind: 'subscription', subscriptionId: 'sub-1' }],
    ['resourceGroup:rg-Web', { kind: 'resourceGroup', name: 'rg-Web' }],
    ['resourceGroup:a:b', { kind: 'resourceGroup', name: 'a:b' }],
    [`resource:${uuid}`, { kind: 'resource', resourceId: uuid.toLowerCase() }],
  ])('parses %s', (text, scope) => {
    expect(parseChartScope(text)).toEqual(scope)
  })
  it.each([
    '',
    'Tenant',
    'tenant:',
    'subscription',
    'subscription:',
    'resourceGroup: ',
    'resource:vm-1',
    'site:x',
    ':x',
  ])('rejects %j', (text) => {
    expect(parseChartScope(text)).toBeNull()
  })
  it('formats what it parses', () => {
    for (const text of ['tenant', 'subscription:s', 'resourceGroup:rg', `resource:${uuid.toLowerCase()}`]) {
      expect(formatChartScope(parseChartScope(text)!)).toBe(text)
    }
  })
})
