import { api, type SessionUser } from '../../../api'
import { useLoad } from '../../../components/use-load'
import { settingsApi, type User } from '../api'
import { SettingsFrame } from '../frame'
import { notificationsApi } from './api'
import { ChannelsSection } from './channels'
import { RulesSection } from './rules'
import './notifications.css'

/**
 * Settings → Notifications: the organisation's channels (owners only: add, test, delivery log, rotate the secret)
 * and the rules the user may see, with a live preview of what a rule would have alerted on.
 */
export function NotificationsPage({ user }: { user: SessionUser }) {
  // Owners manage channels; a tenancy's Admins list them to choose for their rules (the API refuses anyone else).
  const picksChannels = user.isOwner || user.tenancyRoles.some((r) => r.role === 'Admin')
  const channels = useLoad(() => (picksChannels ? notificationsApi.channels() : Promise.resolve(null)), [picksChannels])
  const rules = useLoad(() => notificationsApi.rules(), [])
  const tenants = useLoad(() => api.allTenants(), [])
  // Owners pick users of the organisation for e-mail channels; others see no channels to manage.
  const users = useLoad(() => (user.isOwner ? settingsApi.users() : Promise.resolve([] as User[])), [user.isOwner])

  return (
    <SettingsFrame title="Notifications" isOwner={user.isOwner}>
      {user.isOwner && (
        <ChannelsSection
          channels={channels.data}
          error={channels.error}
          users={users.data ?? []}
          reload={channels.reload}
        />
      )}
      <RulesSection
        user={user}
        rules={rules.data}
        error={rules.error}
        channels={channels.data}
        channelsError={channels.error}
        tenants={tenants.data ?? []}
        reload={rules.reload}
      />
    </SettingsFrame>
  )
}
