import { type Static, Type } from 'typebox'
import { TENANCY_ROLES } from '../../platform/auth/principal.js'
import { Instant, Nullable, StringEnum, Uuid } from '../../platform/http/schemas.js'

export const UserStatuses = ['Invited', 'Active', 'Disabled'] as const
export type UserStatus = (typeof UserStatuses)[number]

export const UserRecord = Type.Object(
  {
    id: Uuid,
    email: Type.String({ format: 'email', description: 'Unique in the organisation, compared case-insensitively.' }),
    displayName: Nullable(Type.String({ maxLength: 200 })),
    isOwner: Type.Boolean({
      description: 'An organisation owner: Admin of every tenancy, and manages users and keys.',
    }),
    isDisabled: Type.Boolean(),
    status: StringEnum(UserStatuses, {
      description: 'Invited until the invitation is accepted, then Active; Disabled while isDisabled.',
    }),
    invitedAt: Nullable(Instant),
    createdAt: Instant,
    lastSeenAt: Nullable(Instant),
  },
  {
    $id: 'User',
    examples: [
      {
        id: '019a8f2e-5c1d-7b3a-9e42-6f1d2c3b4a50',
        email: 'jane.doe@example.com',
        displayName: null,
        isOwner: false,
        isDisabled: false,
        status: 'Invited',
        invitedAt: '2026-03-01T09:00:00.000Z',
        createdAt: '2026-03-01T09:00:00.000Z',
        lastSeenAt: null,
      },
    ],
  },
)
export type UserRecord = Static<typeof UserRecord>

export const TenancyUserRecord = Type.Object(
  {
    userId: Uuid,
    email: Type.String({ format: 'email' }),
    displayName: Nullable(Type.String()),
    role: StringEnum(TENANCY_ROLES, { description: "The user's role on the tenancy; an owner is Admin of every one." }),
    isOwner: Type.Boolean(),
  },
  {
    $id: 'TenancyUser',
    examples: [
      {
        userId: '019a8f2e-5c1d-7b3a-9e42-6f1d2c3b4a50',
        email: 'jane.doe@example.com',
        displayName: 'Jane Doe',
        role: 'Editor',
        isOwner: false,
      },
    ],
  },
)
export type TenancyUserRecord = Static<typeof TenancyUserRecord>

export const InvitePublicUserRequest = Type.Object(
  {
    email: Type.String({
      format: 'email',
      maxLength: 254,
      description: "RFC 5321's limits: at most 254 characters, and at most 64 before the @.",
    }),
    displayName: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  },
  {
    $id: 'InvitePublicUserRequest',
    additionalProperties: false,
    examples: [{ email: 'jane.doe@example.com', displayName: 'Jane Doe' }],
  },
)
export type InvitePublicUserRequest = Static<typeof InvitePublicUserRequest>

export const PatchPublicUserRequest = Type.Object(
  {
    displayName: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    isDisabled: Type.Optional(Nullable(Type.Boolean())),
    isOwner: Type.Optional(Nullable(Type.Boolean())),
  },
  {
    $id: 'PatchPublicUserRequest',
    additionalProperties: false,
    description: 'An absent or null field is left unchanged.',
    examples: [{ isOwner: true }, { isDisabled: true }, { displayName: 'Jane Doe' }],
  },
)
export type PatchPublicUserRequest = Static<typeof PatchPublicUserRequest>

export const GrantTenancyRoleRequest = Type.Object(
  { role: StringEnum(TENANCY_ROLES) },
  { $id: 'GrantTenancyRoleRequest', additionalProperties: false, examples: [{ role: 'Editor' }] },
)
export type GrantTenancyRoleRequest = Static<typeof GrantTenancyRoleRequest>

/** One role a member holds on a tenancy (the web interface's list of every role of the organisation). */
export const MemberRole = Type.Object(
  { userId: Uuid, tenancyId: Uuid, role: StringEnum(TENANCY_ROLES) },
  { additionalProperties: false },
)
export type MemberRole = Static<typeof MemberRole>

export const UserParams = Type.Object({ userId: Uuid }, { additionalProperties: false })
export const TenancyParams = Type.Object({ tenancyId: Uuid }, { additionalProperties: false })
export const TenancyUserParams = Type.Object({ tenancyId: Uuid, userId: Uuid }, { additionalProperties: false })

/** The acceptance form (application/x-www-form-urlencoded). */
export interface AcceptInvitationForm {
  displayName: string
  password: string
  passwordConfirmation: string
}
