import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { TSchema } from 'typebox'
import type { Requirement, TenancyRole } from '../auth/principal.js'
import { ApiError } from './errors.js'
import { bodyProblems, problemResponses, publicOperation } from './openapi.js'

/**
 * An operation of the specification whose feature has not landed yet: in the OpenAPI document with its final
 * schemas, it checks the key and the permission it will need like any route, and answers 501 problem+json.
 */
export interface PlannedOperation {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  url: string
  operationId: string
  summary: string
  /** The route's requirement; `{ itemRole }` for a route naming an item (`/anomalies/:anomalyId`) without a tenancy. */
  requires: Requirement | { itemRole: TenancyRole }
  params?: TSchema
  querystring?: TSchema
  body?: TSchema
  ok: Record<number, unknown>
  problems: number[]
}

/**
 * The item check of an item that cannot exist yet: a key holding the role on no tenancy gets its 403 first (see
 * `authoriseSomewhere`); any other gets the 501, as there is no item whose tenancy could be checked.
 */
function notBuiltYet(operationId: string, role: TenancyRole): Requirement {
  return {
    tenancyRole: role,
    item: {
      planned: true,
      describe: () => operationId,
      tenancyOf: async () => {
        throw ApiError.notImplemented(operationId)
      },
    },
  }
}

/** The routes of planned operations, each answering 501 once its permission is checked. */
export function plannedRoutes(planned: readonly PlannedOperation[]): FastifyPluginAsyncTypebox {
  return async (app) => {
    for (const op of planned) {
      const { params, querystring, body, requires } = op
      app.route({
        method: op.method,
        url: op.url,
        schema: publicOperation(op.operationId, op.summary, {
          ...(params ? { params } : {}),
          ...(querystring ? { querystring } : {}),
          ...(body ? { body } : {}),
          response: { ...op.ok, ...(body ? bodyProblems() : {}), ...problemResponses(...op.problems, 501) },
        }),
        config: {
          requires:
            typeof requires === 'object' && 'itemRole' in requires
              ? notBuiltYet(op.operationId, requires.itemRole)
              : requires,
        },
        handler: async () => {
          throw ApiError.notImplemented(op.operationId)
        },
      })
    }
  }
}
