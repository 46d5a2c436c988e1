import type { DialectName } from '../../src/platform/db/index.js'

/** Every dialect by default; `COSTWATCH_TEST_DIALECTS=sqlite` narrows the run. */
export function testDialects(): DialectName[] {
  const wanted = (process.env.COSTWATCH_TEST_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim())
  return (['sqlite', 'postgres'] as const).filter((d) => wanted.includes(d))
}
