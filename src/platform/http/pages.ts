import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { toProblem } from './errors.js'

/**
 * The small server-rendered pages that e-mailed links open (an invitation, a password reset): no script,
 * nothing from elsewhere, the one inline style by its hash, forms that post only here, no framing. Their
 * addresses hold a token, so no Referer carries it away and nothing is cached.
 */
const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}' +
  'label{display:block;margin-top:1rem}input{width:100%;padding:.4rem;font:inherit;box-sizing:border-box}' +
  'button{margin-top:1.5rem;padding:.5rem 1rem;font:inherit}.error{color:#a40e26}'

export const PAGE_HEADERS = {
  'Content-Security-Policy':
    `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; ` +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

export function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">` +
    `<title>${escapeHtml(title)} - Costwatch</title><style>${STYLE}</style></head>` +
    `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`
  )
}

/** A field's error message under it, when there is one. */
export function fieldError(errors: Record<string, string[]>, field: string): string {
  return errors[field] ? `<p class="error" id="${field}-error">${escapeHtml(errors[field].join('; '))}</p>` : ''
}

export const wantsHtml = (req: FastifyRequest) => (req.headers.accept ?? '').includes('text/html')

/** Form posts of these pages (application/x-www-form-urlencoded), as an object of strings. */
export function parseForms(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  )
}

/** A text field of a parsed form ('' when absent). */
export function formText(body: unknown, name: string): string {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined
  return typeof value === 'string' ? value : ''
}

/** Answers an HTML page with the pages' headers. */
export function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply.headers(PAGE_HEADERS).code(status).type('text/html; charset=utf-8').send(html)
}

/**
 * A page's error as problem+json, for a client that does not ask for HTML. `instance` names the page (e.g.
 * `/invite/{token}`), never its address, which holds the token.
 */
export function sendPageProblem(req: FastifyRequest, reply: FastifyReply, err: unknown, instance: string) {
  const { headers, ...problem } = toProblem(err, instance, String(req.id))
  if (problem.status >= 500) req.log.error({ err }, 'request failed')
  return reply
    .headers({ ...PAGE_HEADERS, ...(headers ?? {}) })
    .code(problem.status)
    .type('application/problem+json')
    .send(problem)
}
