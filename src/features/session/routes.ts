import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { type SignedInUser, sessionCookieName } from '../../platform/auth/plugin.js'
import { webOperation } from '../../platform/http/openapi.js'
import { ResetConfirmation, ResetRequest, SessionRecord, SignInRequest } from './schemas.js'
import { SESSION_LIFETIME_MS, type SessionService } from './service.js'

function recordOf(user: SignedInUser, csrfToken: string) {
  return {
    user: {
      id: user.userId,
      organisationId: user.organisationId,
      email: user.email,
      displayName: user.displayName,
      isOwner: user.isOwner,
      tenancyRoles: [...user.tenancyRoles].map(([tenancyId, role]) => ({ tenancyId, role })),
    },
    csrfToken,
    expiresAt: user.expiresAt,
  }
}

/**
 * Sign-in, the current session and sign-out, and password resets, under `/api/app` (the web interface's own API:
 * it takes the session cookie, never an API key). Not part of the public API's OpenAPI document.
 */
export const sessionRoutes: FastifyPluginAsyncTypebox<{
  sessions: SessionService
  secureCookie: boolean
  /** Counts a failed sign-in of the client address; returns what to answer (the 401, or a 429 past the limit). */
  failed(address: string, failure: unknown): unknown
  /** Counts a request that needs no key from the client address; throws the 429 past the limit. */
  limitAddress(address: string): void
}> = async (app, { sessions, secureCookie, failed, limitAddress }) => {
  // Path=/ and no Domain: what a `__Host-` name needs.
  const cookie = { httpOnly: true, sameSite: 'lax', secure: secureCookie, path: '/' } as const
  const cookieName = sessionCookieName(secureCookie)
  // Before anything else, the body included: what anyone may call is limited per client address.
  const limited = async (req: FastifyRequest) => limitAddress(req.ip)

  app.post(
    '/session',
    {
      schema: webOperation('SignIn', 'Signs in: sets the session cookie.', {
        body: SignInRequest,
        response: { 200: SessionRecord },
      }),
      config: { requires: 'none' },
      onRequest: limited,
    },
    async (req, reply) => {
      const signedIn = await sessions
        .signIn({ ...req.body, address: req.ip, userAgent: req.headers['user-agent'] ?? null })
        .catch((failure) => {
          throw failed(req.ip, failure)
        })
      reply.setCookie(cookieName, signedIn.sessionId, { ...cookie, maxAge: SESSION_LIFETIME_MS / 1000 })
      return recordOf(signedIn.user, signedIn.csrfToken)
    },
  )

  app.get(
    '/session',
    {
      schema: webOperation('GetSession', 'The signed-in session.', { response: { 200: SessionRecord } }),
      config: { requires: 'any' },
    },
    async (req) => recordOf(req.session!.user, req.session!.csrfToken),
  )

  app.delete(
    '/session',
    { schema: webOperation('SignOut', 'Signs out.', {}), config: { requires: 'any' } },
    async (req: FastifyRequest, reply: FastifyReply) => {
      await sessions.signOut(req.session!.id)
      reply.clearCookie(cookieName, cookie)
      return reply.code(204).send()
    },
  )

  app.post(
    '/password-reset',
    {
      schema: webOperation('RequestPasswordReset', 'Sends a link to set a password.', { body: ResetRequest }),
      config: { requires: 'none' },
      onRequest: limited,
    },
    async (req, reply) => {
      await sessions.requestReset(req.body.email, req.ip)
      return reply
        .code(202)
        .send({ status: 'If the address has an account, a link to set its password is on its way.' })
    },
  )

  app.post(
    '/password-reset/confirm',
    {
      schema: webOperation('ConfirmPasswordReset', 'Sets a password.', { body: ResetConfirmation }),
      config: { requires: 'none' },
      onRequest: limited,
    },
    async (req, reply) => {
      await sessions.completeReset(req.body.token, req.body.password, req.ip)
      return reply.code(204).send()
    },
  )
}
