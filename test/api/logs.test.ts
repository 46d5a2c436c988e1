import { describe, expect, it } from 'vitest'
import { generateApiKey } from '../../src/platform/crypto.js'
import { useTestApp } from '../support/app.js'
import { testDialects } from '../support/dialects.js'

const API = '/api/public/v1'
const SECRET_PARAMETERS = ['api_key', 'apikey', 'x-api-key', 'key', 'token', 'access_token', 'sig']

for (const dialect of testDialects()) {
  describe(`${dialect}: secrets never reach the log`, () => {
    const t = useTestApp({ dialect })

    it('a key in the query string is refused with 401, and no log line holds it or any secret parameter', async () => {
      const org = await t.given.organisation()
      const misplaced = await t.app.inject({ method: 'GET', url: `${API}/organisation?api_key=${org.ownerKey}` })
      expect(misplaced.statusCode).toBe(401)
      const secrets = SECRET_PARAMETERS.map((name, i) => ({ name, value: `s3cret-value-${i}-${name}` }))
      for (const { name, value } of secrets) {
        const res = await t.app.inject({ method: 'GET', url: `${API}/organisation?page=1&${name}=${value}&x=1` })
        expect(res.statusCode).toBe(401)
      }
      const unknownKey = generateApiKey()
      // A key anywhere else in a URL (a path segment, another parameter) and in the header.
      await t.app.inject({ method: 'GET', url: `${API}/tenants/${unknownKey}?q=${org.ownerKey}` })
      await t.request('GET', `${API}/organisation`, org.ownerKey)
      await t.request('GET', `${API}/organisation`, unknownKey)

      const log = t.logs.join('')
      expect(log).toContain('/organisation?api_key=[redacted]')
      for (const { name, value } of secrets) {
        expect(log).toContain(`${name}=[redacted]&x=1`)
        expect(log).not.toContain(value)
      }
      expect(log).not.toContain(org.ownerKey)
      expect(log).not.toContain(unknownKey)
      expect(log).not.toMatch(/cw_[0-9A-Za-z]{46}/)
      // The lines are still there, with what an operator needs.
      expect(log).toContain(`/tenants/cw_[redacted]?q=cw_[redacted]`)
      expect(log).toMatch(/"statusCode":401/)
    })
  })
}
