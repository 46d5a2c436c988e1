import { describe, expect, it } from 'vitest'
import { type Principal, type TenancyRole, withinRightsOf } from './principal.js'

const principal = (isOwner: boolean, roles: [string, TenancyRole][] = []): Principal => ({
  organisationId: 'org',
  actor: { type: 'ApiKey', id: 'key', name: 'key' },
  isOwner,
  tenancyRoles: new Map(roles),
})

describe("a key within its creator's rights", () => {
  it('an owner creator leaves the key as it is', () => {
    const key = principal(false, [['t1', 'Admin']])
    expect(withinRightsOf(key, principal(true))).toBe(key)
  })

  it("an owner key of a member creator holds the member's roles, and is no owner", () => {
    const bounded = withinRightsOf(principal(true), principal(false, [['t1', 'Viewer']]))
    expect(bounded.isOwner).toBe(false)
    expect([...bounded.tenancyRoles]).toEqual([['t1', 'Viewer']])
    expect(bounded.actor).toEqual({ type: 'ApiKey', id: 'key', name: 'key' })
  })

  it('a scoped key holds the lower role of the two on each tenancy, and none where the creator has none', () => {
    const key = principal(false, [
      ['t1', 'Admin'],
      ['t2', 'Viewer'],
      ['t3', 'Editor'],
    ])
    const creator = principal(false, [
      ['t1', 'Editor'],
      ['t2', 'Admin'],
      ['t4', 'Admin'],
    ])
    expect([...withinRightsOf(key, creator).tenancyRoles]).toEqual([
      ['t1', 'Editor'],
      ['t2', 'Viewer'],
    ])
    expect(withinRightsOf(key, principal(false)).tenancyRoles.size).toBe(0)
  })
})
