import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import type { Acting } from '../../platform/audit.js'
import type { ItemCoverage } from '../../platform/auth/principal.js'
import { bodyProblems, problemResponses, publicOperation, ref } from '../../platform/http/openapi.js'
import { pagingOf } from '../../platform/http/paging.js'
import { replyPage } from '../../platform/http/reply.js'
import { Page, PageQuery } from '../../platform/http/schemas.js'
import { BudgetParams, BudgetRecord, CreateBudgetRequest, PatchBudgetRequest } from './schemas.js'
import type { BudgetService } from './service.js'

const API = '/api/public/v1'

const WHO =
  'Owners manage every budget; the Admins of tenancies manage the budgets whose scope.tenancyIds are all tenancies ' +
  'they administer (and their Viewers read them). A budget of the whole organisation (tenancyIds null) is for owners.'

const STATUS =
  'Each budget carries `status`, its current period as of today: the spend so far, the forecast at the period end ' +
  'with its 80% interval, the percent of the amount, the day the forecast crosses it, and each threshold Ok or ' +
  'Alarm since a day (a threshold alarms once a period).'

/** Budgets cover tenancies, as alert rules do: seen by those who see every tenancy, changed by their Admins. */
export const budgetRoutes: FastifyPluginAsyncTypebox<{ budgets: BudgetService }> = async (app, { budgets }) => {
  const budget: ItemCoverage = {
    describe: (params) => `Budget ${params.budgetId}`,
    coverageOf: (params) => budgets.coverage(params.budgetId!),
  }
  const by = (req: FastifyRequest): Acting => ({ actor: req.principal!.actor, origin: req.ip })

  app.get(
    '/budgets',
    {
      schema: publicOperation(
        'ListBudgets',
        'Budgets the key can see, by name (id last), each with its status.',
        {
          description: `A budget is listed when the key can see every tenancy it covers. ${WHO} ${STATUS}`,
          querystring: PageQuery,
          response: { 200: Page(ref(BudgetRecord), 'BudgetPage'), ...problemResponses(400) },
        },
        'Extensions',
      ),
      config: { requires: 'any' },
    },
    async (req, reply) => replyPage(req, reply, await budgets.list(req.principal!, pagingOf(req.query))),
  )

  app.post(
    '/budgets',
    {
      schema: publicOperation(
        'CreateBudget',
        'Creates a budget: an amount per period for a scope, with thresholds that alert.',
        {
          description:
            `${WHO} Defaults: startDate the first day of the current month (Custom: its first period's), ` +
            'costBasis Effective, no thresholds. Refused with 400, nothing saved: a tenancy not of the ' +
            'organisation, `amount` with period Custom or `periods` without it, Custom periods that overlap or ' +
            `end before they start, more than 10 thresholds. ${STATUS}`,
          body: ref(CreateBudgetRequest),
          response: { 201: ref(BudgetRecord), ...bodyProblems(), ...problemResponses(403) },
        },
        'Extensions',
      ),
      config: { requires: 'any' },
    },
    async (req, reply) => {
      const created = await budgets.create(req.principal!, by(req), req.body)
      return reply.code(201).header('Location', `${API}/budgets/${created.id}`).send(created)
    },
  )

  app.get(
    '/budgets/:budgetId',
    {
      schema: publicOperation(
        'GetBudget',
        'One budget, with its status.',
        {
          description: STATUS,
          params: BudgetParams,
          response: { 200: ref(BudgetRecord), ...problemResponses(400, 404) },
        },
        'Extensions',
      ),
      config: { requires: { tenancyRole: 'Viewer', items: budget } },
    },
    async (req) => budgets.get(req.principal!, req.params.budgetId),
  )

  app.patch(
    '/budgets/:budgetId',
    {
      schema: publicOperation(
        'UpdateBudget',
        'Changes a budget.',
        {
          description:
            `Absent fields are unchanged; the budget as changed is checked as at creation. A change of period to ` +
            '`Custom` drops the amount, and from it the periods, unless the request names them. A change of what the ' +
            `thresholds measure (period, amount, periods, startDate, scope, currency, costBasis, thresholds) ` +
            `restarts their latches: each may alarm again this period. ${WHO}`,
          params: BudgetParams,
          body: ref(PatchBudgetRequest),
          response: { 200: ref(BudgetRecord), ...bodyProblems(), ...problemResponses(403, 404) },
        },
        'Extensions',
      ),
      config: { requires: { tenancyRole: 'Admin', items: budget } },
    },
    async (req) => budgets.update(req.principal!, by(req), req.params.budgetId, req.body),
  )

  app.delete(
    '/budgets/:budgetId',
    {
      schema: publicOperation(
        'DeleteBudget',
        'Deletes a budget.',
        {
          params: BudgetParams,
          response: { 204: { description: 'Deleted.', type: 'null' }, ...problemResponses(400, 403, 404) },
        },
        'Extensions',
      ),
      config: { requires: { tenancyRole: 'Admin', items: budget } },
    },
    async (req, reply) => {
      await budgets.delete(req.principal!, by(req), req.params.budgetId)
      return reply.code(204).send()
    },
  )
}
