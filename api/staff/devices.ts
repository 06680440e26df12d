import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Sql } from '../db/database.ts'

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"; PRODUCT.md
 * "sign-in limits and stores"): after a successful sign-in the browser keeps a cookie saying
 * "this browser signed in as maria", signed with a key only the server has. A later sign-in as
 * maria from that browser is counted on its own: strangers' failures (at the same address, a
 * whole showroom behind one router, or against maria's username) do not slow or lock it, and its
 * own failures lock only it.
 *
 * One cookie holds the last 5 accounts signed in on the browser (a showroom's shared computer),
 * each as `username.nonce.signature` in base64url, joined by `~`. A new sign-in gives a new nonce.
 */
export const deviceCookieRules = { keep: 5, maxAgeMs: 180 * 24 * 3_600_000 } as const

const part = /^[A-Za-z0-9_-]+$/

export function createDeviceCookies(sql: Sql) {
  let key: Promise<Buffer> | undefined

  /** The signing key, made by the first process that needs it; two at once keep the first one stored. */
  async function loadKey(): Promise<Buffer> {
    const stored = async () => (await sql<{ secret: Buffer }[]>`select secret from staff_device_keys`)[0]?.secret
    const found = await stored()
    if (found) return found
    await sql`insert into staff_device_keys (secret) values (${randomBytes(32)}) on conflict (id) do nothing`
    return (await stored())!
  }
  const signingKey = () => (key ??= loadKey().catch((error: unknown) => {
    key = undefined
    throw error
  }))

  const signatureOf = (secret: Buffer, name: string, nonce: string) => createHmac('sha256', secret).update(`${name}.${nonce}`).digest()

  /** The cookie's entries that parse, each with its username. */
  function entries(cookie: string | undefined): { username: string; nonce: string; signature: string; raw: string }[] {
    if (!cookie || cookie.length > 2000) return []
    return cookie.split('~').flatMap((raw) => {
      const [name, nonce, signature, ...rest] = raw.split('.')
      if (rest.length || !name || !nonce || !signature || ![name, nonce, signature].every((p) => part.test(p)) || nonce.length !== 22) return []
      return [{ username: Buffer.from(name, 'base64url').toString('utf8'), nonce, signature, raw }]
    })
  }

  return {
    /**
     * The nonce of this browser's device cookie for `username`, when the cookie holds an entry
     * for it with a right signature; undefined for a stranger (no cookie, another account's, a
     * forged one).
     */
    async trusted(cookie: string | undefined, username: string): Promise<string | undefined> {
      const mine = entries(cookie).filter((e) => e.username === username)
      if (mine.length === 0) return undefined
      const secret = await signingKey()
      const name = Buffer.from(username).toString('base64url')
      for (const entry of mine) {
        const given = Buffer.from(entry.signature, 'base64url')
        const right = signatureOf(secret, name, entry.nonce)
        if (given.length === right.length && timingSafeEqual(given, right)) return entry.nonce
      }
      return undefined
    },

    /** The cookie's value after `username` signed in on this browser: its new entry first, the 5 latest kept. */
    async issue(cookie: string | undefined, username: string): Promise<string> {
      const secret = await signingKey()
      const name = Buffer.from(username).toString('base64url')
      const nonce = randomBytes(16).toString('base64url')
      const entry = `${name}.${nonce}.${signatureOf(secret, name, nonce).toString('base64url')}`
      const others = entries(cookie).filter((e) => e.username !== username).map((e) => e.raw)
      return [entry, ...others].slice(0, deviceCookieRules.keep).join('~')
    },
  }
}

export type DeviceCookies = ReturnType<typeof createDeviceCookies>
