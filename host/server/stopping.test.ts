import { request } from 'node:http'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../api/db/database.ts'
import { migrate } from '../../api/db/migrate.ts'
import { seed } from '../../api/carts/seed.ts'
import { createServices } from '../../api/services.ts'
import { type ServerProcess, startServerProcess } from '../../tests/support/server-process.ts'
import { signIn, staffPassword } from '../../tests/support/staff.ts'
import type { TestServer } from '../../tests/support/test-server.ts'
import { templateDataDir } from '../../tests/support/database-templates.ts'

interface Answer {
  status: number
  body: string
  error?: string
}

/** One request on a connection of its own; `sent` resolves once the whole request has left. */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: (write: (chunk: Buffer) => boolean) => Promise<void> } = {}) {
  let markSent: () => void
  const sent = new Promise<void>((resolve) => (markSent = resolve))
  const answer = new Promise<Answer>((resolve) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      res.on('error', (error) => resolve({ status: res.statusCode ?? 0, body, error: error.message }))
    })
    req.on('error', (error) => resolve({ status: 0, body: '', error: error.message }))
    req.on('finish', () => markSent())
    if (options.body) void options.body((chunk) => req.write(chunk)).then(() => req.end())
    else req.end()
  })
  return { sent, answer }
}

/**
 * PRODUCT.md, "stopping and starting": on SIGTERM the server stops accepting, finishes every
 * request it has received (up to 10 s), then closes the database. Before issue #27 a SIGTERM reset
 * 10-15 of 20 page requests the client had already sent, and a photo upload under way.
 */
// Pages the server renders without the database (CACHE_MB=0: every one is rendered): the event
// loop is busy, and no answer depends on how fast the shared machine's database is.
const paths = ['/rentals', '/services', '/financing', '/about', '/rentals/ocean-county-golf-cart-rentals']

describe('stopping the server with requests in flight', () => {
  let server: ServerProcess
  let cookie: string
  let cartId: number

  beforeAll(async () => {
    const dataDir = templateDataDir('gc-stop-', 'migrated')
    const db = await openDatabase({ dataDir })
    await migrate(db.sql)
    await seed(db.sql)
    await createServices(db.sql).staff.accounts.add('maria', staffPassword)
    ;[{ id: cartId }] = await db.sql<[{ id: number }]>`select id from golf_carts order by id limit 1`
    await db.close()
    // Nothing kept: every page is rendered, so the event loop is busy when the signal comes.
    server = await startServerProcess({ DATA_DIR: dataDir, CACHE_MB: '0' }, 90_000)
    cookie = (await signIn({ url: server.url } as TestServer, 'maria')).cookie!
    // Warm: the renderer and every page's code loaded, as on a server that has been up a while.
    for (const path of paths) expect((await fetch(`${server.url}${path}`)).status).toBe(200)
  }, 120_000)
  afterAll(() => server?.stop('SIGKILL'))

  it('answers 20 page requests and a photo upload that were under way at SIGTERM, then exits 0', async () => {
    // Small, so that processing it (two widths, three formats) stays well inside the 10 s even on
    // a loaded machine: 1200 px took 8 s there.
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 120, b: 90 } } }).jpeg({ quality: 90 }).toBuffer()
    // The upload is under way: its first piece of 16 before the signal, the other 15 once the
    // server has begun to stop.
    let firstPiece: () => void
    const uploadStarted = new Promise<void>((resolve) => (firstPiece = resolve))
    const upload = send(`${server.url}/api/staff/carts/${cartId}/photos`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg', 'content-length': String(photo.length), cookie, origin: server.url },
      body: async (write) => {
        const size = Math.ceil(photo.length / 16)
        write(photo.subarray(0, size))
        firstPiece()
        await logged(server, /"msg":"server stopping"/)
        for (let at = size; at < photo.length; at += size) write(photo.subarray(at, at + size))
      },
    })
    await uploadStarted
    const pages = Array.from({ length: 20 }, (_, i) => send(`${server.url}${paths[i % paths.length]}`))
    await Promise.all(pages.map((page) => page.sent))
    server.child.kill('SIGTERM')

    const answers = await Promise.all(pages.map((page) => page.answer))
    expect(answers.map((a) => a.error ?? a.status)).toEqual(Array(20).fill(200))
    for (const answer of answers) expect(answer.body.trimEnd()).toMatch(/<\/html>$/)
    const uploaded = await upload.answer
    expect(uploaded.error ?? uploaded.status, uploaded.body).toBe(201)
    expect(JSON.parse(uploaded.body)).toMatchObject({ cartId })

    expect(await server.stop()).toBe(0)
    expect(server.output()).toMatch(/"msg":"server stopped"/)
    expect(server.output()).not.toMatch(/connectionsCut/)
  }, 60_000)

  it('answers a lead still arriving at the stop limit with a 503 and a sentence, not a reset, and stores nothing of it', async () => {
    const dataDir = templateDataDir('gc-stop-late-')
    // The limit short (STOP_LIMIT_MS): what is under test is the answer at the limit, not its 10 s.
    const late = await startServerProcess({ DATA_DIR: dataDir, STOP_LIMIT_MS: '500' }, 90_000)
    try {
      const lead = Buffer.from(JSON.stringify({ firstName: 'Slow', lastName: 'Line', email: 'slow@example.com', message: 'A six-seater for July' }))
      let firstPiece: () => void
      const started = new Promise<void>((resolve) => (firstPiece = resolve))
      let answered: () => void
      const held = new Promise<void>((resolve) => (answered = resolve))
      // All but its last byte, the rest held back until the answer: still arriving at the limit.
      const upload = send(`${late.url}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(lead.length) },
        body: async (write) => {
          write(lead.subarray(0, lead.length - 1))
          firstPiece()
          await held
        },
      })
      await started
      late.child.kill('SIGTERM')
      const answer = await upload.answer
      answered!()
      expect(answer.error ?? answer.status, answer.body).toBe(503)
      expect(JSON.parse(answer.body)).toEqual({
        message: 'The server is restarting and this request had not all arrived in time: nothing of it was stored or sent. Send it again in a few seconds.',
        issues: [],
      })
      expect(await late.stop()).toBe(0)
      expect(late.output()).toMatch(/"msg":"server stopped".*"requestsAnswered503":1/)
    } finally {
      await late.stop('SIGKILL')
    }
    const db = await openDatabase({ dataDir })
    try {
      expect(await db.sql`select 1 from contact_inquiries where email = 'slow@example.com'`).toHaveLength(0)
    } finally {
      await db.close()
    }
  }, 90_000)
})

/** Resolves once the server has written a line that matches `pattern`. */
function logged(server: ServerProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!pattern.test(server.output())) return
      server.child.stdout?.off('data', check)
      resolve()
    }
    server.child.stdout?.on('data', check)
    check()
  })
}
