import fastJsonStringify, { type AnySchema, type Options } from 'fast-json-stringify'
import type { TSchema } from 'typebox'

type Schema = Record<string, unknown>

/** Every `$ref` target's id (`Tenant#` or `Tenant#/properties/x` → `Tenant`) within `schema`, at any depth. */
function referencedIds(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) referencedIds(item, found)
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string') {
        const id = value.split('#')[0]
        if (id) found.add(id)
      } else referencedIds(value, found)
    }
  }
  return found
}

/**
 * Fastify's response serializer compiler, given only the shared schemas a response refers to (directly or through
 * one another). Fastify's own hands every route all of them, and fast-json-stringify checks and indexes each one
 * for each response it compiles: with about a hundred shared schemas and a few hundred responses, that was most of
 * a server's start (seconds), paid again by every process and every test that builds the app.
 */
export function responseSerializerCompiler(shared: TSchema[]) {
  const byId = new Map(shared.map((schema) => [(schema as Schema).$id as string, schema as Schema]))
  const closure = new Map<string, string[]>()
  /** The shared schemas reachable from the one with `id`, itself included; computed once per id. */
  const reachableFrom = (id: string): string[] => {
    const known = closure.get(id)
    if (known) return known
    const seen = new Set<string>([id])
    const queue = [id]
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      for (const ref of referencedIds(byId.get(next))) {
        if (!seen.has(ref)) {
          seen.add(ref)
          queue.push(ref)
        }
      }
    }
    const ids = [...seen]
    closure.set(id, ids)
    return ids
  }

  return ({ schema }: { schema: unknown }) => {
    const external: Record<string, Schema> = {}
    for (const id of referencedIds(schema)) {
      for (const reached of reachableFrom(id)) {
        const found = byId.get(reached)
        // An unknown id is left for fast-json-stringify to name in its own error.
        if (found) external[reached] = found
      }
    }
    // A response that is itself a shared schema is the root, not an external one (as in Fastify's compiler).
    const ownId = (schema as Schema).$id
    if (typeof ownId === 'string') delete external[ownId]
    return fastJsonStringify(schema as AnySchema, { schema: external as unknown as Options['schema'] })
  }
}
