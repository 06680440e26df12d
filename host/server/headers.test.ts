import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parsePage } from '../../tests/support/html.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * Security headers on every kind of answer (issue #7, point 2), and the cross-origin uses that
 * must keep working under them: partner pages load our widget files and read the API.
 * That the pages' own scripts and styles run under the policy is proven in Chromium
 * (tests/browser/site.test.ts fails on any console error, which is how Chromium reports a
 * refused script or style).
 */
let server: TestServer
beforeAll(async () => {
  // One trusted proxy, so a request can say it arrived over HTTPS the way a TLS terminator would.
  server = await startTestServer('pglite', { LOG_LEVEL: 'silent', TRUST_PROXY: '1' }, { site: true })
})
afterAll(() => server?.close())

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers, redirect: 'manual' })

function directives(policy: string | null): Map<string, string[]> {
  expect(policy).toBeTruthy()
  return new Map(
    policy!.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/)
      return [name!, values] as const
    }),
  )
}

const pages = ['/', '/inventory', '/vehicle/2025-evolution-d6-max-gt4', '/rentals', '/ocean-county-golf-cart-rentals', '/contact', '/no-such-page']
const everything = [...pages, '/api/golf-carts', '/trpc/cart.featured', '/widgets/gc-widgets.js', '/images/logo.svg', '/sitemap.xml', '/healthz']

describe('headers on every answer', () => {
  it.each(everything)('%s forbids sniffing and keeps the referrer to the origin', async (path) => {
    const res = await get(path)
    expect(res.status).toBeLessThan(500)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(res.headers.get('x-powered-by')).toBeNull()
  })

  it('sends HSTS only when the request came over HTTPS', async () => {
    for (const path of ['/', '/api/golf-carts', '/widgets/gc-widgets.js']) {
      expect((await get(path)).headers.get('strict-transport-security'), path).toBeNull()
      const secure = await get(path, { 'x-forwarded-proto': 'https' })
      expect(secure.headers.get('strict-transport-security'), path).toBe('max-age=31536000; includeSubDomains')
    }
  })
})

describe('the pages\' Content-Security-Policy', () => {
  it.each(pages)('%s allows only the site itself, and exactly its own inline tags by their hashes', async (path) => {
    const [first, second] = [await get(path), await get(path)]
    const policy = directives(first.headers.get('content-security-policy'))
    const [scriptHash, ...otherScripts] = policy.get('script-src')!.filter((v) => v !== "'self'")
    const [styleHash, ...otherStyles] = policy.get('style-src')!.filter((v) => v !== "'self'")
    expect(policy.get('default-src')).toEqual(["'self'"])
    expect(policy.get('script-src')).toEqual(["'self'", scriptHash])
    expect(policy.get('style-src')).toEqual(["'self'", styleHash])
    expect([...otherScripts, ...otherStyles]).toEqual([])
    expect(policy.get('object-src')).toEqual(["'none'"])
    expect(policy.get('base-uri')).toEqual(["'self'"])
    expect(policy.get('form-action')).toEqual(["'self'"])
    expect(policy.get('frame-ancestors')).toEqual(["'self'"])
    for (const values of policy.values()) {
      expect(values).not.toContain("'unsafe-inline'")
      expect(values).not.toContain("'unsafe-eval'")
      expect(values).not.toContain("'unsafe-hashes'")
      expect(values).not.toContain("'strict-dynamic'")
      expect(values).not.toContain('*')
      expect(values.filter((v) => v.startsWith("'nonce-"))).toEqual([])
    }
    // The same page is the same bytes under the same policy every time, so it can be kept as bytes.
    const html = await first.text()
    expect(await second.text()).toBe(html)
    expect(second.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'))

    const page = parsePage(first.status, html)
    // Data blocks (hydration state, JSON-LD) never run, so the policy does not govern them;
    // everything inline that would run or style the page is allowed by its hash, and nothing else.
    const isData = (tag: Element) => tag.tagName === 'SCRIPT' && ['application/json', 'application/ld+json'].includes(tag.getAttribute('type') ?? '')
    const inline = [...page.document.querySelectorAll('script:not([src]), style')].filter((tag) => !isData(tag))
    expect(inline.map((tag) => tag.tagName).sort()).toEqual(['SCRIPT', 'STYLE'])
    const hashOf = (tag: Element) => `'sha256-${createHash('sha256').update(tag.textContent ?? '').digest('base64')}'`
    expect(hashOf(inline.find((tag) => tag.tagName === 'SCRIPT')!)).toBe(scriptHash)
    // The stylesheet's own bytes, from the page as sent: parsePage leaves the stylesheet's text out.
    const stylesheet = /<style[^>]*>([^]*?)<\/style>/.exec(html)?.[1] ?? ''
    expect(stylesheet.length).toBeGreaterThan(1000)
    expect(`'sha256-${createHash('sha256').update(stylesheet).digest('base64')}'`).toBe(styleHash)
    expect(page.document.querySelectorAll('[style], [onclick], [onload], [onerror]')).toHaveLength(0)
    // Every other script, style and image comes from the site itself.
    for (const tag of page.document.querySelectorAll('script[src], link[rel="stylesheet"], link[rel="modulepreload"], img')) {
      const url = tag.getAttribute('src') ?? tag.getAttribute('href')!
      expect(url, tag.outerHTML.slice(0, 80)).toMatch(/^\/(?!\/)|^data:/)
    }
  })

  it('upgrades insecure requests when the page was reached over HTTPS', async () => {
    const secure = await get('/', { 'x-forwarded-proto': 'https' })
    expect(directives(secure.headers.get('content-security-policy')).has('upgrade-insecure-requests')).toBe(true)
    expect(directives((await get('/')).headers.get('content-security-policy')).has('upgrade-insecure-requests')).toBe(false)
  })

  it('gives API answers a policy under which nothing runs, even if opened as a page', async () => {
    for (const path of ['/api/golf-carts', '/trpc/cart.featured', '/api/nothing-here']) {
      expect((await get(path)).headers.get('content-security-policy'), path).toBe("default-src 'none'; frame-ancestors 'none'")
    }
  })
})

describe('cross-origin uses that must keep working', () => {
  const partner = { origin: 'https://partner.example' }

  it('lets any page load the widget script, and cache it', async () => {
    const res = await get('/widgets/gc-widgets.js', partner)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/javascript/)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
  })

  it('lets any page show the cart images', async () => {
    const res = await get('/images/logo.svg', partner)
    expect(res.status).toBe(200)
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
  })

  it('lets any page read the API, and no foreign page send a lead', async () => {
    const read = await get('/api/golf-carts/featured', partner)
    expect(read.status).toBe(200)
    expect(read.headers.get('access-control-allow-origin')).toBe('*')
    expect(read.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
    const post = await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { ...partner, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Foreign', lastName: 'Page', email: 'foreign@example.com' }),
    })
    expect(post.status).toBe(403)
    expect(post.headers.get('access-control-allow-origin')).toBeNull()
  })
})
