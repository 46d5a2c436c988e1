/** The limit of markers on one chart, kept apart from the schemas so that the service loads without them. */
export const MAX_VISIBLE_EVENTS = 1000
