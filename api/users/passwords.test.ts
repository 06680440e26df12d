import { randomBytes, scryptSync } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { hashPassword, needsRehash, scryptParameters, usePasswordParameters, verifyAgainstNobody, verifyPassword } from './passwords.ts'

/**
 * Staff password hashes (docs/decisions/0009-staff-sign-in.md), at the real parameters: the
 * other test files make lighter hashes (tests/support/lighter-work.ts).
 */
describe('password hashes', () => {
  beforeAll(() => usePasswordParameters(scryptParameters))

  it('are salted scrypt with their parameters written down, and check the password', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')])
    expect(a).toMatch(/^scrypt\$N=16384,r=8,p=5\$[\w-]{22}\$[\w-]{43}$/)
    expect(a).not.toBe(b)
    expect(await verifyPassword('correct horse battery', a)).toBe(true)
    expect(await verifyPassword('correct horse batterY', a)).toBe(false)
    expect(needsRehash(a)).toBe(false)
  })

  it('still check a hash made before the parameters were written down, and ask for it to be made again', async () => {
    const salt = randomBytes(16)
    const legacy = `scrypt$${salt.toString('base64url')}$${scryptSync('correct horse battery', salt, 64).toString('base64url')}`
    expect(await verifyPassword('correct horse battery', legacy)).toBe(true)
    expect(needsRehash(legacy)).toBe(true)
  })

  it('check a hash made with lighter parameters (as the tests\' own are), and ask for it to be made again at the real ones', async () => {
    usePasswordParameters({ N: 2 ** 10, r: 8, p: 1 })
    const light = await hashPassword('correct horse battery')
    usePasswordParameters(scryptParameters)
    expect(light).toMatch(/^scrypt\$N=1024,r=8,p=1\$/)
    expect(await verifyPassword('correct horse battery', light)).toBe(true)
    expect(needsRehash(light)).toBe(true)
    expect(needsRehash(await hashPassword('correct horse battery'))).toBe(false)
  })

  it('refuse stored text that is not a hash, or asks for absurd work', async () => {
    expect(await verifyPassword('x', 'plain text')).toBe(false)
    expect(await verifyPassword('x', 'scrypt$N=1073741824,r=8,p=1$c2FsdA$aGFzaA')).toBe(false)
  })

  it('answer an unknown user false, after checking a hash all the same', async () => {
    expect(await verifyAgainstNobody('correct horse battery')).toBe(false)
  })
})
