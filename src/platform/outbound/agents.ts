import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns'
import { lookup as lookupAll } from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import { type AllowList, addressRefusal, isAllowed, judgeForm, parseAllowList } from './guard.js'
import { OutboundRefusedError } from './types.js'

/**
 * HTTP agents for a library's own client (an SDK's) that may reach only what the outbound client may: every
 * address a name resolves to is checked before a socket connects to it (public unicast, or the operator's
 * COSTWATCH_OUTBOUND_ALLOW; plain http only to the allowed networks), so a name resolving to an internal address
 * later (DNS rebinding) is refused all the same.
 */
export function guardedAgents(allowCidrs: string[]): { httpAgent: http.Agent; httpsAgent: https.Agent } {
  const allow = parseAllowList(allowCidrs)
  const lookupFor = (secure: boolean) =>
    ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
      dnsLookup(hostname, { ...(options as object), all: true } as LookupAllOptions, (err, addresses) => {
        if (err) return callback(err)
        const list = addresses as LookupAddress[]
        const refused = list.map((a) => refusalOf(a.address, allow, secure)).find((r) => r !== null)
        if (refused) return callback(Object.assign(new Error(`${hostname} ${refused}`), { code: 'EREFUSED_OUTBOUND' }))
        if ((options as { all?: boolean }).all) return callback(null, list)
        return callback(null, list[0]!.address, list[0]!.family)
      })
    }) as unknown as typeof dnsLookup
  return {
    httpAgent: new http.Agent({ keepAlive: true, lookup: lookupFor(false) }),
    httpsAgent: new https.Agent({ keepAlive: true, lookup: lookupFor(true) }),
  }
}

function refusalOf(address: string, allow: AllowList, secure: boolean): string | null {
  const refusal = addressRefusal(address, allow)
  if (refusal) return `resolves to ${refusal}`
  if (!secure && !isAllowed(address, allow))
    return `resolves to ${address}, outside COSTWATCH_OUTBOUND_ALLOW, which plain http may reach alone`
  return null
}

/**
 * Refuses a URL whose form or whose host's addresses the outbound client would refuse: for an SDK whose HTTP client
 * takes no agent, checked once before its first request (a name that resolves elsewhere later is not seen).
 */
export async function checkOutboundHost(url: string, allowCidrs: string[]): Promise<void> {
  const allow = parseAllowList(allowCidrs)
  const judged = judgeForm(url, allow)
  if ('refusal' in judged) throw new OutboundRefusedError(judged.refusal)
  const { host, literal, secure } = judged.target
  const addresses = literal ? [host] : (await lookupAll(host, { all: true })).map((a) => a.address)
  for (const address of addresses) {
    const refused = refusalOf(address, allow, secure)
    if (refused) throw new OutboundRefusedError(`${host} ${refused}`)
  }
}
