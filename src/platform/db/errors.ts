/** A unique-index violation, in either dialect's words. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string }
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE'
}
