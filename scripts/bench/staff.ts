import { openDatabase } from '../../api/db/database.ts'
import { createUserStore } from '../../api/users/user-store.ts'
import { backendKinds, postgresAdminUrl } from './api-sections.ts'
import { benchDatabase, measure, measureMedian, startSiteProcess } from './api.ts'

/**
 * The staff console's API with 10,000 carts (issue #15): the inventory table's first page, a
 * search, a page from the middle sorted by price, each read by 2 connections at once; and a
 * save's round trip (a one-step price change and a whole-record save), one after another as a
 * person would make them.
 */
const carts = 10_000
/** The bench staff account's passphrase; every section that signs in uses it. */
export const benchPassword = 'bench staff passphrase'
const password = benchPassword
/** A few people at the console at once: the embedded database answers one query at a time. */
const load = { connections: 2, seconds: 2 }

export async function staffConsole(): Promise<string> {
  const lines = [
    '| database | carts | through | first page p50 / p99 | search p50 / p99 | middle page by price p50 / p99 | price change p50 / p99 | whole save p50 / p99 |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
  ]
  for (const kind of backendKinds()) {
    const db = await benchDatabase(kind, carts, postgresAdminUrl)
    try {
      const opened = await openDatabase({ databaseUrl: db.env.DATABASE_URL, dataDir: db.env.DATA_DIR ?? null })
      try {
        await createUserStore(opened.sql).add('bench', password)
      } finally {
        await opened.close()
      }
      const site = await startSiteProcess({ ...db.env, LOG_LEVEL: 'info' })
      try {
        const cookie = await signInForBench(site.url)
        const list = (input: object) => `${site.url}/trpc/staff.cart.list?input=${encodeURIComponent(JSON.stringify(input))}`
        const reads = []
        for (const input of [{ limit: 50 }, { q: 'Cart 77', limit: 50 }, { sort: 'price-asc', offset: carts / 2, limit: 50 }]) {
          await measure(list(input), { connections: 2, seconds: 1 }, { headers: { cookie } })
          const result = await measureMedian(list(input), load, { headers: { cookie } })
          reads.push(`${result.p50} / ${result.p99} ms${result.errors ? ` (${result.errors} errors)` : ''}`)
        }
        const writes = [await roundTrips(site.url, cookie, 'price'), await roundTrips(site.url, cookie, 'save')]
        lines.push(`| ${db.description} | ${carts.toLocaleString('en-US')} | API | ${reads.join(' | ')} | ${writes.join(' | ')} |`)
        // The console's own pages: the same three states of the table as server-rendered HTML,
        // and the same two saves as form posts, each with the page shown after its redirect.
        const pages = []
        for (const query of ['', '?q=Cart+77', `?sort=price-asc&page=${carts / 2 / 50 + 1}`]) {
          const url = `${site.url}/staff${query}`
          await measure(url, { connections: 2, seconds: 1 }, { headers: { cookie } })
          const result = await measureMedian(url, load, { headers: { cookie } })
          pages.push(`${result.p50} / ${result.p99} ms${result.errors ? ` (${result.errors} errors)` : ''}`)
        }
        const posts = [await formRoundTrips(site.url, cookie, 'price'), await formRoundTrips(site.url, cookie, 'save')]
        lines.push(`| ${db.description} | ${carts.toLocaleString('en-US')} | console pages | ${pages.join(' | ')} | ${posts.join(' | ')} |`)
      } finally {
        await site.stop()
      }
    } finally {
      await db.drop()
    }
  }
  return lines.join('\n')
}

/** Signs the bench account in through the form, as a browser does; answers its session cookie. */
export async function signInForBench(url: string): Promise<string> {
  const res = await fetch(`${url}/staff/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
    body: new URLSearchParams({ username: 'bench', password }),
  })
  const cookie = res.headers.get('set-cookie')?.split(';')[0]
  if (res.status !== 303 || !cookie) throw new Error(`bench sign-in failed: ${res.status}`)
  return cookie
}

/**
 * 60 form posts one after another (the first 10 as warm-up), as the console sends them without
 * script: the post, its 303, and the page it leads to, from send to the last byte of that page.
 */
async function formRoundTrips(url: string, cookie: string, kind: 'price' | 'save'): Promise<string> {
  const headers = { cookie, origin: url, 'content-type': 'application/x-www-form-urlencoded' }
  const times: number[] = []
  for (let i = 0; i < 60; i++) {
    const id = 1 + ((i * 89) % carts)
    const form =
      kind === 'price'
        ? new URLSearchParams({ price: String(9500 + i), status: 'available', back: '/staff' })
        : await wholeForm(url, cookie, id, i)
    const started = performance.now()
    const path = kind === 'price' ? `/staff/carts/${id}/quick` : `/staff/carts/${id}`
    const posted = await fetch(`${url}${path}`, { method: 'POST', redirect: 'manual', headers, body: form })
    const location = posted.headers.get('location')
    if (posted.status !== 303 || !location) throw new Error(`${path} answered ${posted.status}: ${(await posted.text()).slice(0, 300)}`)
    const shown = await fetch(new URL(location, url), { headers: { cookie } })
    await shown.text()
    if (!shown.ok) throw new Error(`${location} answered ${shown.status}`)
    if (i >= 10) times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]!)
  return `${at(0.5)} / ${at(0.99)} ms`
}

/** A cart's whole form as the console's page would post it, with one field changed. */
async function wholeForm(url: string, cookie: string, id: number, i: number): Promise<URLSearchParams> {
  const res = await fetch(`${url}/trpc/staff.cart.get?input=${encodeURIComponent(JSON.stringify({ id }))}`, { headers: { cookie } })
  const cart = ((await res.json()) as { result: { data: Record<string, unknown> } }).result.data
  const form = new URLSearchParams()
  for (const [name, value] of Object.entries(cart)) {
    if (['id', 'slug', 'listedAt', 'updatedAt', 'soldAt', 'derived'].includes(name) || value === null) continue
    if (typeof value === 'boolean') {
      if (value) form.set(name, 'true')
    } else if (typeof value === 'string' || typeof value === 'number') form.set(name, String(value))
  }
  form.set('color', `Form ${i}`)
  return form
}

/** 60 writes one after another (the first 10 as warm-up): the time each took from send to answer. */
async function roundTrips(url: string, cookie: string, kind: 'price' | 'save'): Promise<string> {
  const headers = { cookie, origin: url, 'content-type': 'application/json' }
  const call = async (path: string, body?: unknown) => {
    const res = await fetch(`${url}/trpc/${path}`, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) })
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`)
    return ((await res.json()) as { result: { data: Record<string, unknown> } }).result.data
  }
  const times: number[] = []
  for (let i = 0; i < 60; i++) {
    const id = 1 + ((i * 97) % carts)
    const started = performance.now()
    if (kind === 'price') {
      await call('staff.cart.setPrice', { id, price: 9000 + i })
    } else {
      const cart = await call(`staff.cart.get?input=${encodeURIComponent(JSON.stringify({ id }))}`)
      const { slug: _s, version, listedAt: _l, updatedAt: _u, soldAt: _d, derived: _v, ...record } = cart
      await call('staff.cart.save', { ...record, color: `Bench ${i}`, version })
    }
    if (i >= 10) times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]!)
  return `${at(0.5)} / ${at(0.99)} ms`
}
