/**
 * A resource type as people read it: the kind first, its provider after, `virtualMachines (Microsoft.Compute)`
 * for `Microsoft.Compute/virtualMachines`, so that a narrow column cuts the provider rather than the kind.
 */
export function readableResourceType(type: string): string {
  const slash = type.indexOf('/')
  if (slash < 0) return type
  return `${type.slice(slash + 1)} (${type.slice(0, slash)})`
}
