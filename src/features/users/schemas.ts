import { type Static, Type } from 'typebox'
import { TENANCY_ROLES } from '../../platform/auth/principal.js'
import { Instant, Nullable, StringEnum, Uuid } from '../../platform/http/schemas.js'

export const UserStatuses = ['Invited', 'Active', 'Disabled'] as const

export const UserRecord = Type.Object(
  {
    id: Uuid,
    email: Type.String({ format: 'email' }),
    displayName: Nullable(Type.String({ maxLength: 200 })),
    isOwner: Type.Boolean(),
    isDisabled: Type.Boolean(),
    status: StringEnum(UserStatuses),
    invitedAt: Nullable(Instant),
    createdAt: Instant,
    lastSeenAt: Nullable(Instant),
  },
  { $id: 'User' },
)
export type UserRecord = Static<typeof UserRecord>

export const TenancyUserRecord = Type.Object(
  {
    userId: Uuid,
    email: Type.String({ format: 'email' }),
    displayName: Nullable(Type.String()),
    role: StringEnum(TENANCY_ROLES),
    isOwner: Type.Boolean(),
  },
  { $id: 'TenancyUser' },
)

export const InvitePublicUserRequest = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320 }),
    displayName: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  },
  { $id: 'InvitePublicUserRequest', additionalProperties: false },
)

export const PatchPublicUserRequest = Type.Object(
  {
    displayName: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    isDisabled: Type.Optional(Nullable(Type.Boolean())),
    isOwner: Type.Optional(Nullable(Type.Boolean())),
  },
  { $id: 'PatchPublicUserRequest', additionalProperties: false },
)

export const UserParams = Type.Object({ userId: Uuid })
export const TenancyParams = Type.Object({ tenancyId: Uuid })
