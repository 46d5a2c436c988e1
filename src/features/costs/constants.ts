/** The limits of cost series, kept apart from the schemas so that the service loads without them. */
export const MAX_SERIES_DAYS = 400
export const MAX_GROUPS = 50
/** The source of FOCUS imports in cost_coverage (collections are named by their connector). */
export const FOCUS_SOURCE = 'focus'
