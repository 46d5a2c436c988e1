import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { toProblem } from './errors.js'

/**
 * The small server-rendered pages that e-mailed links open (an invitation, a password reset): no script,
 * nothing from elsewhere, the one inline style by its hash, forms that post only here, no framing. Their
 * addresses hold a token, so no Referer carries it away and nothing is cached.
 */
/** The web interface's look (its colours, top bar, card and controls), small enough to send inline. */
const STYLE =
  ':root{--text:#1b1f24;--muted:#5b6472;--line:#d8dee6;--accent:#1d4ed8;--error:#a40e26;' +
  'font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--text);background:#f5f7fa}' +
  '*{box-sizing:border-box}body{margin:0}' +
  '.topbar{display:flex;align-items:center;padding:.6rem 1.25rem;background:#0f172a}' +
  '.brand{color:#fff;font-weight:700;font-size:1.1rem;text-decoration:none}' +
  'main{max-width:72rem;margin:0 auto;padding:1rem 1.25rem 3rem}' +
  '.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:1rem 1.25rem;' +
  'max-width:26rem;margin:2rem auto;overflow-wrap:anywhere}' +
  'h1{font-size:1.5rem;margin:.5rem 0 1rem}a{color:var(--accent)}' +
  ':focus-visible{outline:3px solid #f59e0b;outline-offset:2px}' +
  'label{display:block;font-weight:600;margin:.75rem 0 .25rem}' +
  'input{min-height:2.5rem;width:100%;padding:.45rem .55rem;font:inherit;color:inherit;' +
  'border:1px solid #9aa5b4;border-radius:6px;background:#fff}' +
  'button{margin-top:1.25rem;font:inherit;padding:.45rem 1rem;border-radius:6px;' +
  'border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer}' +
  '.error{color:var(--error);margin:.25rem 0 0}' +
  '@media (max-width:480px){main{padding:.75rem .75rem 2rem}.card{padding:.75rem}.topbar{padding:.5rem .75rem}}'

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

/** A page of the product's look: the top bar, then the title and body in a card. */
export function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">` +
    `<title>${escapeHtml(title)} - Costwatch</title><style>${STYLE}</style></head>` +
    `<body><header class="topbar"><a class="brand" href="/">Costwatch</a></header>` +
    `<main><section class="card" aria-labelledby="page-title"><h1 id="page-title">${escapeHtml(title)}</h1>${body}` +
    `</section></main></body></html>`
  )
}

/** The way on after a page's job is done. */
export const SIGN_IN_LINK = '<p><a href="/sign-in">Sign in to Costwatch</a></p>'

/** The attributes that tie a field to its error message, when it has one (screen readers read it with the field). */
export function errorAttributes(errors: Record<string, string[]>, field: string): string {
  return errors[field] ? ` aria-invalid="true" aria-describedby="${field}-error"` : ''
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
