import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { problemResponses, publicOperation, ref } from '../../platform/http/openapi.js'
import { pagingOf } from '../../platform/http/paging.js'
import { replyPage } from '../../platform/http/reply.js'
import { Page, PageQuery, TenantParams } from '../../platform/http/schemas.js'
import {
  ResourceGroupGetQuery,
  ResourceGroupListQuery,
  ResourceGroupParams,
  ResourceGroupRecord,
  ResourceListQuery,
  ResourceParams,
  ResourceRecord,
  ResourceTypeList,
  SubscriptionParams,
  SubscriptionRecord,
  TagListQuery,
  TenantTags,
} from './schemas.js'
import { type InventoryService, parseSearch, parseTagConditions } from './service.js'

const viewer = { requires: { tenancyRole: 'Viewer' as const } }

export const inventoryRoutes: FastifyPluginAsyncTypebox<{ inventory: InventoryService }> = async (
  app,
  { inventory },
) => {
  app.get(
    '/tenants/:tenantId/subscriptions',
    {
      schema: publicOperation('PublicListTenantSubscriptions', 'Subscriptions of the tenant, by display name.', {
        params: TenantParams,
        querystring: PageQuery,
        response: { 200: Page(ref(SubscriptionRecord), 'SubscriptionPage'), ...problemResponses(400, 404) },
      }),
      config: viewer,
    },
    async (req, reply) =>
      replyPage(req, reply, await inventory.listSubscriptions(req.params.tenantId, pagingOf(req.query))),
  )

  app.get(
    '/tenants/:tenantId/subscriptions/:subscriptionId',
    {
      schema: publicOperation('PublicGetTenantSubscription', 'One subscription.', {
        params: SubscriptionParams,
        response: { 200: ref(SubscriptionRecord), ...problemResponses(400, 404) },
      }),
      config: viewer,
    },
    async (req) => inventory.getSubscription(req.params.tenantId, req.params.subscriptionId),
  )

  app.get(
    '/tenants/:tenantId/resource-groups',
    {
      schema: publicOperation(
        'PublicListTenantResourceGroups',
        'Resource groups of the tenant, by name, then subscription. Extension: `tag` filters by tags.',
        {
          params: TenantParams,
          querystring: ResourceGroupListQuery,
          response: { 200: Page(ref(ResourceGroupRecord), 'ResourceGroupPage'), ...problemResponses(400, 404) },
        },
      ),
      config: viewer,
    },
    async (req, reply) => {
      const filter = { subscriptionId: req.query.subscriptionId, tags: parseTagConditions(req.query.tag) }
      return replyPage(req, reply, await inventory.listResourceGroups(req.params.tenantId, filter, pagingOf(req.query)))
    },
  )

  app.get(
    '/tenants/:tenantId/resource-groups/:resourceGroupName',
    {
      schema: publicOperation(
        'PublicGetTenantResourceGroup',
        'One resource group by name, case-insensitively. When several subscriptions hold the name: 409 listing them (subscriptionIds), unless subscriptionId chooses.',
        {
          params: ResourceGroupParams,
          querystring: ResourceGroupGetQuery,
          response: { 200: ref(ResourceGroupRecord), ...problemResponses(400, 404, 409) },
        },
      ),
      config: viewer,
    },
    async (req) =>
      inventory.getResourceGroup(req.params.tenantId, req.params.resourceGroupName, req.query.subscriptionId),
  )

  app.get(
    '/tenants/:tenantId/resources',
    {
      schema: publicOperation('PublicListTenantResources', 'Resources of the tenant, by name.', {
        description:
          'Extensions: `tag` (by tags), `search` (a part of the name) and `sort`. The exact filters combine with ' +
          'them; a bad value of any is a 400 naming it.',
        params: TenantParams,
        querystring: ResourceListQuery,
        response: { 200: Page(ref(ResourceRecord), 'ResourcePage'), ...problemResponses(400, 404) },
      }),
      config: viewer,
    },
    async (req, reply) => {
      const { subscriptionId, resourceGroupId, armResourceName, resourceType, sort } = req.query
      const tags = parseTagConditions(req.query.tag)
      const search = parseSearch(req.query.search)
      const filter = { subscriptionId, resourceGroupId, armResourceName, resourceType, tags, search }
      const page = await inventory.listResources(req.params.tenantId, filter, pagingOf(req.query), sort)
      return replyPage(req, reply, page)
    },
  )

  app.get(
    '/tenants/:tenantId/resource-types',
    {
      schema: publicOperation(
        'ListTenantResourceTypes',
        "The tenant's resource types with how many resources each has, by type (types differing only in case " +
          'are one): the choices of a type filter.',
        {
          description: 'An addition to the specification.',
          params: TenantParams,
          response: { 200: ref(ResourceTypeList), ...problemResponses(400, 404) },
        },
        'Extensions',
      ),
      config: viewer,
    },
    async (req) => inventory.resourceTypes(req.params.tenantId),
  )

  app.get(
    '/tenants/:tenantId/resources/:resourceId',
    {
      schema: publicOperation('PublicGetTenantResource', 'One resource.', {
        params: ResourceParams,
        response: { 200: ref(ResourceRecord), ...problemResponses(400, 404) },
      }),
      config: viewer,
    },
    async (req) => inventory.getResource(req.params.tenantId, req.params.resourceId),
  )

  app.get(
    '/tenants/:tenantId/tags',
    {
      schema: publicOperation(
        'ListTenantTags',
        "The tag keys of the tenant's resources with their distinct values.",
        {
          description:
            'From the resources as the latest snapshot saw them: up to 200 keys, most used first, each with up to ' +
            '50 values (most used first); `key` asks for one key (any letter case) with up to 1,000 values. Keys ' +
            'differing only in letter case are one key, as they are for the tag filter of an event marker; ' +
            'values are exact. `valuesTruncated` and `keysTruncated` say when a list was cut.',
          params: TenantParams,
          querystring: TagListQuery,
          response: { 200: ref(TenantTags), ...problemResponses(400, 404) },
        },
        'Extensions',
      ),
      config: viewer,
    },
    async (req) => inventory.tags(req.params.tenantId, req.query.key),
  )
}
