import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { axeViolations, launchBrowser } from '../support/browser.ts'
import { startPushService, type PushService } from '../support/push-service.ts'
import { desktop, phone } from '../support/site-visits.ts'
import { addStaff, staffPassword } from '../support/staff.ts'
import { startTestServer, type TestServer } from '../support/test-server.ts'

/**
 * Lead alerts in Chromium (issue #28, point 3): "Turn on alerts on this phone" with notification
 * permission granted registers the console's service worker and stores the subscription; the
 * count of new leads is in the navigation and title.
 *
 * This machine has no network, so Chromium cannot reach its own push service (Google's) and
 * `pushManager.subscribe()` never settles. Where a test needs a subscription, the page's
 * `PushManager.prototype.subscribe` answers with one of the local push service's
 * (tests/support/push-service.ts), and what that service receives is handed to the service worker
 * through the DevTools protocol (ServiceWorker.deliverPushMessage), as Chromium's push service
 * would: every step but Google's is the real one.
 */
let server: TestServer
let browser: Browser
let push: PushService
const contexts: BrowserContext[] = []
const shots = process.env.SCREENSHOT_DIR

beforeAll(async () => {
  push = await startPushService()
  server = await startTestServer('pglite', { LOG_LEVEL: 'silent', OUTBOX_POLL_MS: '100', PUSH_SERVICE_HOSTS: push.host }, { site: true, pushAgent: push.agent })
  browser = await launchBrowser()
  await addStaff(server, 'maria')
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
  await push?.stop()
})
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()))
})

async function signedIn(viewport: { width: number; height: number }, subscription?: ReturnType<PushService['subscribe']> | 'never') {
  const context = await browser.newContext(viewport === phone ? { viewport, hasTouch: true, isMobile: true } : { viewport })
  contexts.push(context)
  await context.grantPermissions(['notifications'], { origin: server.url })
  if (subscription === 'never') {
    // A push service that never answers, as on a phone that lost its connection.
    await context.addInitScript(() => {
      PushManager.prototype.subscribe = () => {
        document.documentElement.dataset.subscribing = ''
        return new Promise<PushSubscription>(() => {})
      }
    })
  } else if (subscription) {
    await context.addInitScript((sub) => {
      const toBytes = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer
      // What the console reads of a subscription (alerts.ts): toJSON(); the rest as a browser's.
      PushManager.prototype.subscribe = () =>
        Promise.resolve(
          Object.assign(Object.create(null), {
            endpoint: sub.endpoint,
            expirationTime: null,
            options: { userVisibleOnly: true, applicationServerKey: null },
            getKey: (name: 'p256dh' | 'auth') => toBytes(sub.keys[name]),
            toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
            unsubscribe: () => Promise.resolve(true),
          }),
        )
    }, subscription)
  }
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`))
  await page.goto(`${server.url}/staff/login`)
  await page.getByLabel('Username').fill('maria')
  await page.getByLabel('Password').fill(staffPassword)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect.poll(() => page.locator('h1').textContent()).toBe('Inventory')
  return { page, problems }
}

const status = (page: Page) => page.locator('[data-alerts-status]').textContent()

async function newLead(firstName: string): Promise<number> {
  const res = await fetch(`${server.url}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ firstName, lastName: 'Shopper', email: 'shopper@example.com', phone: '609-555-0100', interest: 'denago' }),
  })
  expect(res.status).toBe(201)
  return ((await res.json()) as { id: number }).id
}

