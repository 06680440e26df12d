import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { staffPassword } from '../../tests/support/staff.ts'
import { backends, createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'
import { createServices, type Services } from '../services.ts'
import { createContextInner } from '../trpc/context.ts'
import { createCaller } from '../trpc/router.ts'
import { browsersPerAccount, takenEndpointMessage } from './staff-alerts.ts'

/**
 * `staff.alerts.subscribe` (PRODUCT.md, "push endpoints" and "alerts never hold up leads"): only
 * the browsers' push services, never another account's endpoint, at most 10 browsers an account.
 */
const keys = { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' }
const fcm = (name: string) => ({ endpoint: `https://fcm.googleapis.com/fcm/send/${name}`, keys })

describe.each(backends)('push subscriptions on %s', (backend) => {
  let db: TestDatabase
  let services: Services
  const callers: Record<'maria' | 'tom', ReturnType<typeof createCaller>> = {} as never
  const ids: Record<'maria' | 'tom', number> = {} as never

  beforeAll(async () => {
    db = await createTestDatabase(backend, 'migrated')
    services = createServices(db.sql)
    for (const name of ['maria', 'tom'] as const) {
      const user = await services.staff.accounts.add(name, staffPassword, { role: 'sales' })
      ids[name] = user.id
      const { token } = await services.staff.sessions.start(user, {})
      callers[name] = createCaller(createContextInner(services, { staffToken: token, sameOrigin: true }))
    }
  })
  afterAll(() => db?.close())

  const endpointsOf = async (userId: number) =>
    (await db.sql<{ endpoint: string }[]>`select endpoint from push_subscriptions where user_id = ${userId} order by id`).map((row) => row.endpoint)

  it.each([
    'https://127.0.0.1/push/a',
    'https://[::1]/push/a',
    'https://localhost/push/a',
    'https://2130706433/push/a',
    'https://0x7f.1/push/a',
    'https://0177.0.0.1/push/a',
    'https://10.0.0.1/push/a',
    'https://169.254.169.254/latest/meta-data/',
  ])('refuses %s beside the endpoint, and stores nothing', async (endpoint) => {
    const refused: unknown = await callers.maria.staff.alerts.subscribe({ endpoint, keys }).catch((error: unknown) => error)
    const message = expect.stringMatching(/^The endpoint is not on a browser’s push service \(fcm\.googleapis\.com, /)
    expect(refused).toMatchObject({ code: 'BAD_REQUEST', message, cause: { issues: [{ path: 'endpoint', message }] } })
    expect(await endpointsOf(ids.maria)).toEqual([])
  })

  it('refuses an endpoint another account has, which keeps it', async () => {
    expect(await callers.tom.staff.alerts.subscribe(fcm('shared-tablet'))).toEqual({ browsers: 1 })
    await expect(callers.maria.staff.alerts.subscribe(fcm('shared-tablet'))).rejects.toMatchObject({ code: 'BAD_REQUEST', message: takenEndpointMessage })
    expect(takenEndpointMessage).not.toMatch(/tom/)
    expect(await endpointsOf(ids.tom)).toEqual([fcm('shared-tablet').endpoint])
    expect(await endpointsOf(ids.maria)).toEqual([])
    // Tom's own browser subscribing again is still his, with its new keys.
    expect(await callers.tom.staff.alerts.subscribe(fcm('shared-tablet'))).toEqual({ browsers: 1 })
    // Turning it off is Tom's alone, too.
    await callers.maria.staff.alerts.unsubscribe({ endpoint: fcm('shared-tablet').endpoint })
    expect(await endpointsOf(ids.tom)).toHaveLength(1)
    await callers.tom.staff.alerts.unsubscribe({ endpoint: fcm('shared-tablet').endpoint })
    expect(await endpointsOf(ids.tom)).toEqual([])
  })

  it('keeps at most 10 browsers an account: the 11th replaces the one subscribed longest ago', async () => {
    for (let i = 1; i <= browsersPerAccount; i++) await callers.maria.staff.alerts.subscribe(fcm(`phone-${i}`))
    // The first browser subscribing again counts as new: it is in use.
    await callers.maria.staff.alerts.subscribe(fcm('phone-1'))
    expect(await callers.maria.staff.alerts.subscribe(fcm('phone-11'))).toEqual({ browsers: browsersPerAccount })
    const kept = await endpointsOf(ids.maria)
    expect(kept).toHaveLength(browsersPerAccount)
    expect(kept).not.toContain(fcm('phone-2').endpoint)
    expect(kept).toContain(fcm('phone-1').endpoint)
    expect(kept).toContain(fcm('phone-11').endpoint)
  })

  it('keeps the bound when twenty browsers subscribe at once', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => callers.tom.staff.alerts.subscribe(fcm(`burst-${i}`))))
    expect(await endpointsOf(ids.tom)).toHaveLength(browsersPerAccount)
  })
})
