import { type Acting, recordAudit } from '../../platform/audit.js'
import { type Principal, roleOn } from '../../platform/auth/principal.js'
import type { Clock, Ids } from '../../platform/clock.js'
import { sha256Hex } from '../../platform/crypto.js'
import { ApiError, type FieldErrors } from '../../platform/http/errors.js'
import { type Paging, pageOf } from '../../platform/http/paging.js'
import { DAY_MS, utcMillis } from '../../platform/time.js'

import type { InventoryStore } from '../inventory/public.js'
import {
  CHART_SCOPE_ERROR,
  type ChartScope,
  formatChartScope,
  parseChartScope,
  type ResolvedChartScope,
} from '../shared/chart-scope.js'

import { MAX_VISIBLE_EVENTS } from './constants.js'
import type {
  CreatePublicEventRequest,
  EventCategory,
  EventRecord,
  MarkerPrediction,
  MarkerPredictionInput,
  PatchPublicEventRequest,
  VisibleEvents,
} from './schemas.js'
import type { EventChanges, EventStore, IdempotencyRef, IdempotencyRow } from './store.js'
import { type ChartTarget, visibleMarkers } from './visibility.js'

/** How long an Idempotency-Key answers with the first response. */
export const IDEMPOTENCY_TTL_MS = DAY_MS
/** A create still "in flight" after this long died with its process; a retry may take the key over. */
const IN_FLIGHT_STALE_MS = 60_000
/** Expired keys are swept at most this often per process (and replaced on sight in between). */
const SWEEP_EVERY_MS = 10 * 60_000
const CHART_DEFAULT_RANGE_MS = 30 * DAY_MS

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):?(\d{2}))$/

/**
 * An RFC 3339 date-time with any offset, as UTC with milliseconds (the API's one instant format), or null
 * when it is not a real instant (31 February, a leap second, or outside the years 0001 to 9999 in UTC).
 */
export function normaliseInstant(text: string): string | null {
  const m = RFC3339.exec(text)
  if (!m) return null
  const [, y, mo, d, h, mi, s, frac, sign, oh, om] = m
  const ms = frac ? Math.floor(Number(`0${frac}`) * 1000) : 0
  const local = utcMillis(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s), ms)
  if (local === null) return null
  const offsetMinutes = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0
  if (Number(oh ?? 0) > 23 || Number(om ?? 0) > 59) return null
  const utc = new Date(local - offsetMinutes * 60_000)
  const year = utc.getUTCFullYear()
  // Beyond four-digit years the ISO text would no longer sort as text.
  if (year < 1 || year > 9999) return null
  return utc.toISOString()
}

/** JSON with every object's keys in order, at every depth (a flat body gives what it always gave). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** The same body gives the same hash, whatever the order of its fields (nested ones too). */
export function requestHash(operation: string, body: Record<string, unknown>): string {
  return sha256Hex(`${operation}\n${canonicalJson(body)}`)
}

/**
 * A prediction as stored: the source trimmed, commit and pull request null when absent or blank, the pull request
 * an http(s) URL. Errors name `prediction.{field}`.
 */
export function predictionOf(input: MarkerPredictionInput, errors: FieldErrors): MarkerPrediction {
  const source = input.source.trim()
  if (source === '') errors['prediction.source'] = ['must not be empty']
  if (!Number.isFinite(input.monthlyDelta)) errors['prediction.monthlyDelta'] = ['must be a finite number']
  const commit = input.commit == null || input.commit.trim() === '' ? null : input.commit.trim()
  if (commit !== null && !/^[\x21-\x7E]+$/.test(commit)) {
    errors['prediction.commit'] = ['must be visible ASCII characters without spaces, e.g. a commit SHA']
  }
  const url = input.pullRequestUrl == null || input.pullRequestUrl.trim() === '' ? null : input.pullRequestUrl.trim()
  if (url !== null && !isHttpUrl(url)) errors['prediction.pullRequestUrl'] = ['must be an http:// or https:// URL']
  return {
    monthlyDelta: Math.round(input.monthlyDelta * 100) / 100,
    currency: input.currency,
    source,
    commit,
    pullRequestUrl: url,
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text)
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && !u.username && !u.password
  } catch {
    return false
  }
}

