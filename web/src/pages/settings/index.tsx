import './settings.css'

/** Settings: for owners, API keys, users and their roles, the audit log; for everyone, notifications. */
export { AuditPage } from './audit'
export { KeysPage } from './keys'
export { NotificationsPage } from './notifications'
export { UsersPage } from './users'
