import type { Feature } from '../feature.js'
import { inventoryRoutes } from './routes.js'
import {
  ResourceGroupRecord,
  ResourceRecord,
  ResourceTypeList,
  SubscriptionRecord,
  TagKeyRecord,
  TenantTags,
} from './schemas.js'

export const inventory: Feature = {
  name: 'inventory',
  schemas: [SubscriptionRecord, ResourceGroupRecord, ResourceRecord, ResourceTypeList, TagKeyRecord, TenantTags],
  routes: (api, s) => api.register(inventoryRoutes, { inventory: s.inventory }),
}
