import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { PASSWORD_MIN_LENGTH } from '../../platform/auth/password.js'
import { ApiError } from '../../platform/http/errors.js'
import {
  errorAttributes,
  escapeHtml,
  fieldError,
  formText,
  PAGE_HEADERS,
  page,
  parseForms,
  SIGN_IN_LINK,
  sendPage,
  sendPageProblem,
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
      `<input id="password" name="password"${errorAttributes(errors, 'password')} type="password" required minlength="${PASSWORD_MIN_LENGTH}" autocomplete="new-password">` +
      fieldError(errors, 'password') +
      `<label for="passwordConfirmation">The password again</label>` +
      `<input id="passwordConfirmation" name="passwordConfirmation"${errorAttributes(errors, 'passwordConfirmation')} type="password" required autocomplete="new-password">` +
      fieldError(errors, 'passwordConfirmation') +
      `<button type="submit">Set the password</button></form>`,
  )
}

/** HTML for a browser, problem+json for any other client; the token is named in neither. */
function answerError(req: FastifyRequest, reply: FastifyReply, err: unknown, email?: string) {
  if (err instanceof ApiError && wantsHtml(req)) {
    if (err.status === 400 && email) return sendPage(reply, 400, formPage(email, err.more.errors))
    if (err.code === 'invalid-link')
      return sendPage(reply, err.status, page(err.title, `<p>${escapeHtml(err.message)}</p>`))
  }
  return sendPageProblem(req, reply, err, INSTANCE)
}

/**
 * The page a password reset e-mail links to, outside `/api/` and without a session: `GET /reset-password/{token}`
 * shows a form, `POST` (form-encoded) sets the password, once.
 */
export function resetPages(sessions: SessionService, limitAddress: (address: string) => void) {
  return async (app: FastifyInstance) => {
    parseForms(app)
    app.setErrorHandler((err, req, reply) => answerError(req, reply, err))
    // Anyone may open these pages: limited per client address, before the body is read or a token looked up.
    app.addHook('onRequest', async (req) => limitAddress(req.ip))
    const route = { schema: { hide: true }, config: { requires: 'none' as const } }

    app.get<{ Params: { token: string } }>('/reset-password/:token', route, async (req, reply) => {
      try {
        const email = await sessions.resetFor(req.params.token)
        if (!wantsHtml(req)) return reply.headers(PAGE_HEADERS).send({ email })
        return sendPage(reply, 200, formPage(email))
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
        await sessions.completeReset(req.params.token, password, req.ip)
        if (!wantsHtml(req)) return reply.headers(PAGE_HEADERS).code(204).send()
        return sendPage(reply, 200, page('Your password is set', `<p>Sign in to Costwatch with it.</p>${SIGN_IN_LINK}`))
      } catch (err) {
        return answerError(req, reply, err, email)
      }
    })
  }
}
