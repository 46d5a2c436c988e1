import { describe, expect, it } from 'vitest'
import type { EventRecord } from '../../src/features/events/schemas.js'
import { applyPatch, normaliseInstant, requestHash } from '../../src/features/events/service.js'
import { type ChartTarget, isVisibleOn, visibleMarkers } from '../../src/features/events/visibility.js'
import { ApiError } from '../../src/platform/http/errors.js'

const universal = { tagKey: null, tagValue: null }
const tag = (tagKey: string, tagValue: string) => ({ tagKey, tagValue })
const broad: ChartTarget = { kind: 'broad' }
const single = (tags: Record<string, string>): ChartTarget => ({ kind: 'single', tags })

describe('which markers a chart shows', () => {
  const cases: [string, { tagKey: string | null; tagValue: string | null }, ChartTarget, boolean][] = [
    ['universal on a broad chart', universal, broad, true],
    ['universal on a resource with no tags', universal, single({}), true],
    ['universal on a tagged resource', universal, single({ env: 'prod' }), true],
    ['tagged on a broad chart (tenant, subscription)', tag('env', 'prod'), broad, true],
    ['tagged, its key never seen anywhere, on a broad chart', tag('nobody', 'has'), broad, true],
    ['matching key and value', tag('env', 'prod'), single({ env: 'prod' }), true],
    ['matching among other tags', tag('env', 'prod'), single({ team: 'a', env: 'prod', cost: 'x' }), true],
    ['key in other casing on the resource', tag('env', 'prod'), single({ ENV: 'prod' }), true],
    ['key in other casing on the marker', tag('Cost-Center', 'prod'), single({ 'cost-center': 'prod' }), true],
    ['same key, other value', tag('env', 'prod'), single({ env: 'test' }), false],
    ['same key, value in other casing (values are exact)', tag('env', 'prod'), single({ env: 'Prod' }), false],
    ['value with a trailing space (exact)', tag('env', 'prod'), single({ env: 'prod ' }), false],
    ['missing key', tag('env', 'prod'), single({ team: 'prod' }), false],
    ['resource without tags', tag('env', 'prod'), single({}), false],
    ['the value under another key', tag('env', 'prod'), single({ stage: 'prod' }), false],
    ['an empty value matches only an empty value', tag('env', ''), single({ env: '' }), true],
    ['an empty value does not match a set one', tag('env', ''), single({ env: 'prod' }), false],
    ['two spellings of the key, one with the value', tag('env', 'prod'), single({ Env: 'test', env: 'prod' }), true],
  ]
  it.each(cases)('%s', (_name, marker, target, expected) => {
    expect(isVisibleOn(marker, target)).toBe(expected)
  })

  it('filters a list and keeps its order', () => {
    const markers = [
      { id: 1, ...universal },
      { id: 2, ...tag('env', 'prod') },
      { id: 3, ...tag('env', 'test') },
      { id: 4, ...tag('team', 'a') },
      { id: 5, ...universal },
    ]
    expect(visibleMarkers(markers, single({ Env: 'prod' })).map((m) => m.id)).toEqual([1, 2, 5])
    expect(visibleMarkers(markers, broad).map((m) => m.id)).toEqual([1, 2, 3, 4, 5])
    expect(visibleMarkers([], broad)).toEqual([])
  })
})

describe('instants', () => {
  it.each([
    ['2026-03-01T10:55:00+02:00', '2026-03-01T08:55:00.000Z'],
    ['2026-03-01T10:55:00Z', '2026-03-01T10:55:00.000Z'],
    ['2026-03-01t10:55:00z', '2026-03-01T10:55:00.000Z'],
    ['2026-03-01T00:30:00-01:30', '2026-03-01T02:00:00.000Z'],
    ['2026-03-01T10:55:00.123456Z', '2026-03-01T10:55:00.123Z'],
    ['2026-03-01T10:55:00.5+0100', '2026-03-01T09:55:00.500Z'],
    ['2024-02-29T12:00:00Z', '2024-02-29T12:00:00.000Z'],
  ])('%s is %s', (text, utc) => {
    expect(normaliseInstant(text)).toBe(utc)
  })
  it.each([
    'yesterday',
    '2026-03-01',
    '2026-03-01T10:55:00',
    '2026-02-29T12:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-03-01T24:00:00Z',
    '2026-03-01T23:59:60Z',
    '2026-03-01T10:00:00+25:00',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:00:00-02:00',
  ])('%s is not an instant the API takes', (text) => {
    expect(normaliseInstant(text)).toBeNull()
  })
})

function fieldErrors(work: () => unknown) {
  try {
    work()
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).status).toBe(400)
    return (err as ApiError).more.errors ?? {}
  }
  throw new Error('expected a validation error')
}

describe('patching an event', () => {
  const now = '2026-03-02T00:00:00.000Z'
  const event: EventRecord = {
    id: '0190a000-0000-7000-8000-000000000001',
    tenantId: '0190a000-0000-7000-8000-000000000002',
    occurredAt: '2026-03-01T08:00:00.000Z',
    title: 'Deploy',
    category: 'Deployment',
    description: 'd',
    tagKey: null,
    tagValue: null,
    createdBy: { type: 'ApiKey', id: 'k', name: 'ci' },
    createdAt: '2026-03-01T09:00:00.000Z',
    updatedAt: '2026-03-01T09:00:00.000Z',
  }
  it('changes only what is given, and always updatedAt', () => {
    expect(applyPatch(event, {}, now)).toEqual({ updatedAt: now })
    expect(applyPatch(event, { title: null, description: null, tagKey: null }, now)).toEqual({ updatedAt: now })
    expect(applyPatch(event, { description: '' }, now)).toEqual({ updatedAt: now, description: null })
    expect(applyPatch(event, { tagKey: ' env ', tagValue: 'prod' }, now)).toEqual({
      updatedAt: now,
      tagKey: 'env',
      tagValue: 'prod',
    })
  })
  it('keeps tagKey and tagValue together', () => {
    expect(fieldErrors(() => applyPatch(event, { tagKey: 'env' }, now))).toEqual({
      tagValue: ['is required when tagKey is set'],
    })
    const tagged = { ...event, tagKey: 'env', tagValue: 'prod' }
    expect(applyPatch(tagged, { tagValue: 'test' }, now)).toMatchObject({ tagKey: 'env', tagValue: 'test' })
    expect(applyPatch(tagged, { clearTag: true }, now)).toMatchObject({ tagKey: null, tagValue: null })
    expect(Object.keys(fieldErrors(() => applyPatch(tagged, { clearTag: true, tagKey: 'x' }, now)))).toEqual([
      'clearTag',
    ])
  })
})

describe('idempotency request hash', () => {
  it('is the same for the same body in any field order, and differs for another body', () => {
    const a = requestHash('op', { title: 'x', category: 'Other' })
    expect(requestHash('op', { category: 'Other', title: 'x' })).toBe(a)
    expect(requestHash('op', { category: 'Other', title: 'y' })).not.toBe(a)
    expect(requestHash('op', { category: 'Other', title: 'x', description: null })).not.toBe(a)
    expect(requestHash('other', { title: 'x', category: 'Other' })).not.toBe(a)
  })
})
