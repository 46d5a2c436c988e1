// The users feature's public entry: what other features may use of it (docs/architecture.md, "Rules that are checked").
// No routes or schemas here: the command line loads this module.
export { principalOfUser } from './principal.js'
export type { UserRecord } from './schemas.js'
export {
  activeUserWithRoles,
  enabledUser,
  markSignedIn,
  setPasswordOfEnabled,
  signInCandidates,
  type UserStore,
} from './store.js'
