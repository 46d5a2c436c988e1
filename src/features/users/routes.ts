import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { Acting } from '../../platform/audit.js'
import { bodyProblems, problemResponses, publicOperation, ref, webOperation } from '../../platform/http/openapi.js'
import { pagingOf } from '../../platform/http/paging.js'
import { replyPage } from '../../platform/http/reply.js'
import { Page, PageQuery } from '../../platform/http/schemas.js'
import {
  GrantTenancyRoleRequest,
  InvitePublicUserRequest,
  MemberRole,
  PatchPublicUserRequest,
  TenancyParams,
  TenancyUserParams,
  TenancyUserRecord,
  UserParams,
  UserRecord,
} from './schemas.js'
import type { UserService } from './service.js'

/** Who acts (the key) and from where (the client address), for the audit log. */
const acting = (req: FastifyRequest): Acting => ({ actor: req.principal!.actor, origin: req.ip })
const userUrl = (id: string) => `/api/public/v1/users/${id}`

export const userRoutes: FastifyPluginAsyncTypebox<{ users: UserService }> = async (app, { users }) => {
  app.get(
    '/users',
    {
      schema: publicOperation(
        'PublicListUsers',
        'Users of the organisation, by e-mail address (id last). Needs an owner.',
        {
          querystring: PageQuery,
          response: { 200: Page(ref(UserRecord), 'UserPage'), ...problemResponses(400, 403) },
        },
      ),
      config: { requires: 'owner' },
    },
    async (req, reply) => replyPage(req, reply, await users.list(req.principal!, pagingOf(req.query))),
  )

  app.post(
    '/users',
    {
      schema: publicOperation('PublicInviteUser', 'Invites a user by e-mail (202). Needs an owner.', {
        description:
          'Creates the user as Invited and sends an e-mail with a single-use link that works for 7 days ' +
          '(`/invite/{token}` on COSTWATCH_PUBLIC_URL), where the user chooses a name and a password. The e-mail ' +
          'goes through an outbox: an SMTP outage delays it and never fails this request. The address is ' +
          'compared case-insensitively: an address that is already a member is a 409.',
        body: ref(InvitePublicUserRequest),
        response: {
          202: { ...ref(UserRecord), description: 'Invited; the e-mail is on its way.' },
          ...bodyProblems(),
          ...problemResponses(403, 409),
        },
      }),
      config: { requires: 'owner' },
    },
    async (req, reply) => {
      const user = await users.invite(req.principal!, acting(req), req.body)
      return reply.code(202).header('Location', userUrl(user.id)).send(user)
    },
  )

  app.get(
    '/users/:userId',
    {
      schema: publicOperation('PublicGetUser', 'One user. Needs an owner.', {
        params: UserParams,
        response: { 200: ref(UserRecord), ...problemResponses(400, 403, 404) },
      }),
      config: { requires: 'owner' },
    },
    async (req) => users.get(req.principal!, req.params.userId),
  )

  app.patch(
    '/users/:userId',
    {
      schema: publicOperation(
        'PublicUpdateUser',
        'Changes display name, owner status or enabled state. Needs an owner.',
        {
          description:
            'An absent or null field is left unchanged. The last active owner can be neither demoted nor ' +
            'disabled (409); concurrent requests are serialised, so two of them never remove the last two owners.',
          params: UserParams,
          body: ref(PatchPublicUserRequest),
          response: { 200: ref(UserRecord), ...bodyProblems(), ...problemResponses(403, 404, 409) },
        },
      ),
      config: { requires: 'owner' },
    },
    async (req) => users.update(req.principal!, acting(req), req.params.userId, req.body),
  )

  app.post(
    '/users/:userId/invitation',
    {
      schema: publicOperation(
        'ResendUserInvitation',
        'Sends an invited user a new invitation link (202). Needs an owner.',
        {
          description: 'The link sent before stops working. A user who already accepted (or is disabled) is a 409.',
          params: UserParams,
          response: {
            202: { ...ref(UserRecord), description: 'A new e-mail is on its way.' },
            ...problemResponses(400, 403, 404, 409),
          },
        },
        'Extensions',
      ),
      config: { requires: 'owner' },
    },
    async (req, reply) => {
      const user = await users.resendInvitation(req.principal!, acting(req), req.params.userId)
      return reply.code(202).header('Location', userUrl(user.id)).send(user)
    },
  )

  app.get(
    '/tenancies/:tenancyId/users',
    {
      schema: publicOperation(
        'PublicListTenancyUsers',
        'Users with a role on the tenancy, owners included (Admin), by e-mail address. Needs an owner or the tenancy Admin.',
        {
          params: TenancyParams,
          querystring: PageQuery,
          response: { 200: Page(ref(TenancyUserRecord), 'TenancyUserPage'), ...problemResponses(400, 403, 404) },
        },
      ),
      config: { requires: { tenancyRole: 'Admin' } },
    },
    async (req, reply) =>
      replyPage(req, reply, await users.listOfTenancy(req.principal!, req.params.tenancyId, pagingOf(req.query))),
  )

  app.put(
    '/tenancies/:tenancyId/users/:userId',
    {
      schema: publicOperation(
        'GrantTenancyRole',
        "Gives a user a role on the tenancy, or changes it. Needs an owner or the tenancy's Admin.",
        {
          description: 'Repeating the role held is a 200 with no change. A user of another organisation is a 404.',
          params: TenancyUserParams,
          body: ref(GrantTenancyRoleRequest),
          response: { 200: ref(TenancyUserRecord), ...bodyProblems(), ...problemResponses(403, 404) },
        },
        'Extensions',
      ),
      config: { requires: { tenancyRole: 'Admin' } },
    },
    async (req) => users.grantRole(acting(req), req.params.tenancyId, req.params.userId, req.body.role),
  )

  app.delete(
    '/tenancies/:tenancyId/users/:userId',
    {
      schema: publicOperation(
        'RevokeTenancyRole',
        "Removes a user's role on the tenancy. Needs an owner or the tenancy's Admin.",
        {
          description:
            'A user who holds no role there is a 204 all the same (nothing to remove). An owner stays Admin of ' +
            'every tenancy whatever roles are stored.',
          params: TenancyUserParams,
          response: {
            204: { description: 'The role is removed.', type: 'null' },
            ...problemResponses(400, 403, 404),
          },
        },
        'Extensions',
      ),
      config: { requires: { tenancyRole: 'Admin' } },
    },
    async (req, reply) => {
      await users.revokeRole(acting(req), req.params.tenancyId, req.params.userId)
      return reply.code(204).send()
    },
  )
}

/**
 * The web interface's users page (`/api/app/roles`, owners): every tenancy role held in the organisation, in one
 * answer, where the public API has one list per tenancy (a page would otherwise ask once per tenancy, and an
 * organisation of a few hundred tenancies would spend its rate limit on one visit).
 */
export const userSettingsRoutes: FastifyPluginAsyncTypebox<{ users: UserService }> = async (app, { users }) => {
  app.get(
    '/roles',
    {
      schema: webOperation('ListMemberRoles', 'Every tenancy role held in the organisation.', {
        response: { 200: Type.Object({ items: Type.Array(MemberRole) }) },
      }),
      config: { requires: 'owner' },
    },
    async (req) => ({ items: await users.rolesInOrganisation(req.principal!) }),
  )
}
