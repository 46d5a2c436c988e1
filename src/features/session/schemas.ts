import { Type } from 'typebox'
import { TENANCY_ROLES } from '../../platform/auth/principal.js'
import { StringEnum } from '../../platform/http/schemas.js'

export const SignInRequest = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
)

export const ResetRequest = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254 }) },
  { additionalProperties: false },
)

export const ResetConfirmation = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 128 }), password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false },
)

/** The signed-in user, as the web interface shows them; `csrfToken` goes back in X-CSRF-Token on every change. */
export const SessionRecord = Type.Object({
  user: Type.Object({
    id: Type.String(),
    organisationId: Type.String(),
    email: Type.String(),
    displayName: Type.Union([Type.String(), Type.Null()]),
    isOwner: Type.Boolean(),
    tenancyRoles: Type.Array(Type.Object({ tenancyId: Type.String(), role: StringEnum(TENANCY_ROLES) })),
  }),
  csrfToken: Type.String(),
  expiresAt: Type.String(),
})
