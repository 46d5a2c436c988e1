/**
 * Loaded with `node --import` after tsx: appends the URL of every module the process loads to the file named by
 * MODULE_LOG_FILE, one a line. ES modules are seen as they are resolved (a hook, in the hooks' thread); CommonJS
 * modules that other CommonJS modules require are not, so those in require's cache are added as the process exits.
 */
import { appendFileSync } from 'node:fs'
import { createRequire, register } from 'node:module'
import { pathToFileURL } from 'node:url'

const file = process.env.MODULE_LOG_FILE
if (file) {
  const hooks = `
    import { appendFileSync } from 'node:fs'
    export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context)
      appendFileSync(${JSON.stringify(file)}, resolved.url + '\\n')
      return resolved
    }`
  register(`data:text/javascript,${encodeURIComponent(hooks)}`)
  const required = createRequire(import.meta.url).cache
  process.on('exit', () => {
    appendFileSync(
      file,
      Object.keys(required)
        .map((path) => `${pathToFileURL(path).href}\n`)
        .join(''),
    )
  })
}
