import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { ConsoleLayout, SecondStepPage, PasswordChoicePage, PasswordResetRequestPage, SignInPage, StaffForbiddenPage, StaffNotFoundPage } from './layout.tsx'
import { type PostedState, type StaffCaller, StaffNotFound, type ListedStaffPage, type StaffPageContext } from './page.ts'
import { staffPages } from './pages.tsx'
import { roleAllows, routeRule, type StaffRole } from '../../domain/staff-access.ts'
import type { StepChoices } from '../../api/staff/sign-in.ts'

export interface StaffRequest {
  method: 'GET' | 'POST'
  /** Path and query. */
  url: string
  /** The posted form's fields, for a POST. */
  form?: Record<string, string>
  caller: StaffCaller
  username: string
  role: StaffRole
  /** New leads for this person (theirs or nobody's): in the navigation and the title of every page. */
  newLeads: number
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

/**
 * The console's navigation, from the one list of pages: the pages this role may open
 * (domain/staff-access.ts). Leaving a link out is presentation; the server refuses the page itself.
 */
function navFor(role: StaffRole) {
  return staffPages
    .filter((page) => {
      const rule = routeRule('GET', page.path)?.rule
      return page.nav && rule && roleAllows(role, rule[0])
    })
    .map((page) => ({ href: page.path, label: page.nav! }))
}

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
    role: request.role,
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

function page(request: Pick<StaffRequest, 'username' | 'role' | 'newLeads'>, url: URL, status: number, title: string, body: ReactNode): StaffAnswer {
  const html = renderToString(
    <ConsoleLayout nav={navFor(request.role)} currentPath={url.pathname} username={request.username} role={request.role} newLeads={request.newLeads}>
      {body}
    </ConsoleLayout>,
  )
  return { kind: 'page', status, title: request.newLeads > 0 ? `(${request.newLeads}) ${title}` : title, html }
}

/**
 * A console request refused by role (403, with the sentence saying who may) or at an address with
 * nothing behind it (404), in the console's layout with this person's navigation.
 */
export function renderConsoleRefusal(refusal: {
  status: 403 | 404
  message: string
  url: string
  username: string
  role: StaffRole
  newLeads: number
}): StaffAnswer {
  const url = new URL(refusal.url, 'http://staff')
  if (refusal.status === 404) return page(refusal, url, 404, 'Not found', <StaffNotFoundPage />)
  return page(refusal, url, 403, 'Not allowed', <StaffForbiddenPage message={refusal.message} />)
}

/** The sign-in page, empty or with a refusal beside the form and the username as typed, or a notice. */
export function renderSignIn(refusal?: { message: string; username: string }, notice?: string): { title: string; html: string } {
  return { title: 'Sign in', html: renderToString(<SignInPage message={refusal?.message} username={refusal?.username} notice={notice} />) }
}

/** "Forgot your password?" (issue #29): the form, or the one answer after it. */
export function renderPasswordResetRequest(props: { sent?: boolean; message?: string; name?: string }): { title: string; html: string } {
  return { title: 'Reset your password', html: renderToString(<PasswordResetRequestPage {...props} />) }
}

/** An emailed link's page: choose a password, or why the link no longer works. */
export function renderPasswordChoice(props: Parameters<typeof PasswordChoicePage>[0]): { title: string; html: string } {
  const title = !props.account ? 'This link no longer works' : props.account.purpose === 'invite' ? 'Choose your password' : 'Choose a new password'
  return { title, html: renderToString(<PasswordChoicePage {...props} />) }
}


/**
 * The second step of signing in (issue #29): a passkey, a code from the app or a recovery code,
 * as the account has them. Without choices (the step's cookie is gone) the code's form, whose
 * post says to sign in again.
 */
export function renderSecondStep(message?: string, choices: StepChoices = { app: true }): { title: string; html: string } {
  return { title: 'Sign in: second step', html: renderToString(<SecondStepPage message={message} choices={choices} />) }
}
