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
import type { InventoryService } from './service.js'

export const inventory: Feature<{ inventory: InventoryService }> = {
  name: 'inventory',
  schemas: [SubscriptionRecord, ResourceGroupRecord, ResourceRecord, ResourceTypeList, TagKeyRecord, TenantTags],
  routes: (api, s) => api.register(inventoryRoutes, { inventory: s.inventory }),
}
