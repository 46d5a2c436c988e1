import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { PASSWORD_MIN_LENGTH } from '../../platform/auth/password.js'
import { ApiError, toProblem } from '../../platform/http/errors.js'
import {
  escapeHtml,
  fieldError,
  formText,
  PAGE_HEADERS,
  page,
  parseForms,
  wantsHtml,
} from '../../platform/http/pages.js'
import type { SessionService } from './service.js'

/** How problems name the request: never the address itself, which holds the token. */
const INSTANCE = '/reset-password/{token}'

function formPage(email: string, errors: Record<string, string[]> = {}) {
  return page(
    'Choose your password',
    `<p>For <strong>${escapeHtml(email)}</strong>. Signed-in browsers are signed out once it is set.</p>` +
      `<form method="post">` +
      `<label for="password">New password (at least ${PASSWORD_MIN_LENGTH} characters)</label>` +
      `<input id="password" name="password" type="password" required minlength="${PASSWORD_MIN_LENGTH}" autocomplete="new-password">` +
      fieldError(errors, 'password') +
      `<label for="passwordConfirmation">The password again</label>` +
      `<input id="passwordConfirmation" name="passwordConfirmation" type="password" required autocomplete="new-password">` +
      fieldError(errors, 'passwordConfirmation') +
      `<button type="submit">Set the password</button></form>`,
  )
}

/** HTML for a browser, problem+json for any other client; the token is named in neither. */
function answerError(req: FastifyRequest, reply: FastifyReply, err: unknown, email?: string) {
  reply.headers(PAGE_HEADERS)
  if (err instanceof ApiError && wantsHtml(req)) {
    if (err.status === 400 && email)
      return reply.code(400).type('text/html; charset=utf-8').send(formPage(email, err.more.errors))
    if (err.code === 'invalid-link')
      return reply
        .code(err.status)
        .type('text/html; charset=utf-8')
        .send(page(err.title, `<p>${escapeHtml(err.message)}</p>`))
  }
  const { headers, ...problem } = toProblem(err, INSTANCE, String(req.id))
  if (problem.status >= 500) req.log.error({ err }, 'request failed')
  return reply
    .headers(headers ?? {})
    .code(problem.status)
    .type('application/problem+json')
    .send(problem)
}

/**
 * The page a password reset e-mail links to, outside `/api/` and without a session: `GET /reset-password/{token}`
 * shows a form, `POST` (form-encoded) sets the password, once.
 */
export function resetPages(sessions: SessionService) {
  return async (app: FastifyInstance) => {
    parseForms(app)
    app.setErrorHandler((err, req, reply) => answerError(req, reply, err))
    const route = { schema: { hide: true }, config: { requires: 'none' as const } }

    app.get<{ Params: { token: string } }>('/reset-password/:token', route, async (req, reply) => {
      try {
        const email = await sessions.resetFor(req.params.token)
        if (!wantsHtml(req)) return reply.headers(PAGE_HEADERS).send({ email })
        return reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(formPage(email))
      } catch (err) {
        return answerError(req, reply, err)
      }
    })

    app.post<{ Params: { token: string }; Body: unknown }>('/reset-password/:token', route, async (req, reply) => {
      let email: string | undefined
      try {
        email = await sessions.resetFor(req.params.token)
        if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
          throw new ApiError(415, 'unsupported-media-type', 'The form must be application/x-www-form-urlencoded.')
        const password = formText(req.body, 'password')
        if (password !== formText(req.body, 'passwordConfirmation'))
          throw ApiError.invalid({ passwordConfirmation: ['does not match the password'] })
        await sessions.completeReset(req.params.token, password)
        if (!wantsHtml(req)) return reply.headers(PAGE_HEADERS).code(204).send()
        return reply
          .headers(PAGE_HEADERS)
          .type('text/html; charset=utf-8')
          .send(page('Your password is set', '<p>Sign in to Costwatch with it. You can close this page.</p>'))
      } catch (err) {
        return answerError(req, reply, err, email)
      }
    })
  }
}
