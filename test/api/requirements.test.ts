import { randomUUID } from 'node:crypto'
import { Writable } from 'node:stream'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import type { Feature } from '../../src/features/feature.js'
import { FEATURES } from '../../src/features/index.js'
import type { OrganisationService } from '../../src/features/organisation/service.js'
import type { Requirement } from '../../src/platform/auth/principal.js'
import { Uuid } from '../../src/platform/http/schemas.js'
import { createRuntime } from '../../src/runtime.js'
import type { Services } from '../../src/services.js'
import { type OrgContext, useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'
import { plannedFeature } from '../support/planned.js'

const API = '/api/public/v1'

/** A feature whose only route is declared with `requires` (or without it, when undefined). */
function featureWith(url: string, requires: Requirement | undefined): Feature {
  return {
    name: 'probe',
    routes: (api) =>
      api.register(async (app) => {
        app.get(url, requires === undefined ? {} : { config: { requires } }, async () => ({ ok: true }))
      }),
  }
}

/** Widgets live in tenancies; the item check finds a widget's tenancy the way a store would. */
const widgets = new Map<string, string>()
const widgetOf = {
  describe: (params: Readonly<Record<string, string>>) => `Widget ${params.widgetId}`,
  tenancyOf: async (params: Readonly<Record<string, string>>) => widgets.get(params.widgetId ?? '') ?? null,
}
const widgetFeature: Feature = {
  name: 'widgets',
  routes: (api) =>
    api.register(async (app) => {
      const params = Type.Object({ widgetId: Uuid })
      const answer = async (req: { params: unknown }) => ({ widgetId: (req.params as { widgetId: string }).widgetId })
      app.get(
        '/widgets/:widgetId',
        { schema: { params }, config: { requires: { tenancyRole: 'Viewer', item: widgetOf } } },
        answer,
      )
      app.patch(
        '/widgets/:widgetId',
        { schema: { params }, config: { requires: { tenancyRole: 'Editor', item: widgetOf } } },
        answer,
      )
    }),
}

/** A feature given the one service it names, which its route answers with. */
const namedFeature: Feature<{ organisations: OrganisationService }> = {
  name: 'named',
  routes: (api, s) =>
    api.register(async (app) => {
      app.get('/named', { config: { requires: 'any' } }, async (req) => s.organisations.of(req.principal!))
    }),
}

for (const dialect of testDialects()) {
  describe(`${dialect}: every route declares what it needs`, () => {
    const t = useTestApp({ dialect, features: [...FEATURES, widgetFeature, plannedFeature, namedFeature] })
    const quiet = new Writable({ write: (_chunk, _encoding, done) => done() })
    const start = (feature: Feature<Services>) =>
      createRuntime({ db: t.db, config: t.config, logStream: quiet, features: [...FEATURES, feature] })

    it('refuses to start with an API route that declares no requirement', async () => {
      await expect(start(featureWith('/careless', undefined))).rejects.toThrow(
        `GET ${API}/careless declares no requirement`,
      )
    })

    it('refuses to start with a tenancy role on a route without a tenancy in its path and without an item check', async () => {
      await expect(start(featureWith('/widgets/:widgetId', { tenancyRole: 'Editor' }))).rejects.toThrow(
        `GET ${API}/widgets/:widgetId needs a tenancy role but has no :tenantId or :tenancyId in its path`,
      )
      // `:tenantIdentifier` is not a tenancy either.
      await expect(start(featureWith('/things/:tenantIdentifier', { tenancyRole: 'Viewer' }))).rejects.toThrow(
        'needs a tenancy role',
      )
    })

    it('starts when a route needs no key and says so, and serves it without one', async () => {
      const runtime = await start(featureWith('/open', 'none'))
      try {
        const res = await runtime.app.inject({ method: 'GET', url: `${API}/open` })
        expect(res.statusCode, res.body).toBe(200)
      } finally {
        await runtime.app.close()
      }
    })

    it('gives a feature the services it names; the type-check refuses one naming what it lacks or using more', async () => {
      const unnamed: Feature<{ organisations: OrganisationService }> = {
        name: 'unnamed',
        // @ts-expect-error: the tenants were not named, so the feature cannot use them
        routes: async (_api, s) => s.tenants,
      }
      // @ts-expect-error: the services hold no forecasts service, so a feature that names one cannot be served
      const lacking: readonly Feature<Services>[] = [{ name: 'lacking' } as Feature<{ forecasts: unknown }>]
      expect([unnamed, ...lacking].map((f) => f.name)).toEqual(['unnamed', 'lacking'])

      const org = await t.given.organisation('Named')
      const res = await t.request('GET', `${API}/named`, org.ownerKey)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toMatchObject({ id: org.organisationId, name: 'Named', tenancyCount: 0 })
    })

    describe('an item route authorises the tenancy its item lives in', () => {
      let org: OrgContext
      let mine: string
      let elsewhere: string
      let foreign: string
      const unknown = randomUUID()
      const call = (method: 'GET' | 'PATCH', widgetId: string, key: string | null) =>
        t.request(method, `${API}/widgets/${widgetId}`, key)

      it("owner: its own widgets, and 404 for another organisation's exactly as for an unknown one", async () => {
        org = await t.given.organisation()
        const [t1, t2] = [await t.given.tenant(org), await t.given.tenant(org)]
        const other = await t.given.organisation('Other')
        const t3 = await t.given.tenant(other)
        ;[mine, elsewhere, foreign] = [randomUUID(), randomUUID(), randomUUID()]
        widgets.set(mine, t1.id).set(elsewhere, t2.id).set(foreign, t3.id)
        expect((await call('PATCH', mine, org.ownerKey)).json()).toEqual({ widgetId: mine })
        const strip = (body: string, id: string) => {
          const { traceId: _t, instance: _i, ...rest } = JSON.parse(body.replaceAll(id, 'ID'))
          return rest
        }
        const ofOther = await call('GET', foreign, org.ownerKey)
        const ofNobody = await call('GET', unknown, org.ownerKey)
        expect([ofOther.statusCode, ofNobody.statusCode]).toEqual([404, 404])
        expect(strip(ofOther.body, foreign)).toEqual(strip(ofNobody.body, unknown))
      })

      it("a Viewer reads its tenancy's widget but may not change it (403), nor see another tenancy's (404)", async () => {
        const t1 = widgets.get(mine)!
        const viewer = await t.given.key(org, [{ tenancyId: t1, role: 'Viewer' }])
        expect((await call('GET', mine, viewer.apiKey)).statusCode).toBe(200)
        expect((await call('PATCH', mine, viewer.apiKey)).statusCode).toBe(403)
        expect((await call('GET', elsewhere, viewer.apiKey)).statusCode).toBe(404)
        // Holding Editor nowhere: a widget it cannot see is still a 404 exactly like an unknown id, before any role
        // check (a 403 would say the widget exists).
        const strip = (body: string, id: string) => {
          const { traceId: _t, instance: _i, ...rest } = JSON.parse(body.replaceAll(id, 'ID'))
          return rest
        }
        const ofNobody = await call('PATCH', unknown, viewer.apiKey)
        expect(ofNobody.statusCode).toBe(404)
        for (const id of [foreign, elsewhere]) {
          const res = await call('PATCH', id, viewer.apiKey)
          expect(res.statusCode).toBe(404)
          expect(strip(res.body, id)).toEqual(strip(ofNobody.body, unknown))
        }
      })

      it('an Editor of one tenancy changes widgets there only', async () => {
        const editor = await t.given.key(org, [{ tenancyId: widgets.get(elsewhere)!, role: 'Editor' }])
        expect((await call('PATCH', elsewhere, editor.apiKey)).statusCode).toBe(200)
        expect((await call('PATCH', mine, editor.apiKey)).statusCode).toBe(404)
        expect((await call('PATCH', unknown, editor.apiKey)).statusCode).toBe(404)
        expect((await call('PATCH', foreign, editor.apiKey)).statusCode).toBe(404)
      })

      it('checks the key first and validates the id before looking it up', async () => {
        expect((await call('GET', mine, null)).statusCode).toBe(401)
        const bad = await call('GET', 'not-a-uuid', org.ownerKey)
        expect(bad.statusCode, bad.body).toBe(400)
      })

      it('a planned item route: 403 for a key with the role on no tenancy, 501 for one that may act somewhere', async () => {
        const t1 = widgets.get(mine)!
        const viewer = await t.given.key(org, [{ tenancyId: t1, role: 'Viewer' }])
        const editor = await t.given.key(org, [{ tenancyId: t1, role: 'Editor' }])
        const patch = (key: string) =>
          t.request('PATCH', `${API}/gadgets/${randomUUID()}`, key, { action: 'Implemented' })
        expect((await patch(viewer.apiKey)).json()).toMatchObject({ status: 403, type: '/problems/forbidden' })
        expect((await patch(editor.apiKey)).json()).toMatchObject({ status: 501, type: '/problems/not-implemented' })
        expect((await patch(org.ownerKey)).statusCode).toBe(501)
        expect((await t.request('GET', `${API}/gadgets/${randomUUID()}`, viewer.apiKey)).statusCode).toBe(501)
      })
    })
  })
}
