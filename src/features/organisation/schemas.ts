import { type Static, Type } from 'typebox'
import { Uuid } from '../../platform/http/schemas.js'

export const OrganisationRecord = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    plan: Type.String(),
    tenancyCount: Type.Integer({ minimum: 0, description: 'The tenancies the calling key can see.' }),
  },
  { $id: 'Organisation' },
)
export type OrganisationRecord = Static<typeof OrganisationRecord>
