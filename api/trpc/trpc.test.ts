import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { createContextInner } from './context.ts'
import { createServices } from '../services.ts'
import { type AppRouter, createCaller } from './router.ts'

describe.each(backends)('tRPC at /trpc on %s', (backend) => {
  let server: TestServer
  let client: ReturnType<typeof createTRPCClient<AppRouter>>

  beforeAll(async () => {
    server = await startTestServer(backend)
    client = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${server.url}/trpc` })] })
  })
  afterAll(() => server?.close())

  it('cart.list returns every cart with the total', async () => {
    const { carts, total } = await client.cart.list.query()
    expect(total).toBeGreaterThanOrEqual(24)
    expect(carts).toHaveLength(total)
  })

  it('cart.list filters by category and pages', async () => {
    expect((await client.cart.list.query({ category: 'used' })).carts).toEqual([])
    const page = await client.cart.list.query({ category: 'new', limit: 24, offset: 0 })
    expect(page.carts).toHaveLength(24)
    expect(page.total).toBeGreaterThan(24)
  })

  it('cart.featured returns featured carts, limited on request', async () => {
    expect((await client.cart.featured.query()).length).toBeGreaterThanOrEqual(6)
    expect(await client.cart.featured.query({ limit: 3 })).toHaveLength(3)
  })

  it('cart.bySlug resolves both slug readings', async () => {
    const canonical = await client.cart.bySlug.query({ slug: '2025-evolution-d5-ranger-2-2-plus' })
    const alternative = await client.cart.bySlug.query({ slug: '2025-evolution-d5-ranger-22-plus' })
    expect(alternative).toEqual(canonical)
    expect(canonical).toMatchObject({ title: '2025 Evolution D5 Ranger 2+2 Plus', available: true })
  })

  it('cart.bySlug throws NOT_FOUND naming the slug', async () => {
    const error = await client.cart.bySlug.query({ slug: 'ghost-cart' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TRPCClientError)
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({ code: 'NOT_FOUND', httpStatus: 404 })
    expect((error as Error).message).toBe('No golf cart has the slug "ghost-cart"')
  })

  it('inquiry.submit stores the inquiry and returns its receipt', async () => {
    const receipt = await client.inquiry.submit.mutate({
      firstName: 'Bo',
      lastName: 'Diaz',
      email: 'bo@example.com',
      interest: 'service',
      sourceLabel: 'quote-landing',
    })
    expect(receipt).toMatchObject({ id: expect.any(Number), interest: 'service' })
    const [row] = await server.db.sql`select last_name, source_label from contact_inquiries where id = ${receipt.id}`
    expect(row).toEqual({ lastName: 'Diaz', sourceLabel: 'quote-landing' })
  })

  it('inquiry.submit refuses bad input with one issue per field', async () => {
    const error = (await client.inquiry.submit
      .mutate({ firstName: '', lastName: 'Diaz', email: 'bo@' })
      .catch((e: unknown) => e)) as TRPCClientError<AppRouter>
    expect(error.data?.httpStatus).toBe(400)
    expect(error.shape?.issues).toEqual([
      { path: 'firstName', message: 'First name is required' },
      { path: 'email', message: 'Enter a valid email address, like name@example.com' },
    ])
    expect(JSON.stringify(error.shape)).not.toMatch(/stack/)
  })

  it('answers an unknown procedure with 404 JSON', async () => {
    const res = await fetch(`${server.url}/trpc/cart.nothing`)
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toMatch(/json/)
  })

  it('answers a body over 100 kB with 413', async () => {
    const res = await fetch(`${server.url}/trpc/inquiry.submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'x'.repeat(120 * 1024) }),
    })
    expect(res.status).toBe(413)
  })

  it('can be called without HTTP through the caller', async () => {
    const caller = createCaller(createContextInner(createServices(server.db.sql)))
    expect((await caller.cart.featured({ limit: 1 }))[0]).toMatchObject({ slug: expect.any(String) })
  })
})
