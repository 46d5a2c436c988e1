import { ref } from '../../platform/http/openapi.js'
import { plannedRoutes } from '../../platform/http/planned.js'
import { Page } from '../../platform/http/schemas.js'
import { AnomalyListQuery, AnomalyParams, AnomalyRecord, PatchAnomalyRequest } from './schemas.js'

/** Planned: documented with their final schemas and permissions, answering 501 until detection lands. */
export const anomalyRoutes = plannedRoutes([
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
    requires: { itemRole: 'Viewer' },
    params: AnomalyParams,
    ok: { 200: ref(AnomalyRecord) },
    problems: [400, 404],
  },
  {
    method: 'PATCH',
    url: '/anomalies/:anomalyId',
    operationId: 'PublicUpdateAnomalyStatus',
    summary: 'Acknowledges or resolves an anomaly.',
    requires: { itemRole: 'Editor' },
    params: AnomalyParams,
    body: ref(PatchAnomalyRequest),
    ok: { 200: ref(AnomalyRecord) },
    problems: [400, 403, 404, 413, 415],
  },
])
