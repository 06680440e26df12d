import postgres from 'postgres'
import { describe, expect, it } from 'vitest'

/**
 * The PostgreSQL driver as patched (patches/postgres+3.4.9.patch, docs/decisions/0032): a query
 * sent on a connection whose server side has already gone is refused with CONNECTION_CLOSED.
 * Unpatched, postgres 3.4.9 defers the query's bytes to a timer that then writes to the socket it
 * has let go of, and the TypeError thrown from that timer ends the whole process
 * (porsager/postgres#1208). A reserved connection shows it every time, because the pool cannot
 * swap it for a new one; in a server it was rare, during a database outage (seen once in CI, in
 * host/server/outage.test.ts).
 */
describe('the PostgreSQL driver', () => {
  it.runIf(process.env.TEST_DATABASE_URL)('refuses a query on a connection the server has closed instead of crashing the process', async () => {
    let closed!: () => void
    const closing = new Promise<void>((resolve) => (closed = resolve))
    const sql = postgres(process.env.TEST_DATABASE_URL!, { max: 2, onnotice: () => {}, onclose: () => closed() })
    try {
      const reserved = await sql.reserve()
      const [row] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`
      await sql`select pg_terminate_backend(${row!.pid})`
      // The server's close reaches the driver.
      await closing
      await expect(reserved`select 1`).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' })
      reserved.release()
      // The pool goes on with a new connection.
      expect(await sql`select 1 as one`).toEqual([{ one: 1 }])
    } finally {
      await sql.end({ timeout: 1 })
    }
  })
})
