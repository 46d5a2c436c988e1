import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { ItemCoverage } from '../../platform/auth/principal.js'
import { bodyProblems, problemResponses, publicOperation, ref } from '../../platform/http/openapi.js'
import { pagingOf } from '../../platform/http/paging.js'
import { replyPage } from '../../platform/http/reply.js'
import { Page, PageQuery } from '../../platform/http/schemas.js'
import {
  CreateRuleRequest,
  PatchRuleRequest,
  PreviewRuleRequest,
  RuleParams,
  RulePreview,
  RuleRecord,
} from './schemas.js'
import type { AlertService } from './service.js'

const API = '/api/public/v1'

const WHO =
  'Owners manage every rule; the Admins of tenancies manage the rules whose scope.tenancyIds are all tenancies ' +
  'they administer (and their Viewers read them). A rule of the whole organisation (tenancyIds null) is for owners.'

/**
 * Alert rules cover tenancies, as reports do: a key sees a rule when it sees every tenancy the rule covers (an
 * organisation-wide one: owners only), and changes it with Admin on each of them.
 */
export const alertRoutes: FastifyPluginAsyncTypebox<{ alerts: AlertService }> = async (app, { alerts }) => {
  const rule: ItemCoverage = {
    describe: (params) => `Notification rule ${params.ruleId}`,
    coverageOf: (params) => alerts.coverage(params.ruleId!),
  }

  app.get(
    '/notification-rules',
    {
      schema: publicOperation(
        'ListNotificationRules',
        'Alert rules the key can see, by name (id last).',
        {
          description: `A rule is listed when the key can see every tenancy it covers. ${WHO}`,
          querystring: PageQuery,
          response: { 200: Page(ref(RuleRecord), 'AlertRulePage'), ...problemResponses(400) },
        },
        'Extensions',
      ),
      config: { requires: 'any' },
    },
    async (req, reply) => replyPage(req, reply, await alerts.list(req.principal!, pagingOf(req.query))),
  )

  app.post(
    '/notification-rules',
    {
      schema: publicOperation(
        'CreateNotificationRule',
        'Creates an alert rule: which events go to which channels.',
        {
          description:
            `${WHO} Defaults: enabled, frequency Immediate (a Digest trigger: Daily), digestHour 8, digestWeekday ` +
            'Monday, timeZone UTC, combine any. Refused with 400, nothing saved: a channel or tenancy not of the ' +
            "organisation, a trigger field of another trigger type, a time zone that is not IANA's, digest fields " +
            'with frequency Immediate, a Digest trigger with frequency Immediate.',
          body: ref(CreateRuleRequest),
          response: { 201: ref(RuleRecord), ...bodyProblems(), ...problemResponses(403) },
        },
        'Extensions',
      ),
      config: { requires: 'any' },
    },
    async (req, reply) => {
      const created = await alerts.create(req.principal!, { actor: req.principal!.actor, origin: req.ip }, req.body)
      return reply.code(201).header('Location', `${API}/notification-rules/${created.id}`).send(created)
    },
  )

  app.post(
    '/notification-rules/preview',
    {
      schema: publicOperation(
        'PreviewNotificationRule',
        "Which of the last 30 days' anomalies a rule would have alerted about; nothing is saved.",
        {
          description:
            'The body is a rule as it would be created (name and channels may be missing). The anomalies raised in ' +
            'the last 30 days, of the tenancies the key sees, are matched as the alert run matches them: scope, ' +
            'thresholds, one alert per incident. Whether each was already sent is not considered.',
          body: ref(PreviewRuleRequest),
          response: { 200: ref(RulePreview), ...bodyProblems() },
        },
        'Extensions',
      ),
      config: { requires: 'any' },
    },
    async (req) => alerts.preview(req.principal!, req.body),
  )

  app.get(
    '/notification-rules/:ruleId',
    {
      schema: publicOperation(
        'GetNotificationRule',
        'One alert rule.',
        { params: RuleParams, response: { 200: ref(RuleRecord), ...problemResponses(400, 404) } },
        'Extensions',
      ),
      config: { requires: { tenancyRole: 'Viewer', items: rule } },
    },
    async (req) => alerts.get(req.principal!, req.params.ruleId),
  )

  app.patch(
    '/notification-rules/:ruleId',
    {
      schema: publicOperation(
        'UpdateNotificationRule',
        'Changes an alert rule.',
        {
          description: `Absent fields are unchanged; the rule as changed is checked as at creation. ${WHO}`,
          params: RuleParams,
          body: ref(PatchRuleRequest),
          response: { 200: ref(RuleRecord), ...bodyProblems(), ...problemResponses(403, 404) },
        },
        'Extensions',
      ),
      config: { requires: { tenancyRole: 'Admin', items: rule } },
    },
    async (req) =>
      alerts.update(req.principal!, { actor: req.principal!.actor, origin: req.ip }, req.params.ruleId, req.body),
  )

  app.delete(
    '/notification-rules/:ruleId',
    {
      schema: publicOperation(
        'DeleteNotificationRule',
        'Deletes an alert rule.',
        {
          params: RuleParams,
          response: {
            204: { description: 'Deleted, with what it sent.', type: 'null' },
            ...problemResponses(400, 403, 404),
          },
        },
        'Extensions',
      ),
      config: { requires: { tenancyRole: 'Admin', items: rule } },
    },
    async (req, reply) => {
      await alerts.delete(req.principal!, { actor: req.principal!.actor, origin: req.ip }, req.params.ruleId)
      return reply.code(204).send()
    },
  )
}
