import type { Feature } from '../feature.js'
import { deliveryRoutes } from './delivery-routes.js'
import type { DeliveryService } from './delivery-service.js'
import { DeliveryRecord, QueuedDelivery } from './schemas.js'

export const notifications: Feature<{ deliveries: DeliveryService }> = {
  name: 'notifications',
  schemas: [DeliveryRecord, QueuedDelivery],
  routes: async (api, s) => {
    await api.register(deliveryRoutes, { deliveries: s.deliveries })
  },
}
