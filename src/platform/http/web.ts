import { createHash } from 'node:crypto'
import { createReadStream, existsSync, statSync } from 'node:fs'
import { extname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, FastifyReply } from 'fastify'

/**
 * The web interface: a single-page app built by `npm run build` (Vite) into `dist/web`, served here with a small
 * route on node:fs streams (no static-file plugin is installed, and the app needs only two kinds of answer: the
 * page and its hashed assets).
 */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../../dist/web/', import.meta.url))

/**
 * Paths of the app's own pages (each section of its top bar and everything under it), answered with index.html;
 * its router takes over in the browser.
 */
export const CLIENT_ROUTES = [
  '/',
  '/sign-in',
  ...['overview', 'tenants', 'anomalies', 'insights', 'reports', 'budgets', 'settings'].flatMap((section) => [
    `/${section}`,
    `/${section}/*`,
  ]),
]

/**
 * Scripts and styles come only from here. uPlot and Preact set styles through the CSSOM (`element.style.x = ...`),
 * which style-src does not govern, so no 'unsafe-inline' is needed; the bundle has no eval.
 */
export const WEB_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
}

/**
 * The API reference at `/docs` (Scalar): its bundle from `/docs/js/scalar.js` and one inline script that starts it,
 * allowed by its hash (`docsHeaders`); no eval. Its styles are inline (a `<style>` it writes, Vue's style
 * bindings), hence 'unsafe-inline' for styles only. It reads the OpenAPI document from here, and nothing else:
 * its default fonts (from fonts.scalar.com) and its AI agent are off.
 */
function docsPolicy(inlineScriptHashes: string[]): string {
  const scripts = ["'self'", ...inlineScriptHashes.map((hash) => `'sha256-${hash}'`)].join(' ')
  return (
    `default-src 'self'; script-src ${scripts}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; ` +
    "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; " +
    "frame-ancestors 'none'"
  )
}

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g

/**
 * The headers of `/docs` and its files, the web pages' (no framing, no referrer beyond the origin) with the policy
 * above; the inline scripts of an HTML answer are hashed from the answer itself, so the policy follows the page.
 */
export function docsHeaders(payload: unknown, contentType: unknown): Record<string, string> {
  const hashes =
    typeof payload === 'string' && String(contentType).startsWith('text/html')
      ? [...payload.matchAll(INLINE_SCRIPT)].map((m) => createHash('sha256').update(m[1]!).digest('base64'))
      : []
  return { ...WEB_HEADERS, 'Content-Security-Policy': docsPolicy(hashes) }
}

/** What the reference page is told: where the document is, and to load nothing from elsewhere. */
export const DOCS_CONFIGURATION = {
  title: 'Costwatch API',
  withDefaultFonts: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  telemetry: false,
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
}

const NOT_BUILT =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Costwatch</title></head><body>' +
  '<h1>The web interface is not built</h1><p>Run <code>npm run build</code>, then start Costwatch again. ' +
  'The API is served all the same at <a href="/docs">/docs</a>.</p></body></html>'

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile()
}

export function registerWebInterface(app: FastifyInstance, webDir: string = DEFAULT_WEB_DIR) {
  const root = resolve(webDir)
  const assets = join(root, 'assets')
  const route = { schema: { hide: true }, config: { requires: 'none' as const } }

  const sendIndex = (reply: FastifyReply) => {
    const index = join(root, 'index.html')
    reply.headers({ ...WEB_HEADERS, 'Cache-Control': 'no-cache' }).type('text/html; charset=utf-8')
    if (!isFile(index)) return reply.code(404).send(NOT_BUILT)
    return reply.send(createReadStream(index))
  }
  for (const path of CLIENT_ROUTES) app.get(path, route, async (_req, reply) => sendIndex(reply))

  app.get<{ Params: { file: string } }>('/assets/:file', route, async (req, reply) => {
    const file = resolve(assets, req.params.file)
    const type = CONTENT_TYPES[extname(file)]
    // Only files directly in assets/, of a known type: no way out of the folder.
    if (!file.startsWith(assets + sep) || !type || !isFile(file)) {
      return reply.code(404).headers(WEB_HEADERS).type('text/plain; charset=utf-8').send('Not found.')
    }
    // Their names carry a hash of their content: a new build is a new name.
    return reply
      .headers({ ...WEB_HEADERS, 'Cache-Control': 'public, max-age=31536000, immutable' })
      .type(type)
      .send(createReadStream(file))
  })
}
