import { describe, expect, it } from 'vitest'
import { checkPhotoSource, isInternalAddress, type PhotoSourcePolicy } from './photo-sources.ts'

const policy = (resolved: string[], allowedHosts = ['photos.example']): PhotoSourcePolicy => ({
  siteUrl: 'https://carts.example',
  allowedHosts,
  resolve: async () => resolved,
})

describe('where an imported photo may come from', () => {
  it.each([
    '127.0.0.1', '127.8.8.8', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.10', '169.254.169.254',
    '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1',
    '::ffff:10.0.0.1', '64:ff9b::7f00:1', 'not an address',
  ])('%s is internal', (address) => {
    expect(isInternalAddress(address)).toBe(true)
  })

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:93.184.215.14'])('%s is public', (address) => {
    expect(isInternalAddress(address)).toBe(false)
  })

  it('takes the site\'s own photos by path, without fetching them', async () => {
    expect(await checkPhotoSource('https://carts.example/images/carts/a.png', policy([]), { filesAllowed: false })).toEqual({
      kind: 'site',
      path: '/images/carts/a.png',
    })
  })

  it('accepts an allowed host whose every address is public, and names the address to connect to', async () => {
    expect(await checkPhotoSource('https://photos.example/a.jpg', policy(['93.184.215.14']), { filesAllowed: false })).toEqual({
      kind: 'remote',
      url: 'https://photos.example/a.jpg',
      address: '93.184.215.14',
    })
  })

  it('refuses an allowed host that resolves to a private, loopback or link-local address', async () => {
    for (const address of ['10.0.0.5', '127.0.0.1', '169.254.169.254', 'fe80::1']) {
      const answer = await checkPhotoSource('https://photos.example/a.jpg', policy(['93.184.215.14', address]), { filesAllowed: false })
      expect(answer, address).toMatch(/internal address/)
    }
  })

  it('resolves names for real: an allowed "localhost" is refused as loopback', async () => {
    const answer = await checkPhotoSource('http://localhost:8080/a.jpg', { siteUrl: 'https://carts.example', allowedHosts: ['localhost:8080'] }, { filesAllowed: false })
    expect(answer).toMatch(/internal address \((127\.0\.0\.1|::1)\)/)
  })

  it('refuses hosts not on the list, addresses written as numbers, other schemes and credentials', async () => {
    const check = (reference: string) => checkPhotoSource(reference, policy(['93.184.215.14']), { filesAllowed: false })
    expect(await check('https://elsewhere.example/a.jpg')).toMatch(/elsewhere\.example is not allowed/)
    expect(await check('http://169.254.169.254/latest/meta-data')).toMatch(/not allowed/)
    expect(await check('file:///etc/passwd')).toMatch(/http or https/)
    expect(await check('https://user:pw@photos.example/a.jpg')).toMatch(/user name or password/)
  })

  it('takes file names only where there is a folder for them (the command line)', async () => {
    expect(await checkPhotoSource('cart-1.jpg', policy([]), { filesAllowed: true })).toEqual({ kind: 'file', name: 'cart-1.jpg' })
    expect(await checkPhotoSource('cart-1.jpg', policy([]), { filesAllowed: false })).toMatch(/upload photos instead/)
    expect(await checkPhotoSource('../secret.jpg', policy([]), { filesAllowed: true })).toMatch(/beside the CSV file/)
  })
})
