import { migrate } from '../../api/db/migrate.ts'
import { seed } from '../../api/carts/seed.ts'
import { createServices } from '../../api/services.ts'
import { startServerProcess } from '../../tests/support/server-process.ts'
import { signIn, staffClient, staffPassword } from '../../tests/support/staff.ts'
import { createTestDatabase } from '../../tests/support/test-database.ts'
import type { TestServer } from '../../tests/support/test-server.ts'

/**
 * How soon a change made through one server process is served by another (PRODUCT.md: a change is
 * on every process within a second), the latency the tests of two processes do not time
 * (api/staff/featured-two-processes.test.ts, host/server/several-processes.test.ts,
 * api/deposits/hold-two-processes.test.ts): they prove the other process learns of the change by
 * the database's signal; this measures how fast. Two production server processes over one
 * PostgreSQL database; the other process keeps each cart's answer (`/api/golf-carts/slug/…`) and
 * vehicle page, then a price is changed through the first one's console procedure, and the other
 * is asked every 5 ms until it serves the new price. Measured from the change's answer.
 */
export async function propagation(adminUrl: string, changes = 30): Promise<string> {
  process.env.TEST_DATABASE_URL ??= adminUrl
  const db = await createTestDatabase('postgres')
  await migrate(db.sql)
  await seed(db.sql)
  await createServices(db.sql).staff.accounts.add('maria', staffPassword)
  const env = { DATABASE_URL: db.url!, LOG_LEVEL: 'info' }
  const [writer, reader] = await Promise.all([startServerProcess(env, 90_000), startServerProcess(env, 90_000)])
  try {
    const answer = await signIn({ url: writer.url } as TestServer)
    const staff = staffClient({ url: writer.url } as TestServer, answer.cookie, writer.url)
    const carts = (await (await fetch(`${reader.url}/api/golf-carts?limit=${changes}`)).json()) as { id: number; slug: string; price: number }[]
    const api: number[] = []
    const pages: number[] = []
    for (const cart of carts) {
      const apiUrl = `${reader.url}/api/golf-carts/slug/${cart.slug}`
      const pageUrl = `${reader.url}/vehicle/${cart.slug}`
      // Kept by the other process first, as a visitor's earlier visit leaves them.
      for (let i = 0; i < 2; i++) await Promise.all([fetch(apiUrl).then((r) => r.text()), fetch(pageUrl).then((r) => r.text())])
      const price = cart.price - 1
      const shown = `$${price.toLocaleString('en-US')}`
      await staff.staff.cart.setPrice.mutate({ id: cart.id, price })
      const answered = performance.now()
      const until = async (served: () => Promise<boolean>) => {
        while (!(await served())) {
          if (performance.now() - answered > 30_000) throw new Error(`${cart.slug}: not served by the other process after 30 s`)
          await new Promise((resolve) => setTimeout(resolve, 5))
        }
        return performance.now() - answered
      }
      const [apiMs, pageMs] = await Promise.all([
        until(async () => ((await (await fetch(apiUrl)).json()) as { price: number }).price === price),
        until(async () => (await (await fetch(pageUrl)).text()).includes(shown)),
      ])
      api.push(apiMs)
      pages.push(pageMs)
    }
    const row = (what: string, ms: number[]) => {
      const sorted = [...ms].sort((a, b) => a - b)
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
      return `| ${what} | ${ms.length} | ${Math.round(at(0.5))} ms | ${Math.round(at(0.9))} ms | ${Math.round(sorted.at(-1)!)} ms |`
    }
    return [
      '| served by the other process | changes | median | 90th percentile | slowest |',
      '| --- | ---: | ---: | ---: | ---: |',
      row('the cart over REST', api),
      row('its vehicle page', pages),
    ].join('\n')
  } finally {
    await Promise.all([writer.stop(), reader.stop()])
    await db.close()
  }
}
