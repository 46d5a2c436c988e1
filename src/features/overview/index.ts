import type { Feature } from '../feature.js'
import { overviewRoutes } from './routes.js'
import type { OverviewService } from './service.js'

/**
 * What a user lands on in the web interface: this month's spend against last month's, where it ends, budgets at
 * risk, this week's movers, active anomalies and the savings of active insights. Reads the other features through
 * what the wiring hands it (services.ts); owns no table.
 */
export const overview: Feature<{ overview: OverviewService }> = {
  name: 'overview',
  appRoutes: (app, s) => app.register(overviewRoutes, { overview: s.overview }),
}
