import type { Feature } from '../feature.js'
import { deliveryRoutes } from './delivery-routes.js'
import type { DeliveryService } from './delivery-service.js'
import { channelRoutes } from './routes.js'
import {
  ChannelRecord,
  ChannelSecret,
  CreateChannelRequest,
  CreatedChannel,
  DeliveryRecord,
  PatchChannelRequest,
  QueuedDelivery,
} from './schemas.js'
import type { ChannelService } from './service.js'

/** Notification channels (e-mail, Slack, Teams, signed webhooks), managed by owners, and their deliveries. */
export const notifications: Feature<{ channels: ChannelService; deliveries: DeliveryService }> = {
  name: 'notifications',
  schemas: [
    ChannelRecord,
    CreatedChannel,
    CreateChannelRequest,
    PatchChannelRequest,
    ChannelSecret,
    DeliveryRecord,
    QueuedDelivery,
  ],
  routes: async (api, s) => {
    await api.register(channelRoutes, { channels: s.channels })
    await api.register(deliveryRoutes, { deliveries: s.deliveries })
  },
}
