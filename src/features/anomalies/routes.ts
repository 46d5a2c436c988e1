import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Requirement, TenancyRole } from '../../platform/auth/principal.js'
import { bodyProblems, problemResponses, publicOperation, ref } from '../../platform/http/openapi.js'
import { pagingOf } from '../../platform/http/paging.js'
import { replyPage } from '../../platform/http/reply.js'
import { Page } from '../../platform/http/schemas.js'
import {
  AnomalyFeedbackCounts,
  AnomalyListQuery,
  AnomalyParams,
  AnomalyRecord,
  EventCostImpact,
  ImpactParams,
  ImpactQuery,
  PatchAnomalyRequest,
  SEVERITY_RULE,
  TenantParams,
} from './schemas.js'
import type { AnomalyService } from './service.js'

export const anomalyRoutes: FastifyPluginAsyncTypebox<{ anomalies: AnomalyService }> = async (app, { anomalies }) => {
  /** A role on the anomaly's own tenancy: an anomaly the key cannot see is a 404, like an unknown id. */
  const onAnomaly = (role: TenancyRole): Requirement => ({
    tenancyRole: role,
    item: {
      describe: (p) => `Anomaly ${p.anomalyId}`,
      tenancyOf: (p) => anomalies.tenancyOf(p.anomalyId!.toLowerCase()),
    },
  })

  app.get(
    '/anomalies',
    {
      schema: publicOperation('PublicListAnomalies', 'Cost anomalies across the tenancies the key can see.', {
        description:
          'Newest dateRaised first (id last). Filters combine: severity, status, dateRaised (the UTC day raised) ' +
          'and tenancyId (a tenancy the key cannot see gives an empty page). Extensions to the specification: ' +
          'from and to (UTC days raised, both included; from after to is a 400), and scope (with subscriptionId ' +
          'for a group): the anomalies drawn on that cost chart, its own and those of the scopes inside it; ' +
          'incidentId: the anomalies of one incident; view=incidents: only the anomalies heading an incident, one ' +
          'item per incident (incidentSize says how many anomalies it holds). ' +
          SEVERITY_RULE,
        querystring: AnomalyListQuery,
        response: { 200: Page(ref(AnomalyRecord), 'AnomalyPage'), ...problemResponses(400) },
      }),
      config: { requires: 'any' },
    },
    async (req, reply) => {
      const page = await anomalies.list(req.principal!, req.query, pagingOf(req.query))
      return replyPage(req, reply, page)
    },
  )

  app.get(
    '/anomalies/:anomalyId',
    {
      schema: publicOperation('PublicGetAnomaly', 'One anomaly, with its drivers and related event markers.', {
        params: AnomalyParams,
        response: { 200: ref(AnomalyRecord), ...problemResponses(400, 404) },
      }),
      config: { requires: onAnomaly('Viewer') },
    },
    async (req) => anomalies.get(req.params.anomalyId.toLowerCase()),
  )

  app.patch(
    '/anomalies/:anomalyId',
    {
      schema: publicOperation('PublicUpdateAnomalyStatus', 'Acknowledges or resolves an anomaly. Needs Editor.', {
        description:
          'Any status may move to Acknowledged or Resolved, and the change is recorded in statusChangedAt and ' +
          'statusChangedBy. Repeating the current status is a 200 that changes nothing. Active (or any other ' +
          'value) is a 400: only detection raises an anomaly. Later analysis runs never change a status set here. ' +
          'Extension: feedback (Expected, NotAnAnomaly, Confirmed, or null to clear), recorded in feedbackAt and ' +
          'feedbackBy and never changed by analysis. Expected (given or taken back) queues an analysis run of ' +
          "the tenancy from the episode's start: the change becomes the new level of its scope, and of the " +
          'other scopes of the incident it heads, at once. NotAnAnomaly is counted per tenancy ' +
          '(GET /tenants/{tenantId}/anomaly-feedback).',
        params: AnomalyParams,
        body: ref(PatchAnomalyRequest),
        response: { 200: ref(AnomalyRecord), ...bodyProblems(), ...problemResponses(403, 404) },
      }),
      config: { requires: onAnomaly('Editor') },
    },
    async (req) => anomalies.setStatus(req.principal!, req.params.anomalyId.toLowerCase(), req.body),
  )

  app.get(
    '/tenants/:tenantId/anomaly-feedback',
    {
      schema: publicOperation(
        'GetAnomalyFeedbackCounts',
        "How many of a tenancy's anomalies people marked Expected, NotAnAnomaly or Confirmed.",
        {
          description:
            "Counts over all the tenancy's anomalies (any day, any status), and their number: confirmed / " +
            '(confirmed + notAnAnomaly) is the precision of detection in use.',
          params: TenantParams,
          response: { 200: ref(AnomalyFeedbackCounts), ...problemResponses(400, 404) },
        },
        'Extensions',
      ),
      config: { requires: { tenancyRole: 'Viewer' } },
    },
    async (req) => anomalies.feedbackCounts(req.params.tenantId.toLowerCase()),
  )

  app.get(
    '/tenants/:tenantId/events/:eventId/impact',
    {
      schema: publicOperation(
        'GetEventCostImpact',
        "Cost before and after an event marker, on the marker's own chart scope.",
        {
          description:
            'Before: the `days` whole UTC days before the day of the marker; after: `days` days from that day on ' +
            "(default 7, 1 to 90). The scope is the marker's chart: the whole tenant for a universal marker, the " +
            'resources whose own tags match a tagged one (key case-insensitive, value exact). Every charge ' +
            'category counts, in the billing currency. `changePercent` is null when nothing was spent before. ' +
            'The anomalies are those raised on the scope in both windows (every scope of the tenant for a ' +
            'universal marker, the matching resources for a tagged one).',
          params: ImpactParams,
          querystring: ImpactQuery,
          response: { 200: ref(EventCostImpact), ...problemResponses(400, 404) },
        },
        'Extensions',
      ),
      config: { requires: { tenancyRole: 'Viewer' } },
    },
    async (req) =>
      anomalies.impact(req.params.tenantId.toLowerCase(), req.params.eventId.toLowerCase(), req.query.days ?? 7),
  )
}
