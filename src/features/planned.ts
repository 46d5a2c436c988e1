import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { TSchema } from 'typebox'
import type { Requirement } from '../platform/auth/principal.js'
import { ApiError } from '../platform/http/errors.js'
import { bodyProblems, problemResponses, publicOperation, ref } from '../platform/http/openapi.js'
import { Page, PageQuery } from '../platform/http/schemas.js'
import { AnomalyListQuery, AnomalyParams, AnomalyRecord, PatchAnomalyRequest } from './anomalies/schemas.js'
import { InsightListQuery, InsightParams, InsightRecord, PatchInsightRequest } from './insights/schemas.js'
import { ReportParams, ReportRecord, ReportRunDetail, ReportRunParams, ReportRunRecord } from './reports/schemas.js'
import {
  InvitePublicUserRequest,
  PatchPublicUserRequest,
  TenancyParams,
  TenancyUserRecord,
  UserParams,
  UserRecord,
} from './users/schemas.js'

/** Records and request bodies of operations not built yet; they are named in the OpenAPI document all the same. */
export const plannedSchemas: TSchema[] = [
  AnomalyRecord,
  PatchAnomalyRequest,
  InsightRecord,
  PatchInsightRequest,
  ReportRecord,
  ReportRunRecord,
  ReportRunDetail,
  UserRecord,
  TenancyUserRecord,
  InvitePublicUserRequest,
  PatchPublicUserRequest,
]

interface Planned {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  url: string
  operationId: string
  summary: string
  requires: Requirement
  params?: TSchema
  querystring?: TSchema
  body?: TSchema
  ok: Record<number, unknown>
  problems: number[]
}

const admin: Requirement = { tenancyRole: 'Admin' }
const binary = (type: string) => ({
  200: { description: 'The file.', content: { [type]: { schema: { type: 'string', format: 'binary' } } } },
})

/**
 * Operations of the specification whose feature has not landed yet. They are in the OpenAPI document with
 * their final schemas, check the key and the permission like any route, and answer 501 problem+json.
 */
