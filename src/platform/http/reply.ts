import type { FastifyReply, FastifyRequest } from 'fastify'
import { type PageOf, pageLinks, type SerialisedPage } from './paging.js'

/** Sends a page with its RFC 8288 `Link` header. */
export function replyPage<T>(req: FastifyRequest, reply: FastifyReply, page: PageOf<T>) {
  const links = pageLinks(req.url, page)
  if (links) reply.header('Link', links)
  return page
}

/** The Link headers of kept pages by request URL: the same few URLs ask for a kept page again and again. */
const linksOfPage = new WeakMap<SerialisedPage, Map<string, string | undefined>>()
const URLS_PER_PAGE = 4

function keptLinks(url: string, page: SerialisedPage): string | undefined {
  let byUrl = linksOfPage.get(page)
  if (!byUrl) {
    byUrl = new Map()
    linksOfPage.set(page, byUrl)
  }
  if (byUrl.has(url)) return byUrl.get(url)
  const links = pageLinks(url, page.page)
  if (byUrl.size < URLS_PER_PAGE) byUrl.set(url, links)
  return links
}

/**
 * Sends a page its service serialised beforehand (and may have kept), with the same headers as `replyPage`:
 * a Buffer skips Fastify's serialiser, and the onSend hook adds the others (nosniff, X-Request-Id, no-store).
 */
export function replySerialisedPage(req: FastifyRequest, reply: FastifyReply, page: SerialisedPage) {
  const links = keptLinks(req.url, page)
  if (links) reply.header('Link', links)
  return reply.type('application/json; charset=utf-8').send(page.body)
}
