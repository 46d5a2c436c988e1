import { ref } from '../../platform/http/openapi.js'
import { plannedRoutes } from '../../platform/http/planned.js'
import { Page } from '../../platform/http/schemas.js'
import { InsightListQuery, InsightParams, InsightRecord, PatchInsightRequest } from './schemas.js'

/** Planned: documented with their final schemas and permissions, answering 501 until insights land. */
export const insightRoutes = plannedRoutes([
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
    requires: { itemRole: 'Viewer' },
    params: InsightParams,
    ok: { 200: ref(InsightRecord) },
    problems: [400, 404],
  },
  {
    method: 'PATCH',
    url: '/insights/:insightId',
    operationId: 'PublicUpdateInsightStatus',
    summary: 'Acts on an insight.',
    requires: { itemRole: 'Editor' },
    params: InsightParams,
    body: ref(PatchInsightRequest),
    ok: { 200: ref(InsightRecord) },
    problems: [400, 403, 404, 413, 415],
  },
])
