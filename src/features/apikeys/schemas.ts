import { type Static, Type } from 'typebox'
import { TENANCY_ROLES } from '../../platform/auth/principal.js'
import { ActorRef, Instant, Nullable, StringEnum, Uuid } from '../../platform/http/schemas.js'

export const TenancyGrant = Type.Object({ tenancyId: Uuid, role: StringEnum(TENANCY_ROLES) })
export type TenancyGrant = Static<typeof TenancyGrant>

export const ApiKeyRecord = Type.Object(
  {
    id: Uuid,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    prefix: Type.String({ description: 'The first 10 characters of the key, to recognise it.' }),
    scope: Type.Union([Type.Literal('owner'), Type.Array(TenancyGrant)]),
    createdAt: Instant,
    createdBy: ActorRef,
    createdByEmail: Nullable(
      Type.String({
        description:
          "The address of the user who made the key, as it is now: the key acts with at most that user's current " +
          'rights. Null for a key made on the command line, which keeps its own scope.',
      }),
    ),
    expiresAt: Nullable(Instant),
    lastUsedAt: Nullable(Instant),
    revokedAt: Nullable(Instant),
  },
  { $id: 'ApiKey' },
)
export type ApiKeyRecord = Static<typeof ApiKeyRecord>
