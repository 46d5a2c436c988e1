import { ConnectorError } from '../types.js'

/** Small readers for provider JSON: a missing or oddly typed field becomes null rather than a crash later. */
export type Json = Record<string, unknown>

export function obj(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {}
}

export function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

export function num(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value)
  return null
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}

/** Tags as Azure stores them: string values only (a null-valued tag reads as ''). */
export function tagsOf(value: unknown): Record<string, string> {
  const tags: Record<string, string> = {}
  for (const [key, v] of Object.entries(obj(value))) tags[key] = typeof v === 'string' ? v : v == null ? '' : String(v)
  return tags
}

/** A page body must be an object; anything else means the provider changed shape under us. */
export function page(body: unknown, what: string): Json {
  if (body === null) return {}
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ConnectorError('provider_error', `Azure answered ${what} with an unexpected body.`)
  }
  return body as Json
}

/** `/subscriptions/{id}/resourceGroups/{name}/...` keeps ARM casing, unlike Resource Graph's `resourceGroup`. */
export function parseArmId(armId: string): { subscriptionId: string | null; resourceGroupName: string | null } {
  const match = /^\/subscriptions\/([^/]+)(?:\/resourceGroups\/([^/]+))?/i.exec(armId)
  return { subscriptionId: match?.[1] ?? null, resourceGroupName: match?.[2] ?? null }
}
