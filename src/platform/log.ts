/**
 * Secrets never reach a log line: an API key pasted in a query string (`/organisation?api_key=cw_...`), a signed
 * URL's `sig`, a token in an error message. Every line passes through `redactSecrets` on its way out.
 */
const SECRET_PARAMETERS = ['api_key', 'apikey', 'x-api-key', 'key', 'token', 'access_token', 'sig']
/** Our key format (see platform/crypto.ts), wherever it appears. */
const API_KEY_VALUE = /cw_[0-9A-Za-z]{46}/g
/** The value of a query parameter that commonly carries a secret, up to the next parameter, fragment or quote. */
const SECRET_PARAMETER_VALUE = new RegExp(`([?&;](?:${SECRET_PARAMETERS.join('|')})=)[^&#\\s"\\\\]*`, 'gi')
export const REDACTED = '[redacted]'

export function redactSecrets(text: string): string {
  return text.replace(API_KEY_VALUE, `cw_${REDACTED}`).replace(SECRET_PARAMETER_VALUE, `$1${REDACTED}`)
}

/** A pino destination that redacts each line before handing it to `target` (stdout by default). */
export function redactingDestination(target: NodeJS.WritableStream = process.stdout): { write(line: string): void } {
  return { write: (line) => target.write(redactSecrets(line)) }
}

/** Paths whose last segment is a secret (the token of an invitation or a password reset link). */
const SECRET_PATH = /^(\/(?:invite|reset-password)\/)[^/?#]+/

/**
 * A request's URL as the request log shows it: `redactSecrets`, and the token of an invitation or reset link. Only here,
 * not on every line: the one line allowed to hold a link (an e-mail logged when no SMTP server is configured)
 * must keep it.
 */
export function redactUrl(url: string): string {
  return redactSecrets(url).replace(SECRET_PATH, `$1${REDACTED}`)
}
