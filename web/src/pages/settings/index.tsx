import './settings.css'

/** Settings, for owners: API keys, users and their roles, the audit log. */
export { AuditPage } from './audit'
export { KeysPage } from './keys'
export { UsersPage } from './users'
