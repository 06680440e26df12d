import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

const lead = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com' }

describe.each(backends)('REST API on %s', (backend) => {
  let server: TestServer
  const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init)
  const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })

  beforeAll(async () => {
    server = await startTestServer(backend)
  })
  afterAll(() => server?.close())

  describe('GET /api/golf-carts', () => {
    it('returns every seeded cart as a bare array with the contract\'s fields and the status', async () => {
      const res = await get('/api/golf-carts')
      expect(res.status).toBe(200)
      const carts = await res.json()
      expect(Array.isArray(carts)).toBe(true)
      expect(carts.length).toBeGreaterThanOrEqual(24)
      expect(res.headers.get('x-total-count')).toBe(String(carts.length))
      for (const cart of carts) {
        expect(Object.keys(cart).sort()).toEqual(
          ['category', 'description', 'id', 'imageUrl', 'listedAt', 'location', 'photo', 'price', 'slug', 'specs', 'status', 'title'].sort(),
        )
        expect(typeof cart.price).toBe('number')
      }
    })

    it('treats an omitted, empty or "all" category as every cart', async () => {
      const all = await (await get('/api/golf-carts')).json()
      expect(await (await get('/api/golf-carts?category=')).json()).toEqual(all)
      expect(await (await get('/api/golf-carts?category=all')).json()).toEqual(all)
    })

    it('filters by category and answers [] for an unknown one', async () => {
      const newCarts = await (await get('/api/golf-carts?category=new')).json()
      expect(newCarts.length).toBeGreaterThan(0)
      expect(newCarts.every((c: { category: string }) => c.category === 'new')).toBe(true)
      const res = await get('/api/golf-carts?category=spaceships')
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual([])
    })

    it('pages with limit and offset and reports the total', async () => {
      const all = await (await get('/api/golf-carts')).json()
      const res = await get('/api/golf-carts?limit=5&offset=10')
      expect(await res.json()).toEqual(all.slice(10, 15))
      expect(res.headers.get('x-total-count')).toBe(String(all.length))
    })

    it.each([
      ['limit=abc', 'limit'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=2.5', 'limit'],
      ['offset=-1', 'offset'],
      ['limit=1&limit=2', 'limit'],
      ['category=a&category=b', 'category'],
    ])('refuses ?%s with 400 and the field named', async (query, field) => {
      const res = await get(`/api/golf-carts?${query}`)
      expect(res.status).toBe(400)
      const body = await res.json()
      expect(body.message).toMatch(/^Invalid input/)
      expect(body.issues.map((i: { path: string }) => i.path)).toEqual([field])
    })
  })

  describe('GET /api/golf-carts/featured', () => {
    it('returns only featured carts, at least six', async () => {
      const featured = await (await get('/api/golf-carts/featured')).json()
      expect(featured.length).toBeGreaterThanOrEqual(6)
      const bySlug = await Promise.all(
        featured.map(async (c: { slug: string }) => (await get(`/api/golf-carts/slug/${c.slug}`)).json()),
      )
      expect(bySlug.every((c: { featured: boolean }) => c.featured)).toBe(true)
    })

    it('honours a limit', async () => {
      expect(await (await get('/api/golf-carts/featured?limit=3')).json()).toHaveLength(3)
    })
  })

  describe('GET /api/golf-carts/slug/:slug', () => {
    it('returns one cart object', async () => {
      const res = await get('/api/golf-carts/slug/2025-evolution-d6-max-gt4')
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({
        title: '2025 Evolution D6 Max GT4',
        slug: '2025-evolution-d6-max-gt4',
        category: 'new',
        price: expect.any(Number),
        imageUrl: '/images/carts/2025-evolution-d6-max-gt4.svg',
        description: expect.any(String),
      })
    })

    it('finds a cart by the alternative slug reading and names its canonical slug', async () => {
      const res = await get('/api/golf-carts/slug/2025-evolution-d5-maverick-22')
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ slug: '2025-evolution-d5-maverick-2-2' })
    })

    it('answers 404 with the error shape for an unknown slug', async () => {
      const res = await get('/api/golf-carts/slug/no-such-cart')
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ message: 'No golf cart has the slug "no-such-cart"', issues: [] })
    })
  })

  describe('POST /api/contact', () => {
    it('stores the inquiry with its source and answers 201 with id and time', async () => {
      // Whole seconds: the database's clock may be written to the millisecond, ours read to it.
      const before = Math.floor(Date.now() / 1000) * 1000
      const res = await postJson('/api/contact', {
        ...lead,
        phone: '(609) 555-0123',
        interest: 'rentals',
        message: 'Two 6 seaters for a wedding in Cape May',
        sourceUrl: 'https://partner.example/rentals',
        sourceLabel: 'partner-rentals',
      })
      expect(res.status).toBe(201)
      const receipt = await res.json()
      expect(receipt).toEqual({ id: expect.any(Number), createdAt: expect.any(String), interest: 'rentals' })
      // The time it was stored: between the request and its answer, however long that took.
      expect(Date.parse(receipt.createdAt)).toBeGreaterThanOrEqual(before)
      expect(Date.parse(receipt.createdAt)).toBeLessThanOrEqual(Date.now() + 1000)
      const [row] = await server.db.sql`
        select first_name, email, phone, interest, message, source_url, source_label
        from contact_inquiries where id = ${receipt.id}
      `
      expect(row).toEqual({
        firstName: 'Ann',
        email: 'ann@example.com',
        phone: '(609) 555-0123',
        interest: 'rentals',
        message: 'Two 6 seaters for a wedding in Cape May',
        sourceUrl: 'https://partner.example/rentals',
        sourceLabel: 'partner-rentals',
      })
    })

    it('takes the source page from the Referer when the body names none', async () => {
      const res = await postJson('/api/contact', lead, { referer: 'https://dealer.example/contact' })
      const { id } = await res.json()
      const [row] = await server.db.sql`select source_url from contact_inquiries where id = ${id}`
      expect(row?.sourceUrl).toBe('https://dealer.example/contact')
    })

    it('stores trimmed names and an empty interest as none', async () => {
      const res = await postJson('/api/contact', { ...lead, firstName: '  Ann  ', interest: '' })
      const { id, interest } = await res.json()
      expect(interest).toBeNull()
      const [row] = await server.db.sql`select first_name, interest from contact_inquiries where id = ${id}`
      expect(row).toEqual({ firstName: 'Ann', interest: null })
    })

    it('refuses bad fields with 400 and one issue per field, storing nothing', async () => {
      const [before] = await server.db.sql`select count(*)::int as n from contact_inquiries`
      const res = await postJson('/api/contact', { firstName: '   ', lastName: 'Lee', email: 'not-an-email', interest: 'boats' })
      expect(res.status).toBe(400)
      const body = await res.json()
      expect(body.issues).toEqual([
        { path: 'firstName', message: 'First name is required' },
        { path: 'email', message: 'Enter a valid email address, like name@example.com' },
        { path: 'interest', message: 'Interest must be one of: denago, evolution, swift-ev, rentals, service' },
      ])
      expect(body.message).toContain('First name is required')
      const [after] = await server.db.sql`select count(*)::int as n from contact_inquiries`
      expect(after?.n).toBe(before?.n)
    })

    it('refuses a body that is not an object', async () => {
      for (const body of ['[]', '"hello"', 'null', '42']) {
        const res = await postJson('/api/contact', body)
        expect(res.status).toBe(400)
        expect(await res.json()).toMatchObject({ message: expect.stringMatching(/^Invalid input/) })
      }
    })

    it('answers broken JSON with 400 JSON, not HTML', async () => {
      const res = await postJson('/api/contact', '{"firstName": "Ann",')
      expect(res.status).toBe(400)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(await res.json()).toEqual({ message: 'The request body is not valid JSON', issues: [] })
    })

    it('answers a body over 100 kB with 413', async () => {
      const res = await postJson('/api/contact', { ...lead, message: 'x'.repeat(110 * 1024) })
      expect(res.status).toBe(413)
      expect(await res.json()).toEqual({ message: 'The request body is larger than 100 kB', issues: [] })
    })

    it('answers a body that is not JSON with 415', async () => {
      const res = await fetch(`${server.url}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'hello',
      })
      expect(res.status).toBe(415)
      expect((await res.json()).issues).toEqual([])
    })
  })

  describe('errors', () => {
    it('answers an unknown /api path with 404 JSON', async () => {
      const res = await get('/api/no/such/thing')
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(await res.json()).toEqual({ message: 'No API endpoint at GET /api/no/such/thing', issues: [] })
    })

    it('answers a wrong method with 405 and Allow', async () => {
      const res = await fetch(`${server.url}/api/contact`, { method: 'DELETE' })
      expect(res.status).toBe(405)
      expect(res.headers.get('allow')).toBe('POST')
      expect((await res.json()).message).toBe('DELETE is not allowed here; use POST')
    })

    it('never sends a stack trace', async () => {
      const responses = await Promise.all([
        postJson('/api/contact', '{'),
        get('/api/golf-carts?limit=zzz'),
        get('/api/golf-carts/slug/x'),
      ])
      for (const res of responses) {
        const text = await res.text()
        expect(text).not.toMatch(/at .+\.(ts|js):\d+|node_modules|stack/i)
      }
    })
  })

  describe('GET /healthz and /readyz', () => {
    it('answers 200 to both while the database answers (api/http/health.test.ts has the failures)', async () => {
      const res = await get('/healthz')
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ status: 'ok' })
      expect((await get('/readyz')).status).toBe(200)
    })
  })

  describe('request log', () => {
    it('writes one structured line per request without contact details or query values', async () => {
      const secret = { firstName: 'Zelda', lastName: 'Quartermain', email: 'zelda.q@example.org', phone: '(609) 555-0199', message: 'my secret plans' }
      await postJson('/api/contact', secret)
      await get('/api/golf-carts?category=zelda.q%40example.org')
      const lines = server.logs.filter((l) => l.msg === 'request')
      expect(lines.length).toBeGreaterThan(0)
      const last = lines.at(-1)!
      expect(last).toMatchObject({ level: 'info', method: 'GET', path: '/api/golf-carts', status: 200 })
      expect(typeof last.ms).toBe('number')
      const everything = JSON.stringify(server.logs)
      for (const value of ['Zelda', 'Quartermain', 'zelda.q', '555-0199', 'secret plans']) {
        expect(everything).not.toContain(value)
      }
    })
  })
})
