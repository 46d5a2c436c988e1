import type { Kysely } from 'kysely'
import { CLI_ACTOR } from '../../platform/audit.js'
import { type Principal, visibleTenancies } from '../../platform/auth/principal.js'
import type { Clock, Ids } from '../../platform/clock.js'
import type { Database } from '../../platform/db/index.js'
import { emailProblems } from '../../platform/email.js'
import { ApiError, type FieldErrors } from '../../platform/http/errors.js'
import type { ApiKeyRecord, ApiKeyService } from '../apikeys/public.js'
import type { UserRecord, UserStore } from '../users/public.js'
import type { OrganisationStore } from './store.js'

export const PLANS = ['free', 'team', 'enterprise'] as const

export interface CreatedOrganisation {
  organisation: { id: string; name: string; plan: string; tenancyCount: number }
  owner: UserRecord
  key: ApiKeyRecord
  apiKey: string
}

export function createOrganisationService(deps: {
  db: Kysely<Database>
  organisations: OrganisationStore
  users: UserStore
  apiKeys: ApiKeyService
  clock: Clock
  ids: Ids
  /** Writes the reports a new organisation starts with, in the transaction that creates it. */
  defaultReports?(trx: Kysely<Database>, organisationId: string, createdAt: string): Promise<void>
}) {
  return {
    /** The principal's organisation with the count of tenancies it sees; null when the organisation is gone. */
    async of(who: Principal) {
      const org = await deps.organisations.get(who.organisationId)
      if (!org) return null
      return { ...org, tenancyCount: await deps.organisations.tenancyCount(org.id, visibleTenancies(who)) }
    },

    /** A new organisation with its first owner and the owner's first API key (shown once), all or nothing. */
    async create(input: { name: string; ownerEmail: string; plan?: string }): Promise<CreatedOrganisation> {
      const name = input.name.trim()
      const email = input.ownerEmail.trim().toLowerCase()
      const plan = input.plan ?? 'free'
      const errors: FieldErrors = {}
      if (name === '' || name.length > 200) errors.name = ['must be 1 to 200 characters']
      const emailErrors = emailProblems(email)
      if (emailErrors.length) errors.ownerEmail = emailErrors
      if (!(PLANS as readonly string[]).includes(plan)) errors.plan = [`must be one of: ${PLANS.join(', ')}`]
      if (Object.keys(errors).length) throw ApiError.invalid(errors)
      const now = deps.clock.now().toISOString()
      const organisationId = deps.ids.uuid()
      return deps.db.transaction().execute(async (trx) => {
        await deps.organisations.insert({ id: organisationId, name, plan, createdAt: now }, trx)
        const owner = await deps.users.insert(
          {
            id: deps.ids.uuid(),
            organisationId,
            email,
            displayName: null,
            isOwner: 1,
            isDisabled: 0,
            status: 'Active',
            invitedAt: null,
            createdAt: now,
            lastSeenAt: null,
          },
          trx,
        )
        const { key, apiKey } = await deps.apiKeys.create(
          {
            organisationId,
            name: 'Owner key',
            grants: null,
            // Made on the command line for the owner: it keeps its own scope whatever becomes of the owner.
            createdBy: CLI_ACTOR,
          },
          trx,
        )
        await deps.defaultReports?.(trx, organisationId, now)
        return { organisation: { id: organisationId, name, plan, tenancyCount: 0 }, owner, key, apiKey }
      })
    },
  }
}
export type OrganisationService = ReturnType<typeof createOrganisationService>
