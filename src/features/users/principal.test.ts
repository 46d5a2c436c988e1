import { describe, expect, it } from 'vitest'
import { authorise, visibleTenancies } from '../../platform/auth/principal.js'
import { principalOfUser } from './principal.js'
import type { UserState } from './store.js'

const member: UserState = {
  id: 'u-1',
  organisationId: 'org-1',
  email: 'jane@example.com',
  displayName: 'Jane',
  isOwner: false,
  isDisabled: false,
  status: 'Active',
}
const roles = [
  { tenancyId: 't-1', role: 'Admin' as const },
  { tenancyId: 't-2', role: 'Viewer' as const },
]
const tenancy = (id: string) => ({ id, organisationId: 'org-1' })

describe("a user's principal", () => {
  it('a member acts with their tenancy roles, as the user', () => {
    const who = principalOfUser(member, roles)!
    expect(who.actor).toEqual({ type: 'User', id: 'u-1', name: 'Jane' })
    expect(who.isOwner).toBe(false)
    expect(visibleTenancies(who)).toEqual(['t-1', 't-2'])
    expect(() => authorise(who, { tenancyRole: 'Admin' }, tenancy('t-1'))).not.toThrow()
    expect(() => authorise(who, { tenancyRole: 'Editor' }, tenancy('t-2'))).toThrow(
      expect.objectContaining({ status: 403 }),
    )
    expect(() => authorise(who, { tenancyRole: 'Viewer' }, tenancy('t-3'))).toThrow(
      expect.objectContaining({ status: 404 }),
    )
    expect(() => authorise(who, 'owner')).toThrow(expect.objectContaining({ status: 403 }))
  })

  it('an owner acts with owner rights, Admin of every tenancy whatever roles are stored', () => {
    const who = principalOfUser({ ...member, isOwner: true }, roles)!
    expect(who.isOwner).toBe(true)
    expect(visibleTenancies(who)).toBe('all')
    expect(() => authorise(who, 'owner')).not.toThrow()
    expect(() => authorise(who, { tenancyRole: 'Admin' }, tenancy('t-2'))).not.toThrow()
    expect(() => authorise(who, { tenancyRole: 'Admin' }, tenancy('t-9'))).not.toThrow()
  })

  it('names the user by address when they have no display name', () => {
    expect(principalOfUser({ ...member, displayName: null }, [])!.actor.name).toBe('jane@example.com')
  })

  it('a disabled user, owner or not, is no principal', () => {
    expect(principalOfUser({ ...member, isDisabled: true }, roles)).toBeNull()
    expect(principalOfUser({ ...member, isOwner: true, isDisabled: true }, roles)).toBeNull()
  })

  it('an invited user who has not accepted is no principal', () => {
    expect(principalOfUser({ ...member, status: 'Invited' }, roles)).toBeNull()
  })
})
