import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { ConsoleLayout, SignInPage, StaffNotFoundPage } from './layout.tsx'
import { type PostedState, type StaffCaller, StaffNotFound, type ListedStaffPage, type StaffPageContext } from './page.ts'
import { staffPages } from './pages.tsx'

export interface StaffRequest {
  method: 'GET' | 'POST'
  /** Path and query. */
  url: string
  /** The posted form's fields, for a POST. */
  form?: Record<string, string>
  caller: StaffCaller
  username: string
  refused: StaffPageContext['refused']
}

export type StaffAnswer = { kind: 'page'; status: number; title: string; html: string } | { kind: 'redirect'; location: string }

interface Matched {
  page: ListedStaffPage
  params: Record<string, string>
}

function compile(pattern: string): RegExp {
  const source = pattern
    .split(/\{\w+\}/)
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('([^/]+)')
  return new RegExp(`^${source}$`)
}
const compiled = staffPages.map((page) => ({ page, regex: compile(page.path), parameter: /\{(\w+)\}/.exec(page.path)?.[1] }))

export function matchStaffPage(path: string): Matched | undefined {
  for (const { page, regex, parameter } of compiled) {
    const found = regex.exec(path)
    if (!found) continue
    if (!parameter) return { page, params: {} }
    try {
      return { page, params: { [parameter]: decodeURIComponent(found[1] ?? '') } }
    } catch {
      return undefined
    }
  }
  return undefined
}

/** The console's navigation, from the one list of pages. */
const nav = staffPages.filter((page) => page.nav).map((page) => ({ href: page.path, label: page.nav! }))

/**
 * One request to a console page (the session is already checked by api/staff/http.ts, and every
 * call below goes through a staff procedure, which checks it again and, for writes, the origin):
 * a GET renders the page; a POST runs the page's form and redirects, or renders the page again
 * with the refused form.
 */
export async function renderStaff(request: StaffRequest): Promise<StaffAnswer | undefined> {
  const target = new URL(request.url, 'http://staff')
  const matched = matchStaffPage(target.pathname)
  if (!matched) return page(request, target, 404, 'Not found', <StaffNotFoundPage />)
  const context = (url: URL, params: Record<string, string>): StaffPageContext => ({
    caller: request.caller,
    params,
    query: url.searchParams,
    url: `${url.pathname}${url.search}`,
    username: request.username,
    refused: request.refused,
  })

  let shown: { matched: Matched; url: URL; status: number; posted?: PostedState } = { matched, url: target, status: 200 }
  if (request.method === 'POST') {
    if (!matched.page.post) return undefined
    const outcome = await matched.page.post(context(target, matched.params), request.form ?? {})
    if ('redirect' in outcome) return { kind: 'redirect', location: outcome.redirect }
    const url = new URL(outcome.url ?? request.url, 'http://staff')
    const again = matchStaffPage(url.pathname) ?? matched
    shown = { matched: again, url, status: outcome.status, posted: outcome.posted }
  }
  try {
    const { page: listed, params } = shown.matched
    const { title, body } = await listed.show(context(shown.url, params), shown.posted)
    return page(request, shown.url, shown.status, title, body)
  } catch (error) {
    if (error instanceof StaffNotFound) return page(request, target, 404, 'Not found', <StaffNotFoundPage />)
    throw error
  }
}

function page(request: StaffRequest, url: URL, status: number, title: string, body: ReactNode): StaffAnswer {
  const html = renderToString(
    <ConsoleLayout nav={nav} currentPath={url.pathname} username={request.username}>
      {body}
    </ConsoleLayout>,
  )
  return { kind: 'page', status, title, html }
}

/** The sign-in page, empty or with a refusal beside the form and the username as typed. */
export function renderSignIn(refusal?: { message: string; username: string }): { title: string; html: string } {
  return { title: 'Sign in', html: renderToString(<SignInPage message={refusal?.message} username={refusal?.username} />) }
}

