// better-sqlite3 is a native module. Its own install script builds it, but some npm versions skip
// dependency install scripts; then this builds it from the bundled source with node-gyp (no download).
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'

const require = createRequire(import.meta.url)

function loads() {
  try {
    const Database = require('better-sqlite3')
    new Database(':memory:').close()
    return true
  } catch {
    return false
  }
}

if (!loads()) {
  const dir = dirname(require.resolve('better-sqlite3/package.json'))
  const gyp = require.resolve('node-gyp/bin/node-gyp.js')
  console.log('costwatch: building better-sqlite3 from source with node-gyp')
  execFileSync(process.execPath, [gyp, 'rebuild', '--release'], { cwd: dir, stdio: 'inherit' })
  if (!loads()) {
    console.error('costwatch: better-sqlite3 still does not load; a C++ toolchain (python3, make, g++) is needed')
    process.exit(1)
  }
}
