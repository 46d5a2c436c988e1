import { Type } from 'typebox'
import type { Feature } from '../../src/features/feature.js'
import { plannedRoutes } from '../../src/platform/http/planned.js'
import { Uuid } from '../../src/platform/http/schemas.js'

/** An operation that is planned, not built: its gadgets cannot exist yet. */
const gadgetParams = Type.Object({ gadgetId: Uuid })
export const plannedFeature: Feature = {
  name: 'gadgets',
  routes: (api) =>
    api.register(
      plannedRoutes([
        {
          method: 'GET',
          url: '/gadgets/:gadgetId',
          operationId: 'ProbeGetGadget',
          summary: 'Reads a gadget.',
          requires: { itemRole: 'Viewer' },
          params: gadgetParams,
          ok: { 200: Type.Object({}) },
          problems: [401, 403, 404],
        },
        {
          method: 'PATCH',
          url: '/gadgets/:gadgetId',
          operationId: 'ProbeUpdateGadget',
          summary: 'Changes a gadget.',
          requires: { itemRole: 'Editor' },
          params: gadgetParams,
          body: Type.Object({ action: Type.String() }),
          ok: { 200: Type.Object({}) },
          problems: [401, 403, 404],
        },
      ]),
    ),
}
