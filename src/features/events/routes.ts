import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { bodyProblems, problemResponses, publicOperation, ref } from '../../platform/http/openapi.js'
import { pagingOf } from '../../platform/http/paging.js'
import { replyPage } from '../../platform/http/reply.js'
import { Page, TenantParams } from '../../platform/http/schemas.js'
import {
  ConditionalHeaders,
  CreateEventHeaders,
  CreatePublicEventRequest,
  EventListQuery,
  EventParams,
  EventRecord,
  PatchPublicEventRequest,
  VisibleEvents,
  VisibleEventsQuery,
} from './schemas.js'
import type { EventService } from './service.js'

const notModified = {
  304: { description: 'Not modified: the ETag in If-None-Match is current; no body.', type: 'null' },
}
const deleted = { 204: { description: 'Deleted, at once and for good.', type: 'null' } }

export const eventRoutes: FastifyPluginAsyncTypebox<{ events: EventService }> = async (app, { events }) => {
  app.get(
    '/tenants/:tenantId/events',
    {
      schema: publicOperation(
        'PublicGetTenantEvents',
        'Event markers of the tenant, newest occurredAt first (id last).',
        {
          description: '`from` and `to` are inclusive; `from` after `to` is a 400.',
          params: TenantParams,
          querystring: EventListQuery,
          response: { 200: Page(ref(EventRecord), 'EventPage'), ...problemResponses(400, 404) },
        },
      ),
      config: { requires: { tenancyRole: 'Viewer' } },
    },
    async (req, reply) => {
      const { from, to, category } = req.query
      const page = await events.list(req.params.tenantId, { from, to, category }, pagingOf(req.query))
      return replyPage(req, reply, page)
    },
  )

  app.post(
    '/tenants/:tenantId/events',
    {
      schema: publicOperation('PublicCreateTenantEvent', 'Creates an event marker. Needs Editor or above.', {
        description:
          'For CI/CD deploy markers. Send an Idempotency-Key so that a retried request never creates a second ' +
          'marker. A replayed answer carries `Idempotent-Replayed: true`.',
        params: TenantParams,
        headers: CreateEventHeaders,
        body: ref(CreatePublicEventRequest),
        response: { 201: ref(EventRecord), ...bodyProblems(), ...problemResponses(403, 404, 409, 422) },
      }),
      config: { requires: { tenancyRole: 'Editor' } },
    },
    async (req, reply) => {
      const { tenantId } = req.params
      const { event, replayed } = await events.create(
        req.principal!,
        tenantId,
        req.body,
        req.headers['idempotency-key'],
      )
      if (replayed) reply.header('Idempotent-Replayed', 'true')
      return reply.code(201).header('Location', `/api/public/v1/tenants/${tenantId}/events/${event.id}`).send(event)
    },
  )

  // Registered before `/events/:eventId`; a static segment wins in the router either way.
  app.get(
    '/tenants/:tenantId/events/visible',
    {
      schema: publicOperation(
        'GetVisibleTenantEvents',
        'The event markers on one cost chart, oldest first, at most 1,000.',
        {
          description:
            'Universal markers (no tag) are on every chart; tagged ones on broad charts (tenant, subscription), ' +
            "and on a resource or resource-group chart only when that resource's or group's own tags hold the " +
            'same key (case-insensitive) with the same value (exact). An unknown subscription, group or resource ' +
            'is a 404; a group name in several subscriptions is a 409 listing them (choose with subscriptionId). ' +
            '`from` and `to` are inclusive and default to the 30 days up to now. Every answer carries an `ETag`; ' +
            "sent back in `If-None-Match`, it gets a 304 without a body while the chart's markers are unchanged, " +
            'so an open chart can ask every few seconds at the cost of one indexed read (with explicit `from` and ' +
            '`to`: a default `to` moves with the clock, so its ETag does too).',
          params: TenantParams,
          querystring: VisibleEventsQuery,
          headers: ConditionalHeaders,
          response: { 200: VisibleEvents, ...notModified, ...problemResponses(400, 404, 409) },
        },
        'Extensions',
      ),
      config: { requires: { tenancyRole: 'Viewer' } },
    },
    async (req, reply) => {
      const ifNoneMatch = req.headers['if-none-match']
      const answer = await events.visibleIfChanged(req.principal!, req.params.tenantId, req.query, ifNoneMatch)
      reply.header('ETag', answer.etag)
      if (!answer.markers) return reply.code(304).send()
      return answer.markers
    },
  )

  app.get(
    '/tenants/:tenantId/events/:eventId',
    {
      schema: publicOperation('PublicGetTenantEvent', 'One event marker.', {
        params: EventParams,
        response: { 200: ref(EventRecord), ...problemResponses(400, 404) },
      }),
      config: { requires: { tenancyRole: 'Viewer' } },
    },
    async (req) => events.get(req.params.tenantId, req.params.eventId),
  )

  app.patch(
    '/tenants/:tenantId/events/:eventId',
    {
      schema: publicOperation('PublicUpdateTenantEvent', 'Changes an event marker. Needs Editor or above.', {
        description:
          'An Editor changes the markers it created; an Admin of the tenancy (or an owner) any marker, as for ' +
          'deletion. An absent or null field is left unchanged; `description: ""` clears the description; ' +
          '`clearTag: true` removes the tag filter (not with tagKey or tagValue). The result must keep tagKey and ' +
          'tagValue together.',
        params: EventParams,
        body: ref(PatchPublicEventRequest),
        response: { 200: ref(EventRecord), ...bodyProblems(), ...problemResponses(403, 404) },
      }),
      config: { requires: { tenancyRole: 'Editor' } },
    },
    async (req) => events.update(req.principal!, req.params.tenantId, req.params.eventId, req.body),
  )

  app.delete(
    '/tenants/:tenantId/events/:eventId',
    {
      schema: publicOperation(
        'PublicDeleteTenantEvent',
        'Deletes an event marker at once and for good. The creator or a tenancy Admin.',
        {
          description:
            'An Editor deletes the markers it created; an Admin of the tenancy (or an owner) any marker, as for ' +
            'changes. The audit log records the deletion.',
          params: EventParams,
          response: { ...deleted, ...problemResponses(400, 403, 404) },
        },
      ),
      // Editor, as for changes; whether this key created the event is known once it is read.
      config: { requires: { tenancyRole: 'Editor' } },
    },
    async (req, reply) => {
      await events.delete(
        req.principal!,
        { actor: req.principal!.actor, origin: req.ip },
        req.params.tenantId,
        req.params.eventId,
      )
      return reply.code(204).send()
    },
  )
}
