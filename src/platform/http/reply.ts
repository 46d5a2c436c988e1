import type { FastifyReply, FastifyRequest } from 'fastify'
import { type PageOf, pageLinks } from './schemas.js'

/** Sends a page with its RFC 8288 `Link` header. */
export function replyPage<T>(req: FastifyRequest, reply: FastifyReply, page: PageOf<T>) {
  const links = pageLinks(req.url, page)
  if (links) reply.header('Link', links)
  return page
}
