import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * The site tests' set-up builds inside Vitest, which sets NODE_ENV=test; what they test must
 * still be the bundle visitors get: React's production build, minified.
 */
describe('the built site bundle', () => {
  it('is React production code, minified', () => {
    const dir = fileURLToPath(new URL('../../dist/host/client/assets/', import.meta.url))
    const files = readdirSync(dir).filter((f) => f.endsWith('.js'))
    expect(files).toHaveLength(1)
    const code = readFileSync(`${dir}${files[0]}`, 'utf8')
    expect(code).not.toContain('react-dom.development')
    expect(code).not.toMatch(/Warning: [A-Z]/)
    expect(code.length).toBeLessThan(500_000)
  })
})
