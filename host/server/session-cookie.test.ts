import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ambiguousSessionMessage } from '../../api/staff/cookie.ts'
import { procedureAccess, publicStaffRoutes } from '../../domain/staff-access.ts'
import { plainStaffRoutes } from '../../api/staff/routes.ts'
import { consoleRoutes } from '../staff/render.tsx'
import { addStaff, signIn } from '../../tests/support/staff.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * Cookie tossing and cross-origin reads of staff answers (issue #26, point 8). Over plain HTTP,
 * another port on the same host can set a `gc_staff` cookie for `/staff` that the browser sends
 * before the real one: a request with more than one session cookie is refused, never one picked.
 * And no staff answer carries `Access-Control-Allow-Origin: *`.
 */
let server: TestServer
let cookie: string
beforeAll(async () => {
  server = await startTestServer('pglite', { LOG_LEVEL: 'silent' }, { site: true })
  await addStaff(server)
  cookie = (await signIn(server)).cookie!
}, 120_000)
afterAll(() => server?.close())

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { redirect: 'manual', headers })
/** Every console page and staff route of the role table, with a cart and lead id filled in. */
const staffRoutes = [...plainStaffRoutes, ...consoleRoutes].map(({ method, path }) => ({ method, path: path.replace(/\{[^}]+\}/g, '1') }))

describe('more than one staff session cookie', () => {
  it('is refused (400, a sentence) on the console, the staff API and staff procedures, whichever comes first', async () => {
    const tossed = 'gc_staff=tossed-by-another-port'
    for (const both of [`${tossed}; ${cookie}`, `${cookie}; ${tossed}`]) {
      for (const path of ['/staff', '/staff/leads', '/trpc/staff.me', '/api/staff/inventory.csv', '/trpc/staff%2Eme']) {
        const res = await get(path, { cookie: both })
        expect(res.status, `${path} with ${both}`).toBe(400)
        expect(res.headers.get('cache-control')).toContain('no-store')
        expect(((await res.json()) as { message: string }).message).toBe(ambiguousSessionMessage)
      }
      // Opened in a browser, the console says it as a page, the sign-in page too.
      for (const path of ['/staff', '/staff/login']) {
        const page = await get(path, { cookie: both, accept: 'text/html' })
        expect(page.status).toBe(400)
        expect(await page.text()).toContain(ambiguousSessionMessage)
      }
      const signInAgain = await signIn(server, 'maria', undefined, { cookie: both })
      expect(signInAgain.status).toBe(400)
    }
    expect(ambiguousSessionMessage).toMatch(/HTTPS/)
  })

  it('one session cookie still works, and public pages and reads do not care', async () => {
    expect((await get('/trpc/staff.me', { cookie })).status).toBe(200)
    expect((await get('/staff', { cookie })).status).toBe(200)
    const two = `gc_staff=a; gc_staff=b`
    for (const path of ['/', '/inventory', '/trpc/cart.list', '/api/golf-carts', '/images/carts/models/evolution-d5.svg']) {
      expect((await get(path, { cookie: two })).status, path).not.toBe(400)
    }
  })
})

describe('no staff answer may be read from another origin', () => {
  const origin = 'https://evil.test'

  it('no staff procedure answers Access-Control-Allow-Origin (signed in or not, a query, a preflight)', async () => {
    const names = Object.keys(procedureAccess)
    expect(names.length).toBeGreaterThan(20)
    for (const name of names) {
      for (const headers of [{ origin }, { origin, cookie }] as Record<string, string>[]) {
        const res = await get(`/trpc/${name}`, headers)
        expect(res.headers.get('access-control-allow-origin'), `GET ${name}`).toBeNull()
      }
      const preflight = await fetch(`${server.url}/trpc/${name}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET' } })
      expect(preflight.headers.get('access-control-allow-origin'), `OPTIONS ${name}`).toBeNull()
      const post = await fetch(`${server.url}/trpc/${name}`, { method: 'POST', headers: { origin, cookie, 'content-type': 'application/json' }, body: '{}' })
      expect(post.headers.get('access-control-allow-origin'), `POST ${name}`).not.toBe('*')
    }
  })

  it('no console page or staff route does', async () => {
    for (const { method, path } of [...staffRoutes, ...publicStaffRoutes.map((route) => { const [method, path] = route.split(' ') as [string, string]; return { method, path: path.replace(/\{[^}]+\}/g, 'x') } })]) {
      for (const headers of [{ origin }, { origin, cookie }] as Record<string, string>[]) {
        const res = await fetch(`${server.url}${path}`, { method, redirect: 'manual', headers })
        expect(res.headers.get('access-control-allow-origin'), `${method} ${path}`).not.toBe('*')
        await res.arrayBuffer()
      }
    }
  })

  it('public reads still do, for partners\' widgets', async () => {
    expect((await get('/trpc/cart.list', { origin })).headers.get('access-control-allow-origin')).toBe('*')
    expect((await get('/api/golf-carts', { origin })).headers.get('access-control-allow-origin')).toBe('*')
  })
})
