import type { Feature } from '../feature.js'
import { snapshotRoutes } from './routes.js'
import { SnapshotRun } from './schemas.js'
import type { SnapshotService } from './service.js'
import type { UploadService } from './upload.js'

export const snapshots: Feature<{ snapshots: SnapshotService; uploads: UploadService }> = {
  name: 'snapshots',
  schemas: [SnapshotRun],
  routes: (api, s) => api.register(snapshotRoutes, { snapshots: s.snapshots, uploads: s.uploads }),
}
