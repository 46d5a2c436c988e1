/** RFC 5321's limits (4.5.3.1): a local part (before the `@`) of at most 64 octets, a path of at most 256, so an
 * address of at most 254 characters. Longer ones cannot be delivered; they are refused wherever an address is taken. */
export const EMAIL_LOCAL_PART_MAX = 64
export const EMAIL_MAX = 254

/** Something, an `@`, a domain with a dot; nothing blank. Deliverability is the mail server's to judge. */
const SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * What is wrong with an address (already trimmed), as field messages: empty when it is acceptable. The one check
 * of every address the service takes (invitations, organisation owners, sign-in, password resets).
 */
export function emailProblems(email: string): string[] {
  if (!SHAPE.test(email)) return ['must be an e-mail address']
  const problems: string[] = []
  if (email.length > EMAIL_MAX) problems.push(`must be at most ${EMAIL_MAX} characters (RFC 5321)`)
  const local = email.slice(0, email.lastIndexOf('@'))
  if (Buffer.byteLength(local) > EMAIL_LOCAL_PART_MAX)
    problems.push(`must have at most ${EMAIL_LOCAL_PART_MAX} characters before the @ (RFC 5321)`)
  return problems
}
