import { type Static, type TSchema, Type } from 'typebox'

/** `{ type: 'string', enum }` from one list, so the list feeds both the type and the schema. */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })
}

const NULLABLE_AS_TYPE_LIST = new Set(['string', 'integer', 'number', 'boolean', 'object'])

/**
 * `T` or null. Written `{ ...T, type: [T.type, 'null'] }` where that means the same (`format`, `pattern`,
 * `minLength`, `properties`... apply only to values of T's type, so null passes them), because fast-json-stringify
 * serialises `anyOf` by running ajv on each value to pick a branch: ~20-30 µs of the ~50 µs it took to
 * serialise a page of 50 tenants. `enum`/`const` would refuse null and a `$ref` has no type to extend, so
 * those keep `anyOf`.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const s = schema as Record<string, unknown>
  if (typeof s.type === 'string' && NULLABLE_AS_TYPE_LIST.has(s.type) && !('enum' in s) && !('const' in s)) {
    return Type.Unsafe<Static<T> | null>({ ...s, type: [s.type, 'null'] })
  }
  return Type.Union([schema, Type.Null()])
}

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
export const Uuid = Type.String({ format: 'uuid', pattern: UUID_PATTERN })
export const Instant = Type.String({ format: 'date-time', description: 'RFC 3339; returned in UTC with milliseconds.' })
export const DateOnly = Type.String({ format: 'date', description: 'YYYY-MM-DD (UTC day).' })
export const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code.' })
/** A tag a scope filters on: a resource carries it when its key matches without letter case and its value exactly. */
export const TagPair = Type.Object(
  { key: Type.String({ minLength: 1, maxLength: 512 }), value: Type.String({ maxLength: 256 }) },
  { additionalProperties: false },
)
export const Money = Type.Number({ description: 'An amount in the billing currency named by `currency`.' })

/** A boolean in the query: `true` or `false` in any letter case; anything else is a 400. */
export function QueryBoolean(description: string) {
  return Type.String({
    pattern: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$',
    default: 'false',
    description: `${description} \`true\` or \`false\` (case-insensitive).`,
  })
}
export function parseQueryBoolean(value: string | undefined, fallback = false): boolean {
  return value === undefined ? fallback : value.toLowerCase() === 'true'
}

/** Integers in the query arrive as text; `5` and `"5"` both pass, anything else is a 400. */
export const PageQuery = Type.Object({
  page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 2147483647, default: 1, description: 'Page number, from 1.' }),
  ),
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Items per page, 1 to 200.' }),
  ),
})
export function Page<T extends TSchema>(item: T, name: string) {
  return Type.Object(
    {
      items: Type.Array(item),
      page: Type.Integer({ minimum: 1 }),
      pageSize: Type.Integer({ minimum: 1, maximum: 200 }),
      totalCount: Type.Integer({ minimum: 0 }),
      totalPages: Type.Integer({ minimum: 0 }),
    },
    { title: name, description: `A page of ${name.replace(/Page$/, '')} records.` },
  )
}
export const ActorRef = Type.Object(
  {
    type: StringEnum(['ApiKey', 'User', 'System'] as const),
    id: Nullable(Type.String()),
    name: Nullable(Type.String()),
  },
  { description: 'Who did something: an API key, a user of the web interface, or the service itself.' },
)
export type ActorRef = Static<typeof ActorRef>

export const TenantParams = Type.Object({ tenantId: Uuid }, { additionalProperties: false })

export const CostSummary = Type.Object(
  {
    currency: Currency,
    monthToDate: Money,
    previousMonth: Money,
    last30Days: Money,
  },
  { description: 'Amortised cost (FOCUS EffectiveCost) in the billing currency, by UTC day.' },
)
export type CostSummary = Static<typeof CostSummary>

export const Problem = Type.Object(
  {
    type: Type.String({ description: 'A URI reference naming the kind of problem, e.g. `/problems/validation`.' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.Optional(Type.String()),
    instance: Type.Optional(Type.String()),
    traceId: Type.String({ description: 'Identifies the request in the service logs.' }),
    errors: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.String()), {
        description: 'Field errors: field name to messages.',
      }),
    ),
    activeRunId: Type.Optional(Type.String({ description: 'On a 409 for a snapshot already queued or running.' })),
  },
  { $id: 'Problem', additionalProperties: true, description: 'RFC 9457 problem details.' },
)
export type Problem = Static<typeof Problem>
