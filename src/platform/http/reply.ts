import type { FastifyReply, FastifyRequest } from 'fastify'
import { type PageOf, pageLinks, type SerialisedPage } from './schemas.js'

/** Sends a page with its RFC 8288 `Link` header. */
export function replyPage<T>(req: FastifyRequest, reply: FastifyReply, page: PageOf<T>) {
  const links = pageLinks(req.url, page)
  if (links) reply.header('Link', links)
  return page
}

/**
 * Sends a page its service serialised beforehand (and may have kept), with the same headers as `replyPage`:
 * a Buffer skips Fastify's serialiser, and the onSend hook adds the others (nosniff, X-Request-Id, no-store).
 */
export function replySerialisedPage(req: FastifyRequest, reply: FastifyReply, page: SerialisedPage) {
  const links = pageLinks(req.url, page.page)
  if (links) reply.header('Link', links)
  return reply.type('application/json; charset=utf-8').send(page.body)
}