function badInstant(field: string): FieldErrors {
  return { [field]: ['must be an RFC 3339 date-time, e.g. 2026-03-01T10:55:00Z'] }
}

/** tagKey and tagValue come together or not at all. */
function tagPairErrors(tagKey: string | null, tagValue: string | null): FieldErrors {
  if (tagKey !== null && tagValue === null) return { tagValue: ['is required when tagKey is set'] }
  if (tagKey === null && tagValue !== null) return { tagKey: ['is required when tagValue is set'] }
  return {}
}

function fail(errors: FieldErrors): void {
  if (Object.keys(errors).length) throw ApiError.invalid(errors)
}

/** The fields of a patch applied to the current event: absent or null leaves a field as it is. */
export const MAX_TITLE = 200

/** A title as stored: trimmed, 1 to 200 characters. */
function titleErrors(title: string): FieldErrors {
  if (title === '') return { title: ['must not be empty'] }
  if (title.length > MAX_TITLE) return { title: [`must be at most ${MAX_TITLE} characters after trimming`] }
  return {}
}

export function applyPatch(current: EventRecord, patch: PatchPublicEventRequest, now: string): EventChanges {
  const errors: FieldErrors = {}
  const changes: EventChanges = { updatedAt: now }
  if (patch.title != null) {
    const title = patch.title.trim()
    Object.assign(errors, titleErrors(title))
    changes.title = title
  }
  if (patch.description != null) changes.description = patch.description === '' ? null : patch.description
  if (patch.category != null) changes.category = patch.category
  if (patch.occurredAt != null) {
    const occurredAt = normaliseInstant(patch.occurredAt)
    if (occurredAt === null) Object.assign(errors, badInstant('occurredAt'))
    else changes.occurredAt = occurredAt
  }
  const tagKey = patch.tagKey == null ? null : patch.tagKey.trim()
  if (tagKey === '') errors.tagKey = ['must not be empty']
  if (patch.clearTag) {
    if (patch.tagKey != null || patch.tagValue != null) {
      errors.clearTag = ['cannot be combined with tagKey or tagValue']
    } else {
      changes.tagKey = null
      changes.tagValue = null
    }
  } else if (tagKey || patch.tagValue != null) {
    const key = tagKey || current.tagKey
    const value = patch.tagValue ?? current.tagValue
    // The stored event may lack the other half: the result must still be a pair.
    Object.assign(errors, tagPairErrors(key, value))
    changes.tagKey = key
    changes.tagValue = value
  }
  if (patch.clearPrediction) {
    if (patch.prediction != null) errors.clearPrediction = ['cannot be combined with prediction']
    else changes.prediction = null
  } else if (patch.prediction != null) {
    changes.prediction = predictionOf(patch.prediction, errors)
  }
  fail(errors)
  return changes
}

interface ChartQuery {
  scope: string
  subscriptionId?: string
  from?: string
  to?: string
}
interface ResolvedChart {
  scope: ChartScope
  subscriptionId?: string
  from: string
  to: string
}

/** What visibility needs of a scope already found: a tenant or subscription chart is broad, else its own tags. */
function targetOf(found: ResolvedChartScope): ChartTarget {
  return found.kind === 'tenant' || found.kind === 'subscription'
    ? { kind: 'broad' }
    : { kind: 'single', tags: found.tags }
}

/** Whether an If-None-Match header (`*`, or a list of ETags, weak or strong) names `etag`: weak comparison. */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag)
}

/**
 * The one rule of changing and deleting a marker, beside the routes' Editor role: its creator may, and so may an
 * Admin of the tenancy (owners are Admin everywhere). Another Editor may not: it would rewrite someone else's
 * marker as freely as delete it.
 */
