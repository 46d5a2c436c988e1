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

/** Paths of the app's own pages, answered with index.html; its router takes over in the browser. */
export const CLIENT_ROUTES = ['/', '/sign-in', '/tenants', '/tenants/*', '/settings/*'] as const

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
