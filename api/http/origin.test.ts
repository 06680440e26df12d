import { describe, expect, it } from 'vitest'
import { originVerdict } from './origin.ts'

/** The one origin rule (PRODUCT.md "Origins"), table by table. */
const accepted = ['https://carts.example', 'https://partner.example']

describe('the origin rule', () => {
  it.each([
    ['the site itself', 'https://carts.example'],
    ['an origin in ALLOWED_ORIGINS', 'https://partner.example'],
    ['an accepted origin spelled with its default port and capitals', 'https://Partner.Example:443'],
  ])('lets %s through', (_, origin) => {
    expect(originVerdict({ origin }, accepted)).toEqual({ allowed: true })
  })

  it.each([
    ['another site', 'https://evil.test'],
    ['a sandboxed frame or a page that hides its referrer', 'null'],
    ['the right host over the wrong scheme', 'http://carts.example'],
    ['a sibling subdomain', 'https://www.carts.example'],
    ['something that is not an origin', 'javascript:alert(1)'],
  ])('refuses %s, naming it', (_, origin) => {
    expect(originVerdict({ origin }, accepted)).toEqual({
      allowed: false,
      origin,
      message: `Requests from ${origin} are not accepted by this site.`,
    })
  })

  it('lets Origin decide even when Sec-Fetch-Site says cross-site (a partner embed is cross-site)', () => {
    expect(originVerdict({ origin: 'https://partner.example', secFetchSite: 'cross-site' }, accepted)).toEqual({ allowed: true })
    expect(originVerdict({ origin: 'https://evil.test', secFetchSite: 'same-origin' }, accepted).allowed).toBe(false)
  })

  it('without Origin, passes same-origin and typed-in requests and refuses cross-site ones', () => {
    expect(originVerdict({ secFetchSite: 'same-origin' }, accepted).allowed).toBe(true)
    expect(originVerdict({ secFetchSite: 'none' }, accepted).allowed).toBe(true)
    expect(originVerdict({ secFetchSite: 'cross-site', referer: 'https://evil.test/page?x=1' }, accepted)).toMatchObject({
      allowed: false,
      origin: 'https://evil.test',
    })
    expect(originVerdict({ secFetchSite: 'cross-site' }, accepted)).toMatchObject({ allowed: false, origin: 'another site' })
  })

  it('without Origin, judges a same-site request by the page in its Referer', () => {
    expect(originVerdict({ secFetchSite: 'same-site', referer: 'https://carts.example/contact' }, accepted).allowed).toBe(true)
    expect(originVerdict({ secFetchSite: 'same-site', referer: 'https://blog.carts.example/' }, accepted)).toMatchObject({
      allowed: false,
      origin: 'https://blog.carts.example',
    })
    expect(originVerdict({ secFetchSite: 'same-site' }, accepted).allowed).toBe(false)
  })

  it('lets a caller that is not a browser through, whatever Referer it names', () => {
    expect(originVerdict({}, accepted)).toEqual({ allowed: true })
    expect(originVerdict({ origin: '', secFetchSite: '  ' }, accepted)).toEqual({ allowed: true })
    expect(originVerdict({ referer: 'https://elsewhere.example/landing' }, accepted)).toEqual({ allowed: true })
  })

  it('shows a refused origin harmlessly: no control characters, at most 200 characters', () => {
    const verdict = originVerdict({ origin: `https://evil.test\u001b[2J${'x'.repeat(500)}` }, accepted)
    expect(verdict.allowed).toBe(false)
    if (verdict.allowed) return
    expect(verdict.origin).not.toMatch(/[\u0000-\u001f]/)
    expect(verdict.origin.length).toBe(200)
  })
})
