/**
 * The one way Costwatch sends a request to a URL someone gave it (webhooks, Slack, Teams, any later fetch of a
 * user-given URL). The guard (guard.ts) refuses what could reach the server's own network: https only (http for
 * hosts the operator allows), every resolved address public unicast, the connection made to the address that was
 * checked, no redirects, a timeout and a cap on the response read.
 */

export interface OutboundRequest {
  method: 'POST' | 'GET'
  url: string
  headers?: Record<string, string>
  body?: string
  /** Aborts the request early (a run's lease lost); the timeout applies anyway. */
  signal?: AbortSignal
}

export interface OutboundResponse {
  status: number
  /** Header names in lower case. */
  headers: Record<string, string>
  /** The body as text, cut at the client's cap (`truncated` then). */
  body: string
  truncated: boolean
  /** From the start of the request (name resolution included) to the end of the body. */
  latencyMs: number
}

/**
 * Why the guard refused a URL or an address, as a sentence for a 400 or a delivery's `lastError`: it never holds
 * the URL's path or query (a Slack or Teams URL is a credential).
 */
export class OutboundRefusedError extends Error {
  readonly code = 'outbound_refused'
}

/** The request went out and failed: timeout, connection refused or reset, TLS, a response over the cap. */
export class OutboundFailedError extends Error {
  readonly code: 'timeout' | 'network' | 'too_large'
  constructor(code: 'timeout' | 'network' | 'too_large', message: string) {
    super(message)
    this.code = code
  }
}

export interface OutboundClient {
  /** Sends the request; refuses (OutboundRefusedError) or fails (OutboundFailedError) as described above. A 3xx is returned as it is, never followed. */
  send(request: OutboundRequest): Promise<OutboundResponse>
  /**
   * What the guard says of a URL by its form alone (scheme, a literal address that is not public, credentials
   * in it): the reason it is refused, or null. For a 400 when a channel is created; `send` checks again.
   */
  refusalOf(url: string): string | null
}
