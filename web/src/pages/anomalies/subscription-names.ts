import { useEffect, useState } from 'preact/hooks'
import { answer, client, everyItem } from '../../api'

/** Display names of the subscriptions seen so far, by subscription id: anomalies name a subscription by them. */
export const subscriptionNames = new Map<string, string>()
const loading = new Map<string, Promise<void>>()

/** Loads the names of a tenant's subscriptions once; a failure is tried again on the next call. */
function loadNames(tenantId: string): Promise<void> {
  let loaded = loading.get(tenantId)
  if (!loaded) {
    loaded = everyItem((page, pageSize) =>
      answer(
        client.GET('/tenants/{tenantId}/subscriptions', { params: { path: { tenantId }, query: { page, pageSize } } }),
      ),
    ).then(
      (items) => {
        for (const s of items) subscriptionNames.set(s.subscriptionId.toLowerCase(), s.displayName)
      },
      // Names only make labels friendlier: without them a subscription is named by its id.
      () => {
        loading.delete(tenantId)
      },
    )
    loading.set(tenantId, loaded)
  }
  return loaded
}

/** Renders the caller again once the names of the tenants' subscriptions are known. */
export function useSubscriptionNames(tenantIds: readonly string[]): void {
  const [, setVersion] = useState(0)
  const key = [...new Set(tenantIds)].sort().join()
  useEffect(() => {
    let current = true
    const ids = key ? key.split(',') : []
    Promise.all(ids.map(loadNames)).then(() => current && setVersion((v) => v + 1))
    return () => {
      current = false
    }
  }, [key])
}
