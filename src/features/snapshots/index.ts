import type { Feature } from '../feature.js'
import { snapshotRoutes } from './routes.js'
import { SnapshotRun } from './schemas.js'

export const snapshots: Feature = {
  name: 'snapshots',
  schemas: [SnapshotRun],
  routes: (api, s) => api.register(snapshotRoutes, { snapshots: s.snapshots }),
}
