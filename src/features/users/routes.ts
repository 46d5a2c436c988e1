import { ref } from '../../platform/http/openapi.js'
import { plannedRoutes } from '../../platform/http/planned.js'
import { Page, PageQuery } from '../../platform/http/schemas.js'
import {
  InvitePublicUserRequest,
  PatchPublicUserRequest,
  TenancyParams,
  TenancyUserRecord,
  UserParams,
  UserRecord,
} from './schemas.js'

/** Planned: documented with their final schemas and permissions, answering 501 until user management lands. */
export const userRoutes = plannedRoutes([
  {
    method: 'GET',
    url: '/users',
    operationId: 'PublicListUsers',
    summary: 'Users of the organisation. Needs an owner.',
    requires: 'owner',
    querystring: PageQuery,
    ok: { 200: Page(ref(UserRecord), 'UserPage') },
    problems: [400, 403],
  },
  {
    method: 'POST',
    url: '/users',
    operationId: 'PublicInviteUser',
    summary: 'Invites a user by e-mail (202). Needs an owner.',
    requires: 'owner',
    body: ref(InvitePublicUserRequest),
    ok: { 202: ref(UserRecord) },
    problems: [400, 403, 409, 413, 415],
  },
  {
    method: 'GET',
    url: '/users/:userId',
    operationId: 'PublicGetUser',
    summary: 'One user. Needs an owner.',
    requires: 'owner',
    params: UserParams,
    ok: { 200: ref(UserRecord) },
    problems: [400, 403, 404],
  },
  {
    method: 'PATCH',
    url: '/users/:userId',
    operationId: 'PublicUpdateUser',
    summary: 'Changes display name, owner status or enabled state. Needs an owner.',
    requires: 'owner',
    params: UserParams,
    body: ref(PatchPublicUserRequest),
    ok: { 200: ref(UserRecord) },
    problems: [400, 403, 404, 409, 413, 415],
  },
  {
    method: 'GET',
    url: '/tenancies/:tenancyId/users',
    operationId: 'PublicListTenancyUsers',
    summary: 'Users with a role on the tenancy. Needs an owner or the tenancy Admin.',
    requires: { tenancyRole: 'Admin' },
    params: TenancyParams,
    querystring: PageQuery,
    ok: { 200: Page(ref(TenancyUserRecord), 'TenancyUserPage') },
    problems: [400, 403, 404],
  },
])
