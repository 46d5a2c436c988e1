import { useState } from 'preact/hooks'
import { api } from '../../api'
import { formatDateTime } from '../../components/format'
import { ProblemMessage } from '../../components/problem'
import { useLoad } from '../../components/use-load'
import { type AuditEntry, actorName, settingsApi } from './api'
import { SettingsFrame } from './frame'

const ACTIONS: Record<string, string> = {
  'apiKey.created': 'Created an API key',
  'apiKey.revoked': 'Revoked an API key',
  'user.invited': 'Invited a user',
  'user.invitationResent': 'Sent an invitation again',
  'user.invitationAccepted': 'Accepted the invitation',
  'user.renamed': 'Renamed a user',
  'user.ownerGranted': 'Made a user owner',
  'user.ownerRevoked': 'Removed an owner',
  'user.disabled': 'Disabled a user',
  'user.enabled': 'Enabled a user',
  'user.roleGranted': 'Gave a tenancy role',
  'user.roleRevoked': 'Removed a tenancy role',
  'user.signedIn': 'Signed in',
  'user.signInFailed': 'Failed to sign in',
  'user.passwordResetRequested': 'Asked for a password reset',
  'user.passwordReset': 'Set a new password with a reset link',
  'tenant.created': 'Connected a tenant',
  'report.deleted': 'Deleted a report',
  'event.deleted': 'Deleted an event marker',
  'notificationChannel.created': 'Created a notification channel',
  'notificationChannel.updated': 'Changed a notification channel',
  'notificationChannel.deleted': 'Deleted a notification channel',
  'notificationChannel.secretRotated': 'Rotated a webhook secret',
  'notificationChannel.disabled': 'Disabled a notification channel',
  'notificationRule.created': 'Created an alert rule',
  'notificationRule.updated': 'Changed an alert rule',
  'notificationRule.deleted': 'Deleted an alert rule',
  'budget.created': 'Created a budget',
  'budget.updated': 'Changed a budget',
  'budget.deleted': 'Deleted a budget',
}
const PAGE_SIZE = 50

/** Names of the keys and users the entries are about, and of the tenancies they mention. */
interface Names {
  users: Record<string, string>
  tenancies: Record<string, string>
}
const NO_NAMES: Names = { users: {}, tenancies: {} }

const FACTS: Record<string, string> = {
  role: 'role',
  previousRole: 'was',
  scope: 'scope',
  expiresAt: 'expires',
  displayName: 'name',
  reason: 'because',
  credentialType: 'credential',
  changed: 'changed',
}

/** The entry's target in words, then its facts (a role, a tenancy, an expiry). */
function detailText(entry: AuditEntry, names: Names): string {
  const detail = entry.detail ?? {}
  const target =
    entry.target.type === 'ApiKey'
      ? `key "${String(detail.name ?? entry.target.id)}"`
      : entry.target.type === 'Tenant'
        ? `tenant "${String(detail.name ?? entry.target.id)}"`
        : entry.target.type === 'Report'
          ? `report "${String(detail.name ?? entry.target.id)}"`
          : entry.target.type === 'Event'
            ? `marker "${String(detail.title ?? entry.target.id)}"`
            : entry.target.type === 'NotificationChannel'
              ? `channel "${String(detail.name ?? entry.target.id)}"`
              : entry.target.type === 'NotificationRule'
                ? `alert rule "${String(detail.name ?? entry.target.id)}"`
                : (names.users[entry.target.id] ?? `user ${entry.target.id}`)
  const facts: string[] = []
  if (detail.clientSecretStored === true) facts.push('client secret stored')
  if (typeof detail.tenancyId === 'string') facts.push(`on ${names.tenancies[detail.tenancyId] ?? detail.tenancyId}`)
  for (const [key, label] of Object.entries(FACTS)) {
    const value = detail[key]
    if (value === null || value === undefined || value === '') continue
    facts.push(`${label} ${key === 'expiresAt' ? formatDateTime(String(value)) : String(value)}`)
  }
  return [target, ...facts].join(' · ')
}

/** The organisation's audit log, newest first: who did what to which key or user, when and from where. */
export function AuditPage() {
  const [page, setPage] = useState(1)
  const [action, setAction] = useState('')
  // An answer for an earlier page or filter that comes late is dropped (useLoad), never shown for the new one.
  const {
    data: result,
    loading: busy,
    error: listError,
  } = useLoad(() => settingsApi.audit({ page, pageSize: PAGE_SIZE, action }), [page, action])
  // Names make the entries readable; without them the entries still show, by id.
  const { data: names, error: namesError } = useLoad(
    () =>
      Promise.all([settingsApi.users(), api.allTenants()]).then(
        ([users, tenants]): Names => ({
          users: Object.fromEntries(
            users.map((u) => [u.id, u.displayName ? `${u.displayName} (${u.email})` : u.email]),
          ),
          tenancies: Object.fromEntries(tenants.map((t) => [t.id, t.name])),
        }),
      ),
    [],
  )
  const error = listError ?? namesError

  const entries = result?.items ?? null

  return (
    <SettingsFrame title="Audit log">
      <div class="filters audit-filters">
        <div>
          <label for="audit-action">What</label>
          <select
            id="audit-action"
            value={action}
            onChange={(e) => {
              setAction(e.currentTarget.value)
              setPage(1)
            }}
          >
            <option value="">Every change</option>
            {Object.entries(ACTIONS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ProblemMessage error={error} />
      {!entries && !error && <p class="status">Loading the audit log…</p>}
      {entries?.length === 0 && <p class="status">No entries{action ? ' of this kind' : ''} yet.</p>}
      {entries && entries.length > 0 && (
        <table class="records" aria-label="Audit entries, newest first">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td data-label="When" class="nowrap">
                  {formatDateTime(entry.at)}
                </td>
                <td data-label="Who" class="wide">
                  {actorName(entry.actor)}
                  {entry.actor.type === 'ApiKey' && <span class="muted"> (API key)</span>}
                </td>
                <th scope="row" data-label="What">
                  {ACTIONS[entry.action] ?? entry.action}
                  <span class="detail muted">{detailText(entry, names ?? NO_NAMES)}</span>
                </th>
                <td data-label="From">{entry.origin === 'cli' ? 'command line' : entry.origin}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result && result.totalPages > 1 && (
        <nav class="pager" aria-label="Audit pages">
          <button type="button" class="plain" disabled={busy || page <= 1} onClick={() => setPage(page - 1)}>
            Newer entries
          </button>
          <span role="status">
            Page {result.page} of {result.totalPages} ({result.totalCount} entries)
          </span>
          <button
            type="button"
            class="plain"
            disabled={busy || page >= result.totalPages}
            onClick={() => setPage(page + 1)}
          >
            Older entries
          </button>
        </nav>
      )}
    </SettingsFrame>
  )
}