export const PLANNED: Planned[] = [
  {
    method: 'GET',
    url: '/anomalies',
    operationId: 'PublicListAnomalies',
    summary: 'Cost anomalies across the tenancies the key can see.',
    requires: 'any',
    querystring: AnomalyListQuery,
    ok: { 200: Page(ref(AnomalyRecord), 'AnomalyPage') },
    problems: [400],
  },
  {
    method: 'GET',
    url: '/anomalies/:anomalyId',
    operationId: 'PublicGetAnomaly',
    summary: 'One anomaly.',
    requires: 'any',
    params: AnomalyParams,
    ok: { 200: ref(AnomalyRecord) },
    problems: [400, 404],
  },
  {
    method: 'PATCH',
    url: '/anomalies/:anomalyId',
    operationId: 'PublicUpdateAnomalyStatus',
    summary: 'Acknowledges or resolves an anomaly.',
    requires: 'any',
    params: AnomalyParams,
    body: ref(PatchAnomalyRequest),
    ok: { 200: ref(AnomalyRecord) },
    problems: [400, 403, 404, 413, 415],
  },
  {
    method: 'GET',
    url: '/insights',
    operationId: 'PublicListInsights',
    summary: 'Cost-reduction insights across the tenancies the key can see.',
    requires: 'any',
    querystring: InsightListQuery,
    ok: { 200: Page(ref(InsightRecord), 'InsightPage') },
    problems: [400],
  },
  {
    method: 'GET',
    url: '/insights/:insightId',
    operationId: 'PublicGetInsight',
    summary: 'One insight.',
    requires: 'any',
    params: InsightParams,
    ok: { 200: ref(InsightRecord) },
    problems: [400, 404],
  },
  {
    method: 'PATCH',
    url: '/insights/:insightId',
    operationId: 'PublicUpdateInsightStatus',
    summary: 'Acts on an insight.',
    requires: 'any',
    params: InsightParams,
    body: ref(PatchInsightRequest),
    ok: { 200: ref(InsightRecord) },
    problems: [400, 403, 404, 413, 415],
  },
  {
    method: 'GET',
    url: '/reports',
    operationId: 'PublicListReports',
    summary: 'Report definitions the key can see.',
    requires: 'any',
    querystring: PageQuery,
    ok: { 200: Page(ref(ReportRecord), 'ReportPage') },
    problems: [400],
  },
  {
    method: 'GET',
    url: '/reports/:reportId',
    operationId: 'PublicGetReport',
    summary: 'One report definition.',
    requires: 'any',
    params: ReportParams,
    ok: { 200: ref(ReportRecord) },
    problems: [400, 404],
  },
  {
    method: 'GET',
    url: '/reports/:reportId/runs',
    operationId: 'PublicListReportRuns',
    summary: 'Runs of a report, newest first.',
    requires: 'any',
    params: ReportParams,
    querystring: PageQuery,
    ok: { 200: Page(ref(ReportRunRecord), 'ReportRunPage') },
    problems: [400, 404],
  },
  {
    method: 'POST',
    url: '/reports/:reportId/runs',
    operationId: 'PublicTriggerReportRun',
    summary: 'Starts a report run (202 with Location).',
    requires: 'any',
    params: ReportParams,
    ok: { 202: ref(ReportRunRecord) },
    problems: [400, 403, 404],
  },
  {
    method: 'GET',
    url: '/reports/:reportId/runs/:runId',
    operationId: 'PublicGetReportRun',
    summary: 'A run with its data.',
    requires: 'any',
    params: ReportRunParams,
    ok: { 200: ref(ReportRunDetail) },
    problems: [400, 404],
  },
  {
    method: 'GET',
    url: '/reports/:reportId/runs/:runId/csv',
    operationId: 'PublicDownloadReportRunCsv',
    summary: 'Redirects (302) to a signed CSV URL that lives 5 minutes.',
    requires: 'any',
    params: ReportRunParams,
    ok: { 302: { description: 'Redirect to the signed URL in Location.', type: 'null' } },
    problems: [400, 404, 409],
  },
  {
    method: 'GET',
    url: '/reports/:reportId/runs/:runId/pdf',
    operationId: 'PublicDownloadReportRunPdf',
    summary: 'The run as PDF.',
    requires: 'any',
    params: ReportRunParams,
    ok: binary('application/pdf'),
    problems: [400, 404, 409],
  },
  {
    method: 'GET',
    url: '/reports/:reportId/runs/:runId/xlsx',
    operationId: 'PublicDownloadReportRunXlsx',
    summary: 'The run as XLSX.',
    requires: 'any',
    params: ReportRunParams,
    ok: binary('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
    problems: [400, 404, 409],
  },
  {
    method: 'GET',
    url: '/users',
    operationId: 'PublicListUsers',
    summary: 'Users of the organisation. Needs an owner.',
    requires: 'owner',
    querystring: PageQuery,
    ok: { 200: Page(ref(UserRecord), 'UserPage') },
    problems: [400, 403],
  },
  {
    method: 'POST',
    url: '/users',
    operationId: 'PublicInviteUser',
    summary: 'Invites a user by e-mail (202). Needs an owner.',
    requires: 'owner',
    body: ref(InvitePublicUserRequest),
    ok: { 202: ref(UserRecord) },
    problems: [400, 403, 409, 413, 415],
  },
  {
    method: 'GET',
    url: '/users/:userId',
    operationId: 'PublicGetUser',
    summary: 'One user. Needs an owner.',
    requires: 'owner',
    params: UserParams,
    ok: { 200: ref(UserRecord) },
    problems: [400, 403, 404],
  },
  {
    method: 'PATCH',
    url: '/users/:userId',
    operationId: 'PublicUpdateUser',
    summary: 'Changes display name, owner status or enabled state. Needs an owner.',
    requires: 'owner',
    params: UserParams,
    body: ref(PatchPublicUserRequest),
    ok: { 200: ref(UserRecord) },
    problems: [400, 403, 404, 409, 413, 415],
  },
  {
    method: 'GET',
    url: '/tenancies/:tenancyId/users',
    operationId: 'PublicListTenancyUsers',
    summary: 'Users with a role on the tenancy. Needs an owner or the tenancy Admin.',
    requires: admin,
    params: TenancyParams,
    querystring: PageQuery,
    ok: { 200: Page(ref(TenancyUserRecord), 'TenancyUserPage') },
    problems: [400, 403, 404],
  },
]

export function plannedPlugin(planned: readonly Planned[]): FastifyPluginAsyncTypebox {
  return async (app) => {
    for (const op of planned) {
      const { params, querystring, body } = op
      app.route({
        method: op.method,
        url: op.url,
        schema: publicOperation(op.operationId, op.summary, {
          ...(params ? { params } : {}),
          ...(querystring ? { querystring } : {}),
          ...(body ? { body } : {}),
          response: { ...op.ok, ...(body ? bodyProblems() : {}), ...problemResponses(...op.problems, 501) },
        }),
        config: { requires: op.requires },
        handler: async () => {
          throw ApiError.notImplemented(op.operationId)
        },
      })
    }
  }
}

export const plannedRoutes = plannedPlugin(PLANNED)