describe('lead alerts in Chromium', () => {
  it('turns alerts on: the service worker is registered and the subscription stored; a push shows a notification for the lead', async () => {
    const subscription = push.subscribe('chromium')
    const { page, problems } = await signedIn(phone, subscription)
    const button = page.getByRole('button', { name: 'Turn on alerts on this phone' })
    await button.click()
    await expect.poll(() => status(page), { timeout: 15_000 }).toBe('Alerts are on: new leads for you show on this phone within seconds.')
    expect(await page.getByRole('button', { name: 'Alerts are on: turn off on this phone' }).isVisible()).toBe(true)
    const worker = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration('/staff/')
      return { scope: registration?.scope, state: registration?.active?.state, script: registration?.active?.scriptURL }
    })
    expect(worker).toEqual({ scope: `${server.url}/staff/`, state: 'activated', script: `${server.url}/staff/sw.js` })
    const stored = await server.db.sql<{ endpoint: string; p256dh: string; auth: string; username: string }[]>`
      select s.endpoint, s.p256dh, s.auth, u.username from push_subscriptions s join users u on u.id = s.user_id
    `
    expect(stored).toEqual([{ endpoint: subscription.endpoint, ...subscription.keys, username: 'maria' }])
    expect(await axeViolations(page)).toEqual([])

    // A lead: the server pushes to the local service, which hands it to the worker as Chromium's would.
    const id = await newLead('Nina')
    await expect.poll(() => push.received.find((p) => p.payload.url === `/staff/leads/${id}`), { timeout: 10_000 }).toBeDefined()
    const received = push.received.find((p) => p.payload.url === `/staff/leads/${id}`)!
    const cdp = await page.context().newCDPSession(page)
    const registrationId = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((r) => r.scopeURL === `${server.url}/staff/` && !r.isDeleted)
        if (ours) resolve(ours.registrationId)
      }),
    )
    // What the worker went through from here on, said by a poll that sees no notification: its
    // states and any error it reported (the DevTools domain), the push events it had and what
    // became of its showNotification (a listener and a wrapper put into the running worker).
    const workerLog: string[] = []
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) =>
      workerLog.push(...versions.map((v) => `version ${v.versionId} ${v.status}/${v.runningStatus}`)),
    )
    cdp.on('ServiceWorker.workerErrorReported', ({ errorMessage: e }) => workerLog.push(`error ${e.errorMessage} at ${e.sourceURL}:${e.lineNumber}`))
    await cdp.send('ServiceWorker.enable')
    type Watched = typeof self & { registration: ServiceWorkerRegistration; seen: string[] }
    const [serviceWorker] = page.context().serviceWorkers()
    await serviceWorker!.evaluate(() => {
      const scope = self as Watched
      const show = scope.registration.showNotification.bind(scope.registration)
      scope.seen = []
      scope.addEventListener('push', () => scope.seen.push('push event'))
      scope.registration.showNotification = (...args) => {
        const called = performance.now()
        const after = () => `${Math.round(performance.now() - called)} ms after`
        scope.seen.push('showNotification called')
        return show(...args).then(
          () => void scope.seen.push(`resolved ${after()}`),
          (error: unknown) => {
            scope.seen.push(`rejected ${after()}: ${String(error)}`)
            throw error
          },
        )
      }
    })
    const seen = () => serviceWorker!.evaluate(() => (self as Watched).seen).catch((e: Error) => [`unreadable: ${e.message}`])
    const deliver = async (attempt: number) => {
      await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId: await registrationId, data: JSON.stringify(received.payload) })
      workerLog.push(`push delivered (${attempt})`)
    }
    // Chromium's DevTools delivery was seen lost in about one run in thirty: the worker running,
    // no error, no notification, as if the message had not been handed over. When the worker has
    // had no push event 5 s after it, the message is handed over once more, as a push service
    // does with a message the browser did not take; what the worker then shows is checked as ever.
    await deliver(1)
    const pushed = await vi
      .waitFor(async () => expect(await seen()).toContain('push event'), { timeout: 5_000, interval: 100 })
      .then(() => true, () => false)
    if (!pushed) await deliver(2)
    const shown = async () => {
      const notifications = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration('/staff/')
        return (await registration!.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url: string }).url }))
      })
      if (notifications.length) return notifications
      return `no notification; the worker: ${[...workerLog, ...(await seen())].join('; ')}`
    }
    // Alone, the notification is there 15 ms after showNotification is called; 20 s is for a run
    // whose two cores are busy with two other files and everyone's Chromium pages.
    await expect.poll(shown, { timeout: 20_000 }).toEqual([
      { title: `New lead #${id}: Nina Shopper`, body: 'Denago. Call 609-555-0100 or open the lead to answer.', tag: `lead-${id}`, url: `/staff/leads/${id}` },
    ])
    expect(problems).toEqual([])
  })

  it('says so when the push service never answers, instead of waiting for ever', async () => {
    const { page } = await signedIn(desktop, 'never')
    await page.clock.install()
    await page.getByRole('button', { name: 'Turn on alerts on this phone' }).click()
    await expect.poll(() => status(page), { timeout: 15_000 }).toBe('Turning alerts on…')
    // The 30 s start when the browser is asked, after the worker and the key.
    await page.waitForFunction(() => document.documentElement.dataset.subscribing !== undefined)
    await page.clock.fastForward(29_000)
    expect(await status(page)).toBe('Turning alerts on…')
    await page.clock.fastForward(2_000)
    await expect
      .poll(() => status(page))
      .toBe(
        "Alerts could not be turned on in this browser: the browser's push service did not answer in 30 seconds; check this phone's connection and try again",
      )
    expect(await page.getByRole('button', { name: 'Turn on alerts on this phone' }).isEnabled()).toBe(true)
  })

  it('counts new leads in the navigation and the title, on a phone and a desk', async () => {
    await newLead('Omar')
    for (const viewport of [phone, desktop]) {
      const { page, problems } = await signedIn(viewport)
      const [maria] = await server.db.sql<{ id: number }[]>`select id from users where username = 'maria'`
      const n = await server.runtime.services.staff.alerts.newLeadCount(maria!.id)
      expect(n).toBeGreaterThan(0)
      expect(await page.title()).toMatch(new RegExp(`^\\(${n}\\) `))
      const badge = page.locator('.staff-nav__count')
      expect(await badge.textContent()).toContain(`${n} new`)
      expect(await badge.isVisible()).toBe(true)
      const scrolls = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
      expect(scrolls).toBe(false)
      expect(await axeViolations(page, 'nav')).toEqual([])
      if (shots) await page.screenshot({ path: `${shots}/console-nav-${viewport.width}.png` })
      expect(problems).toEqual([])
    }
  })
})
