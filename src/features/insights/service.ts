import { type Principal, visibleTenancies } from '../../platform/auth/principal.js'
import type { Clock } from '../../platform/clock.js'
import { ApiError, type FieldErrors } from '../../platform/http/errors.js'
import { type Paging, pageOf } from '../../platform/http/paging.js'
import { applyAction, currentStatus, type PersonAction } from './lifecycle.js'
import type { InsightRecord, PatchInsightRequest } from './schemas.js'
import { type InsightFilter, type InsightRow, type InsightStore, recordOf } from './store.js'

export const MAX_SNOOZE_DAYS = 365

/** The record as of `now`: a snooze that has passed reads Active, with no snoozedUntil. */
function recordAt(row: InsightRow, now: string): InsightRecord {
  return {
    ...recordOf(row),
    ...currentStatus({ status: row.status as InsightRecord['status'], snoozedUntil: row.snoozedUntil }, now),
  }
}

/** Checks a patch: the action a person may take, with snoozeDays exactly when it is Snoozed. */
export function validatePatch(patch: PatchInsightRequest): { action: PersonAction; snoozeDays: number | null } {
  const errors: FieldErrors = {}
  if (patch.action === 'AutoResolved') errors.action = ['AutoResolved is set only by the service']
  const raw = patch.snoozeDays ?? null
  const days = raw === null ? null : Number(raw)
  if (patch.action === 'Snoozed') {
    if (days === null) errors.snoozeDays = ['is required when action is Snoozed']
    else if (!Number.isInteger(days) || days < 1 || days > MAX_SNOOZE_DAYS) {
      errors.snoozeDays = [`must be an integer from 1 to ${MAX_SNOOZE_DAYS}`]
    }
  } else if (raw !== null) {
    errors.snoozeDays = ['is allowed only when action is Snoozed']
  }
  if (Object.keys(errors).length) throw ApiError.invalid(errors)
  return { action: patch.action as PersonAction, snoozeDays: patch.action === 'Snoozed' ? days : null }
}

export function createInsightService(deps: { store: InsightStore; clock: Clock }) {
  const { store, clock } = deps

  async function found(id: string): Promise<InsightRow> {
    const row = await store.byId(id)
    // The route's item check already answered 404 for an unknown or invisible insight.
    if (!row) throw ApiError.notFound(`Insight ${id}`)
    return row
  }

  return {
    /** The tenancy of an insight, for the permission check of a path that names none (null: no such insight). */
    tenancyOf: (id: string) => store.tenancyOf(id),

    async list(who: Principal, filter: InsightFilter, paging: Paging) {
      const now = clock.now().toISOString()
      const { rows, totalCount } = await store.list(who.organisationId, visibleTenancies(who), filter, paging, now)
      return pageOf(
        rows.map((row) => recordAt(row, now)),
        totalCount,
        paging,
      )
    },

    async get(id: string): Promise<InsightRecord> {
      return recordAt(await found(id), clock.now().toISOString())
    },

    /**
     * A person's action. Repeating the current status changes nothing (200, the record as it is); Snoozed again
     * is a new snooze from now, as a snooze is a deadline the caller restates.
     */
    async act(who: Principal, id: string, patch: PatchInsightRequest): Promise<InsightRecord> {
      const { action, snoozeDays } = validatePatch(patch)
      const row = await found(id)
      const now = clock.now().toISOString()
      const current = recordAt(row, now)
      if (current.status === action && action !== 'Snoozed') return current
      await store.act(id, applyAction(action, snoozeDays, now), { action, at: now, by: who.actor, snoozeDays })
      return recordAt(await found(id), now)
    },
  }
}
export type InsightService = ReturnType<typeof createInsightService>
