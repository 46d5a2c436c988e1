import type { Feature } from '../feature.js'
import { channelRoutes } from './routes.js'
import { ChannelRecord, ChannelSecret, CreateChannelRequest, CreatedChannel, PatchChannelRequest } from './schemas.js'
import type { ChannelService } from './service.js'

/** Notification channels (e-mail, Slack, Teams, signed webhooks), managed by owners. */
export const notifications: Feature<{ channels: ChannelService }> = {
  name: 'notifications',
  schemas: [ChannelRecord, CreatedChannel, CreateChannelRequest, PatchChannelRequest, ChannelSecret],
  routes: (api, s) => api.register(channelRoutes, { channels: s.channels }),
}
