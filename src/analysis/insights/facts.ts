import type { ResourceFacts } from './types.js'

export function isType(resource: ResourceFacts, type: string): boolean {
  return resource.resourceType.toLowerCase() === type.toLowerCase()
}

/** A tag's value by key in any casing (real estates spell `Environment` and `environment` both). */
export function tagValue(resource: ResourceFacts, key: string): string | undefined {
  const wanted = key.toLowerCase()
  for (const [k, v] of Object.entries(resource.tags)) if (k.toLowerCase() === wanted) return v
  return undefined
}

export function isRunningVm(resource: ResourceFacts): boolean {
  return isType(resource, 'Microsoft.Compute/virtualMachines') && /running/i.test(resource.state ?? '')
}

const NON_PRODUCTION = /^(dev|development|test|testing|qa|uat|staging|stage|sandbox|nonprod|non-prod|non-production)$/i

/** Tagged as not production by an `environment` or `env` tag. */
export function isNonProduction(resource: ResourceFacts): boolean {
  const env = tagValue(resource, 'environment') ?? tagValue(resource, 'env')
  return env !== undefined && NON_PRODUCTION.test(env.trim())
}
