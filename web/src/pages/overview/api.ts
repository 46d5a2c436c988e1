import { type Answer, answer, client, type paths } from '../../api'

export type Overview = Answer<paths['/overview']['get']>
export type CurrencyOverview = Overview['currencies'][number]
export type Mover = CurrencyOverview['movers'][number]

/** The overview of every tenancy the user may see, or of one. */
export function loadOverview(tenancyId: string) {
  return answer(client.GET('/overview', { params: { query: tenancyId ? { tenancyId } : {} } }))
}
