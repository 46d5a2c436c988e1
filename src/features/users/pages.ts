import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { PASSWORD_MIN_LENGTH } from '../../platform/auth/password.js'
import { ApiError } from '../../platform/http/errors.js'
import {
  errorAttributes,
  escapeHtml,
  fieldError,
  PAGE_HEADERS,
  page,
  parseForms,
  SIGN_IN_LINK,
  sendPage,
  sendPageProblem,
  wantsHtml,
} from '../../platform/http/pages.js'
import { type AcceptInvitationForm, UserStatuses } from './schemas.js'
import { type InvitationProblem, InvitationUnusable, type UserService } from './service.js'

/** How problems name the request: never the address itself, which holds the token. */
const INSTANCE = '/invite/{token}'

function formPage(invited: { email: string; displayName: string | null }, errors: Record<string, string[]> = {}) {
  const error = (field: string) => fieldError(errors, field)
  return page(
    'Accept your invitation',
    `<p>You are joining as <strong>${escapeHtml(invited.email)}</strong>. Choose your name and a password.</p>` +
      `<form method="post">` +
      `<label for="displayName">Your name</label>` +
      `<input id="displayName" name="displayName"${errorAttributes(errors, 'displayName')} required maxlength="200" autocomplete="name" value="${escapeHtml(invited.displayName ?? '')}">` +
      error('displayName') +
      `<label for="password">Password (at least ${PASSWORD_MIN_LENGTH} characters)</label>` +
      `<input id="password" name="password"${errorAttributes(errors, 'password')} type="password" required minlength="${PASSWORD_MIN_LENGTH}" autocomplete="new-password">` +
      error('password') +
      `<label for="passwordConfirmation">The password again</label>` +
      `<input id="passwordConfirmation" name="passwordConfirmation"${errorAttributes(errors, 'passwordConfirmation')} type="password" required autocomplete="new-password">` +
      error('passwordConfirmation') +
      `<button type="submit">Accept the invitation</button></form>`,
  )
}

const UNUSABLE: Record<InvitationProblem, { status: number; title: string; text: string }> = {
  unknown: {
    status: 404,
    title: 'This invitation link is not valid',
    text: 'Check that you opened the whole link from the e-mail, or ask an owner of your organisation for a new invitation.',
  },
  expired: {
    status: 410,
    title: 'This invitation has expired',
    text: 'Invitation links work for 7 days. Ask an owner of your organisation to send you a new one.',
  },
  used: {
    status: 410,
    title: 'This invitation link no longer works',
    text: 'It was used already, or a newer invitation replaced it. If that was not you, tell an owner of your organisation.',
  },
}

function unusableError(reason: InvitationProblem): ApiError {
  const { status, title, text } = UNUSABLE[reason]
  return reason === 'unknown'
    ? ApiError.notFound('The invitation')
    : new ApiError(status, `invitation-${reason}`, title, { detail: text })
}

/** HTML for a browser, problem+json for any other client; the token is named in neither. */
function answerError(
  req: FastifyRequest,
  reply: FastifyReply,
  err: unknown,
  invited?: { email: string; displayName: string | null },
) {
  if (err instanceof InvitationUnusable) {
    const { status, title, text } = UNUSABLE[err.reason]
    if (wantsHtml(req)) return sendPage(reply, status, page(title, `<p>${escapeHtml(text)}</p>`))
    err = unusableError(err.reason)
  }
  if (err instanceof ApiError && err.status === 400 && invited && wantsHtml(req))
    return sendPage(reply, 400, formPage(invited, err.more.errors))
  return sendPageProblem(req, reply, err, INSTANCE)
}

/**
 * The acceptance step of an invitation, outside `/api/` and without a key: `GET /invite/{token}` shows a small
 * form, `POST /invite/{token}` (form-encoded) sets the name and password and makes the user Active.
 */
export function invitationPages(users: UserService, limitAddress: (address: string) => void) {
  return async (app: FastifyInstance) => {
    parseForms(app)
    // Errors here (a body too large, a bad content type) name the page, not its address.
    app.setErrorHandler((err, req, reply) => answerError(req, reply, err))
    // Anyone may open these pages: limited per client address, before the body is read or a token looked up.
    app.addHook('onRequest', async (req) => limitAddress(req.ip))

    const route = { schema: { hide: true }, config: { requires: 'none' as const } }

    app.get<{ Params: { token: string } }>('/invite/:token', route, async (req, reply) => {
      try {
        const invited = await users.invitation(req.params.token)
        if (!wantsHtml(req)) return reply.headers(PAGE_HEADERS).send({ email: invited.email, status: UserStatuses[0] })
        return sendPage(reply, 200, formPage(invited))
      } catch (err) {
        return answerError(req, reply, err)
      }
    })

    app.post<{ Params: { token: string }; Body: unknown }>('/invite/:token', route, async (req, reply) => {
      let invited: { email: string; displayName: string | null } | undefined
      try {
        invited = await users.invitation(req.params.token)
        if (
          typeof req.body !== 'object' ||
          req.body === null ||
          !req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')
        )
          throw new ApiError(415, 'unsupported-media-type', 'The form must be application/x-www-form-urlencoded.')
        const fields = req.body as Record<string, unknown>
        const text = (name: keyof AcceptInvitationForm) =>
          typeof fields[name] === 'string' ? (fields[name] as string) : ''
        // The name the user typed is shown again on a failed attempt; never a password.
        invited = { ...invited, displayName: text('displayName') }
        const user = await users.accept(req.params.token, req.ip, {
          displayName: text('displayName'),
          password: text('password'),
          passwordConfirmation: text('passwordConfirmation'),
        })
        if (!wantsHtml(req)) return reply.headers(PAGE_HEADERS).send(user)
        return sendPage(
          reply,
          200,
          page('Welcome to Costwatch', `<p>Your account ${escapeHtml(user.email)} is active.</p>${SIGN_IN_LINK}`),
        )
      } catch (err) {
        return answerError(req, reply, err, invited)
      }
    })
  }
}
