/**
 * The values of a report schedule, kept apart from the schemas so that the schedule and the command line load
 * without them.
 */
export const Frequencies = ['Daily', 'Weekly', 'Monthly'] as const
export const Weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const
