import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX } from '../../src/app.js'
import type { OrgContext } from '../support/app.js'
import { useTestApp } from '../support/app.js'
import { ROOT, runNode } from '../support/cli.js'
import { testDialects } from '../support/dialects.js'

/** The fenced TypeScript block of the README's "## TypeScript client" section, as a user copies it. */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const section = readme.split('\n## TypeScript client\n')[1]?.split('\n## ')[0]
  const code = section?.match(/```ts\n([\s\S]*?)```/)?.[1]
  if (!code) throw new Error('README.md has no ```ts block under "## TypeScript client"')
  return code
}

for (const dialect of testDialects()) {
  describe(`the README's TypeScript client example (${dialect})`, () => {
    const t = useTestApp({ dialect, now: new Date().toISOString() })
    let org: OrgContext
    let base: string
    const dir = mkdtempSync(join(tmpdir(), 'costwatch-readme-'))
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    beforeAll(async () => {
      org = await t.given.organisation('Readme Org')
      await t.given.tenant(org, { name: 'Production' })
      base = await t.app.listen({ host: '127.0.0.1', port: 0 })
    })

    it('lists the tenants and creates a marker against a running server, with a real key', async () => {
      const source = fileURLToPath(new URL('../../src/client/index.ts', import.meta.url))
      const example = readmeExample()
      expect(example).toContain("from 'costwatch/client'")
      // The example as written, but for where the package is (here, its source) and the server's port.
      const file = join(dir, 'example.mts')
      writeFileSync(
        file,
        example
          .replace("from 'costwatch/client'", `from ${JSON.stringify(source)}`)
          .replace("'http://127.0.0.1:8080'", JSON.stringify(base)),
      )
      const { code, stdout, stderr } = await runNode(['--import', 'tsx', file], { ...process.env, KEY: org.ownerKey })
      expect(stderr).toBe('')
      expect(code).toBe(0)

      const tenants = (await t.request('GET', `${API_PREFIX}/tenants`, org.ownerKey)).json().items
      expect(tenants).toHaveLength(1)
      const events = (await t.request('GET', `${API_PREFIX}/tenants/${tenants[0].id}/events`, org.ownerKey)).json()
      expect(events.items).toEqual([
        expect.objectContaining({ title: 'Deploy web v3.2', category: 'Deployment', tenantId: tenants[0].id }),
      ])
      expect(stdout).toBe(`Production (${tenants[0].id})\nMarker ${events.items[0].id} created\n`)
    }, 60_000)

    it('throws a typed problem for a refused call', async () => {
      const { createCostwatchClient, ok, CostwatchProblem } = await import('../../src/client/index.js')
      const client = createCostwatchClient({ baseUrl: base, apiKey: 'cw_not_a_key' })
      const refused = await client
        .GET('/tenants')
        .then(ok)
        .catch((err: unknown) => err)
      expect(refused).toBeInstanceOf(CostwatchProblem)
      expect(refused).toMatchObject({ status: 401, problem: { status: 401, title: expect.any(String) } })
    })
  })
}
