import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { GENERATE_COMMAND, GENERATED_FILES, generatedApiTypes } from '../../scripts/generate-api-types.js'

/** The committed types of the TypeScript client and the web interface are those of the documents the app builds. */
describe('the generated API types', () => {
  it('are up to date with the OpenAPI documents', async () => {
    const generated = await generatedApiTypes()
    for (const [audience, path] of Object.entries(GENERATED_FILES)) {
      const committed = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')
      expect(
        committed === generated[audience as keyof typeof generated],
        `${path} is out of date with the OpenAPI document: run \`${GENERATE_COMMAND}\` and commit the result.`,
      ).toBe(true)
    }
  }, 180_000)
})
