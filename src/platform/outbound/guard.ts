/**
 * What the outbound client may reach, judged without sending anything: a URL by its form, an address by its range.
 * Only public unicast addresses pass (ipaddr.js's `unicast` range, and for IPv6 only inside 2000::/3, the global
 * unicast block), unless an operator's allow-list (COSTWATCH_OUTBOUND_ALLOW) holds them. Every sentence names the
 * host at most, never the URL's path or query: a Slack or Teams URL is a credential.
 */
import ipaddr from 'ipaddr.js'

type Address = ipaddr.IPv4 | ipaddr.IPv6
export type AllowList = Array<[Address, number]>

/** The operator's CIDRs (config.outboundAllow, already checked by config.ts). */
export function parseAllowList(cidrs: string[]): AllowList {
  return cidrs.map((cidr) => ipaddr.parseCIDR(cidr))
}

/** Whether the address is within one of the allowed networks (an IPv4-mapped IPv6 address as its IPv4 too). */
export function isAllowed(address: string, allow: AllowList): boolean {
  const parsed = parseAddress(address)
  if (!parsed) return false
  const forms: Address[] = [parsed]
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    forms.push((parsed as ipaddr.IPv6).toIPv4Address())
  return forms.some((form) =>
    allow.some(([network, bits]) => network.kind() === form.kind() && form.match(network, bits)),
  )
}

const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  private: 'a private address',
  reserved: 'a reserved address',
  uniqueLocal: 'a unique-local address (fc00::/7)',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  rfc6145: 'an IPv4-translated IPv6 address',
  rfc6052: 'a NAT64 address (64:ff9b::/96)',
  '6to4': 'a 6to4 address, which embeds an IPv4 address',
  teredo: 'a Teredo address, which embeds an IPv4 address',
  deprecatedSiteLocal: 'a site-local address',
}

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96')
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3')

/**
 * Why the address may not be reached (a phrase such as "a loopback address"), or null when it is public unicast.
 * The allow-list is not consulted here.
 */
export function nonPublicReason(address: string): string | null {
  const parsed = parseAddress(address)
  if (!parsed) return 'not an IP address'
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6
    // ipaddr.js calls ::7f00:1 (the IPv4-compatible form of 127.0.0.1) plain unicast: refused here by name.
    if (v6.range() === 'unicast' && v6.match(IPV4_COMPATIBLE))
      return 'an IPv4-compatible IPv6 address, which embeds an IPv4 address'
    const range = v6.range()
    if (range !== 'unicast') return RANGE_WORDS[range] ?? `a special-purpose address (${range})`
    if (!v6.match(GLOBAL_UNICAST_V6)) return 'not a global unicast IPv6 address (outside 2000::/3)'
    return null
  }
  const range = parsed.range()
  return range === 'unicast' ? null : (RANGE_WORDS[range] ?? `a special-purpose address (${range})`)
}

/** Why the address is refused, or null: public unicast, or within the allow-list. */
export function addressRefusal(address: string, allow: AllowList): string | null {
  if (isAllowed(address, allow)) return null
  const reason = nonPublicReason(address)
  return reason === null ? null : `${address} is ${reason}`
}

function parseAddress(address: string): Address | null {
  try {
    return ipaddr.parse(address.replace(/^\[|\]$/g, ''))
  } catch {
    return null
  }
}

export interface ParsedTarget {
  url: URL
  /** The host name, or the literal address without brackets. */
  host: string
  /** Whether `host` is a literal IP address. */
  literal: boolean
  secure: boolean
}

/**
 * A URL judged by its form alone: a reason it is refused, or the parsed target. A name is not resolved here, so
 * an http URL naming a host passes when the allow-list is not empty (sending checks its addresses).
 */
export function judgeForm(raw: string, allow: AllowList): { refusal: string } | { target: ParsedTarget } {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { refusal: 'The URL is not a valid absolute URL' }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return {
      refusal: `The URL's scheme ${url.protocol.replace(/:$/, '')} is not allowed: only https (http to the allowed networks)`,
    }
  if (url.username || url.password) return { refusal: 'A URL with a user name or password in it is not allowed' }
  // new URL() has already turned the IPv4 forms (2130706433, 0x7f.1) into dotted quads.
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!host) return { refusal: 'The URL has no host' }
  const secure = url.protocol === 'https:'
  const literal = ipaddr.isValid(host)
  if (literal) {
    const refusal = addressRefusal(host, allow)
    if (refusal) return { refusal: `The URL's host ${refusal}, which is not allowed` }
    if (!secure && !isAllowed(host, allow))
      return {
        refusal: `http is allowed only to the networks of COSTWATCH_OUTBOUND_ALLOW; ${host} is not in them: use https`,
      }
  } else if (!secure && allow.length === 0) {
    return {
      refusal: 'Only https URLs are allowed (http only to the networks of COSTWATCH_OUTBOUND_ALLOW, which is empty)',
    }
  }
  return { target: { url, host, literal, secure } }
}
