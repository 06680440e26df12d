import { migrate } from '../../api/db/migrate.ts'
import { createUserStore } from '../../api/users/user-store.ts'
import { type ServerProcess, startServerProcess } from '../support/server-process.ts'
import { staffPassword } from '../support/staff.ts'
import { createTestDatabase } from '../support/test-database.ts'
import { expect, serverStartMs, signedInState, test as base } from './fixtures.ts'

/**
 * Two server processes on one PostgreSQL database (PRODUCT.md, "When one machine is not
 * enough"): a price changed in the console of one is on the other's vehicle page, told by the
 * database's notice (LISTEN/NOTIFY, decision 0012): the other's kept answers would otherwise live
 * an hour here (CART_CACHE_MS), so the new price seen at all is the notice's doing. How soon it
 * comes is a duration, not this test's business. The embedded database serves one process only,
 * so this runs on PostgreSQL alone.
 */
const test = base.extend<object, { processes: { first: ServerProcess; second: ServerProcess } }>({
  processes: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const db = await createTestDatabase('postgres')
      await migrate(db.sql)
      await createUserStore(db.sql).add('maria', staffPassword)
      const env = { DATABASE_URL: db.url!, LOG_LEVEL: 'info', NODE_ENV: 'production', CART_CACHE_MS: '3600000' }
      const [first, second] = await Promise.all([startServerProcess(env, 90_000), startServerProcess(env, 90_000)])
      await use({ first, second })
      await Promise.all([first.stop(), second.stop()])
      await db.close()
    },
    { scope: 'worker', timeout: serverStartMs },
  ],
  // Each test's context signed in as maria at the first process.
  storageState: async ({ processes, playwright }, use) => use(await signedInState(playwright.request, processes.first.url, 'maria')),
})

test.skip(!process.env.TEST_DATABASE_URL, 'two server processes share a database on PostgreSQL only: set TEST_DATABASE_URL')

test("shows a price changed in one process's console on the other's vehicle page, told by the database", async ({ page, processes: { first, second } }) => {
  const slug = '2025-denago-ev-nomad'
  const priceOnSecond = async () => {
    const html = await (await fetch(`${second.url}/vehicle/${slug}`)).text()
    return /\$10,995|\$10,777/.exec(html)?.[0]
  }
  // The second process has the page (and its cart) in its caches before the change.
  expect(await priceOnSecond()).toBe('$10,995')

  await page.goto(`${first.url}/staff?q=EV+Nomad`)
  expect(await priceOnSecond()).toBe('$10,995')
  await page.getByLabel('Price of 2025 Denago EV Nomad', { exact: true }).fill('10777')
  await page.getByRole('button', { name: 'Save 2025 Denago EV Nomad', exact: true }).click()
  await expect(page.getByRole('status')).toContainText('$10,777')
  await expect.poll(priceOnSecond, { timeout: 30_000, intervals: [25] }).toBe('$10,777')
})
