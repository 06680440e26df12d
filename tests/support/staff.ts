import { createTRPCClient, httpLink } from '@trpc/client'
import type { AppRouter } from '../../api/trpc/router.ts'
import type { StaffRole } from '../../domain/staff-access.ts'
import type { TestServer } from './test-server.ts'

/** Staff accounts and signed-in clients for API tests (issue #15); the browser specs sign in through tests/browser/fixtures.ts. */
export const staffPassword = 'correct horse battery staple'

export async function addStaff(server: TestServer, username = 'maria', password = staffPassword, role?: StaffRole) {
  return server.runtime.services.staff.accounts.add(username, password, { role })
}

export interface SignInAnswer {
  status: number
  location: string | null
  /** `name=value` of the session cookie set, for the Cookie header. */
  cookie: string | undefined
  setCookie: string | null
  body: string
  ms: number
}

/** Posts the sign-in form as the site's own page would. */
export async function signIn(
  server: TestServer,
  username = 'maria',
  password = staffPassword,
  headers: Record<string, string> = {},
): Promise<SignInAnswer> {
  const started = performance.now()
  const res = await fetch(`${server.url}/staff/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, ...headers },
    body: new URLSearchParams({ username, password }),
  })
  const setCookie = res.headers.get('set-cookie')
  return {
    status: res.status,
    location: res.headers.get('location'),
    cookie: setCookie?.split(';')[0],
    setCookie,
    body: await res.text(),
    ms: performance.now() - started,
  }
}

/** A typed tRPC client that sends the session cookie from the site's own origin. */
export function staffClient(server: TestServer, cookie: string | undefined, origin = server.url) {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${server.url}/trpc`, headers: () => ({ ...(cookie ? { cookie } : {}), origin }) })],
  })
}

export async function signedInClient(server: TestServer, username = 'maria') {
  const answer = await signIn(server, username)
  if (answer.status !== 303 || !answer.cookie) throw new Error(`sign-in failed: ${answer.status} ${answer.body}`)
  return { client: staffClient(server, answer.cookie), cookie: answer.cookie }
}

/**
 * A console post's redirect, followed as a browser follows it: to its location, with the session
 * and the one-time notice cookie the post left (host/server/staff-notice.ts). The page and its
 * notice (`.staff-alert--done`), and whether the page cleared the notice.
 */
export async function followWithNotice(server: TestServer, cookie: string, answer: Response) {
  const notice = answer.headers.getSetCookie().find((line) => /^(__Host-)?gc_notice=/.test(line))?.split(';')[0]
  const res = await fetch(`${server.url}${answer.headers.get('location') ?? ''}`, { headers: { cookie: notice ? `${cookie}; ${notice}` : cookie } })
  const cleared = res.headers.getSetCookie().some((line) => /^(__Host-)?gc_notice=;/.test(line))
  return { res, html: await res.text(), cleared }
}
