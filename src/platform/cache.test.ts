import { describe, expect, it } from 'vitest'
import { createPageCache } from './cache.js'

/** A cache of strings, each counted at its length, and a builder that counts its calls. */
function setup(budgetBytes: number) {
  const cache = createPageCache<string>({ budgetBytes, bytesOf: (page) => page.length })
  const builds: string[] = []
  const build = (value: string) => async () => {
    builds.push(value)
    return value
  }
  return { cache, builds, build }
}

describe('the page cache', () => {
  it('answers from the kept page while the version is the same, and rebuilds when it changes', async () => {
    const { cache, builds, build } = setup(1000)
    expect(await cache.get('a', '1', build('page at 1'))).toBe('page at 1')
    expect(await cache.get('a', '1', build('not built'))).toBe('page at 1')
    expect(await cache.get('a', '2', build('page at 2'))).toBe('page at 2')
    expect(await cache.get('a', '2', build('not built'))).toBe('page at 2')
    expect(builds).toEqual(['page at 1', 'page at 2'])
  })

  it('builds a page once for the requests that miss together', async () => {
    const { cache } = setup(1000)
    let builds = 0
    let finish: (value: string) => void = () => {}
    const slow = () => {
      builds++
      return new Promise<string>((resolve) => {
        finish = resolve
      })
    }
    const waiting = Array.from({ length: 5 }, () => cache.get('a', '1', slow))
    finish('page')
    expect(await Promise.all(waiting)).toEqual(['page', 'page', 'page', 'page', 'page'])
    expect(builds).toBe(1)
  })

  it('keeps nothing of a failed build', async () => {
    const { cache, builds, build } = setup(1000)
    await expect(cache.get('a', '1', () => Promise.reject(new Error('database down')))).rejects.toThrow()
    expect(await cache.get('a', '1', build('page'))).toBe('page')
    expect(builds).toEqual(['page'])
  })

  it('lets the least recently used pages go past its budget, and never keeps a page larger than it', async () => {
    // Each entry counts its page and its key (two bytes a character): 10 + 2 = 12 bytes here.
    const { cache, build } = setup(30)
    const page = (key: string) => key.repeat(10)
    await cache.get('a', '1', build(page('a')))
    await cache.get('b', '1', build(page('b')))
    await cache.get('a', '1', build('not built')) // a is now more recent than b
    await cache.get('c', '1', build(page('c'))) // 36 bytes would pass 30: b goes
    expect(await cache.get('a', '1', build('not built'))).toBe(page('a'))
    expect(await cache.get('c', '1', build('not built'))).toBe(page('c'))
    expect(await cache.get('b', '1', build('b again'))).toBe('b again')
    const huge = 'x'.repeat(31)
    expect(await cache.get('h', '1', build(huge))).toBe(huge)
    expect(await cache.get('h', '1', build('built again'))).toBe('built again')
  })
})