function mayChange(who: Principal, tenantId: string, event: EventRecord, action: 'change' | 'delete'): void {
  const isCreator = event.createdBy.type === who.actor.type && event.createdBy.id === who.actor.id
  if (!isCreator && roleOn(who, tenantId) !== 'Admin') {
    throw ApiError.forbidden(`Only the creator of the event or an Admin of the tenancy may ${action} it.`)
  }
}

export function createEventService(deps: { store: EventStore; inventory: InventoryStore; clock: Clock; ids: Ids }) {
  const { store, inventory, clock, ids } = deps
  let nextSweepAt = 0

  /** Validates a create body and builds the record it makes. */
  function build(who: Principal, tenantId: string, input: CreatePublicEventRequest): EventRecord {
    const errors: FieldErrors = {}
    const title = input.title.trim()
    Object.assign(errors, titleErrors(title))
    const occurredAt = normaliseInstant(input.occurredAt)
    if (occurredAt === null) Object.assign(errors, badInstant('occurredAt'))
    const tagKey = input.tagKey == null ? null : input.tagKey.trim()
    if (tagKey === '') errors.tagKey = ['must not be empty']
    const tagValue = input.tagValue ?? null
    Object.assign(errors, tagPairErrors(input.tagKey ?? null, tagValue))
    const prediction = input.prediction ? predictionOf(input.prediction, errors) : undefined
    fail(errors)
    const now = clock.now().toISOString()
    return {
      id: ids.uuid(),
      tenantId,
      occurredAt: occurredAt!,
      title,
      category: input.category,
      description: input.description ? input.description : null,
      tagKey,
      tagValue,
      createdBy: who.actor,
      createdAt: now,
      updatedAt: now,
      ...(prediction ? { prediction } : {}),
    }
  }

  /** Holds the key for this request, or answers from the request that already holds it. */
  async function claimKey(row: IdempotencyRow): Promise<{ replay: EventRecord } | null> {
    const now = row.createdAt
    if (Date.parse(now) >= nextSweepAt) {
      nextSweepAt = Date.parse(now) + SWEEP_EVERY_MS
      await store.idempotency.sweep(now)
    }
    // Each round either wins the key or sees who holds it; a lost race (deleted or taken over meanwhile) retries.
    for (let round = 0; round < 3; round++) {
      if (await store.idempotency.claim(row)) return null
      const held = await store.idempotency.find(row)
      if (!held) continue
      const staleBefore = new Date(Date.parse(now) - IN_FLIGHT_STALE_MS).toISOString()
      const expired = held.expiresAt <= now
      const abandoned = held.responseBody === null && held.createdAt < staleBefore
      if (expired || abandoned) {
        if (await store.idempotency.takeOver(held, row)) return null
        continue
      }
      if (held.requestHash !== row.requestHash) {
        throw new ApiError(422, 'idempotency-key-reused', 'The Idempotency-Key was used for another request.', {
          detail: 'This Idempotency-Key was already used with a different body; use a new key for a new event.',
        })
      }
      if (held.responseBody === null) {
        throw new ApiError(409, 'idempotency-in-flight', 'A request with this Idempotency-Key is in progress.', {
          detail: 'The first request with this Idempotency-Key has not finished; retry in a moment.',
          headers: { 'Retry-After': '1' },
        })
      }
      return { replay: JSON.parse(held.responseBody) as EventRecord }
    }
    throw ApiError.conflict('The Idempotency-Key is contended by concurrent requests; retry in a moment.')
  }

  async function chartTarget(tenantId: string, scope: ChartScope, subscriptionId?: string): Promise<ChartTarget> {
    switch (scope.kind) {
      case 'tenant':
        return { kind: 'broad' }
      case 'subscription':
        if (!(await inventory.subscriptionExists(tenantId, scope.subscriptionId))) {
          throw ApiError.notFound(`Subscription ${scope.subscriptionId}`)
        }
        return { kind: 'broad' }
      case 'resource': {
        const tags = await inventory.resourceTags(tenantId, scope.resourceId)
        if (!tags) throw ApiError.notFound(`Resource ${scope.resourceId}`)
        return { kind: 'single', tags }
      }
      case 'resourceGroup': {
        const groups = await inventory.resourceGroupsNamed(tenantId, scope.name, subscriptionId)
        if (groups.length === 0) throw ApiError.notFound(`Resource group ${scope.name}`)
        if (groups.length > 1) {
          const subscriptionIds = groups.map((g) => g.subscriptionId)
          throw ApiError.conflict(
            `Resource group ${scope.name} exists in several subscriptions; choose one with subscriptionId.`,
            { subscriptionIds },
          )
        }
        return { kind: 'single', tags: groups[0]!.tags }
      }
    }
  }

  /** A chart's query checked and resolved: its scope parsed, `to` defaulting to now and `from` to 30 days before. */
  function resolveChart(query: ChartQuery): ResolvedChart {
    const errors: FieldErrors = {}
    const scope = parseChartScope(query.scope)
    if (!scope) {
      errors.scope = [CHART_SCOPE_ERROR]
    }
    const to = query.to === undefined ? clock.now().toISOString() : normaliseInstant(query.to)
    if (to === null) Object.assign(errors, badInstant('to'))
    const from =
      query.from !== undefined
        ? normaliseInstant(query.from)
        : to && new Date(Date.parse(to) - CHART_DEFAULT_RANGE_MS).toISOString()
    if (from === null) Object.assign(errors, badInstant('from'))
    if (from && to && from > to) errors.from = ['must not be after to']
    fail(errors)
    return { scope: scope!, subscriptionId: query.subscriptionId, from: from!, to: to! }
  }

  async function markersOf(tenantId: string, chart: ResolvedChart, found?: ResolvedChartScope): Promise<VisibleEvents> {
    const target = found ? targetOf(found) : await chartTarget(tenantId, chart.scope, chart.subscriptionId)
    // Tagged markers the chart does not show are skipped, so read in batches until the page is full.
    const wanted = MAX_VISIBLE_EVENTS + 1
    const items: EventRecord[] = []
    let after: EventRecord | undefined
    for (;;) {
      const batch = await store.range(tenantId, chart.from, chart.to, wanted, after)
      items.push(...visibleMarkers(batch, target))
      after = batch.at(-1)
      if (items.length >= wanted || batch.length < wanted) break
    }
    return {
      scope: formatChartScope(chart.scope),
      from: chart.from,
      to: chart.to,
      items: items.slice(0, MAX_VISIBLE_EVENTS),
      truncated: items.length > MAX_VISIBLE_EVENTS,
    }
  }

  return {
    /**
     * Creates a marker. With an Idempotency-Key, the same key and body within 24 hours answer the first
     * response; `replayed` says so. Without one, it is one transaction of two statements.
     */
    async create(
      who: Principal,
      tenantId: string,
      input: CreatePublicEventRequest,
      idempotencyKey?: string,
    ): Promise<{ event: EventRecord; replayed: boolean }> {
      const event = build(who, tenantId, input)
      if (idempotencyKey === undefined) {
        await store.insert(event)
        return { event, replayed: false }
      }
      const now = clock.now()
      const key: IdempotencyRow = {
        actorId: who.actor.id ?? who.actor.type,
        tenantId,
        idempotencyKey,
        requestHash: requestHash('PublicCreateTenantEvent', input),
        responseBody: null,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
      }
      const held = await claimKey(key)
      if (held) return { event: held.replay, replayed: true }
      const ref: IdempotencyRef = key
      try {
        await store.idempotency.insertEvent(event, ref, JSON.stringify(event))
      } catch (err) {
        // Nothing was created: free the key so that a retry runs again.
        await store.idempotency.release(ref, key.createdAt).catch(() => {})
        throw err
      }
      return { event, replayed: false }
    },

    async list(tenantId: string, query: { from?: string; to?: string; category?: EventCategory }, paging: Paging) {
      const errors: FieldErrors = {}
      const from = query.from === undefined ? undefined : normaliseInstant(query.from)
      const to = query.to === undefined ? undefined : normaliseInstant(query.to)
      if (from === null) Object.assign(errors, badInstant('from'))
      if (to === null) Object.assign(errors, badInstant('to'))
      if (from && to && from > to) errors.from = ['must not be after to']
      fail(errors)
      const filter = { from: from ?? undefined, to: to ?? undefined, category: query.category }
      const { items, totalCount } = await store.list(tenantId, filter, paging)
      return pageOf(items, totalCount, paging)
    },

    async get(tenantId: string, id: string): Promise<EventRecord> {
      const event = await store.get(tenantId, id)
      if (!event) throw ApiError.notFound(`Event ${id}`)
      return event
    },

    /** Changes a marker: its creator or an Admin of the tenancy (mayChange), checked on the row it changes. */
    async update(who: Principal, tenantId: string, id: string, patch: PatchPublicEventRequest): Promise<EventRecord> {
      const now = clock.now().toISOString()
      const updated = await store.update(tenantId, id, (current) => {
        mayChange(who, tenantId, current, 'change')
        return applyPatch(current, patch, now)
      })
      if (!updated) throw ApiError.notFound(`Event ${id}`)
      return updated
    },

    /**
     * Deletes a marker: its creator or an Admin of the tenancy (mayChange). The audit log records who did, from
     * where, and the marker's title, in the transaction of the delete.
     */
    async delete(who: Principal, by: Acting, tenantId: string, id: string): Promise<void> {
      const event = await store.get(tenantId, id)
      if (!event) throw ApiError.notFound(`Event ${id}`)
      mayChange(who, tenantId, event, 'delete')
      const deleted = await store.delete(tenantId, id, (trx) =>
        recordAudit(trx, ids, {
          organisationId: who.organisationId,
          at: clock.now().toISOString(),
          by,
          action: 'event.deleted',
          target: { type: 'Event', id },
          detail: { title: event.title, category: event.category, occurredAt: event.occurredAt, tenancyId: tenantId },
        }),
      )
      if (!deleted) throw ApiError.notFound(`Event ${id}`)
    },

    /** The markers on one chart, oldest first, at most 1,000. */
    async visible(tenantId: string, query: ChartQuery): Promise<VisibleEvents> {
      return markersOf(tenantId, resolveChart(query))
    },

    /**
     * The markers on one chart whose scope the caller has found in the inventory already (a cost chart finds it
     * once for its costs and its markers): the same answer as `visible`, without a second lookup.
     */
    async visibleOn(tenantId: string, found: ResolvedChartScope, query: ChartQuery): Promise<VisibleEvents> {
      return markersOf(tenantId, resolveChart(query), found)
    },

    /**
     * The markers on one chart with their ETag, or only the ETag (`markers: null`) when `ifNoneMatch` names it:
     * the chart is unchanged. The ETag stands for the tenant's marker version, its organisation's version (the
     * inventory a tagged marker's visibility depends on) and the chart asked for, so any process answers it
     * exactly with one read; both versions are read before the markers, so a write in between is seen next time.
     */
    async visibleIfChanged(
      who: Principal,
      tenantId: string,
      query: ChartQuery,
      ifNoneMatch: string | undefined,
    ): Promise<{ etag: string; markers: VisibleEvents | null }> {
      const chart = resolveChart(query)
      const versions = await store.versions(tenantId, who.organisationId)
      const chartKey = [formatChartScope(chart.scope), chart.subscriptionId ?? '', chart.from, chart.to]
      const etag = `"${sha256Hex([versions.markers, versions.organisation, ...chartKey].join('\n')).slice(0, 32)}"`
      if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, etag)) return { etag, markers: null }
      return { etag, markers: await markersOf(tenantId, chart) }
    },
  }
}
export type EventService = ReturnType<typeof createEventService>
