import type { ReactNode } from 'react'
import type { $ZodType } from 'zod/v4/core'
import { renderToString } from 'react-dom/server'
import { ConsoleLayout, SecondStepPage, PasswordChoicePage, PasswordResetRequestPage, SignInPage, StaffForbiddenPage, StaffNotFoundPage } from './layout.tsx'
import { type Parsed, type PostedState, type StaffCaller, StaffNotFound, type ListedStaffPage, type StaffPageContext } from './page.ts'
import { staffPages } from './pages.ts'
import { roleAllows, type StaffRole } from '../../domain/staff-access.ts'
import type { Matched, StaffRoute } from '../../api/staff/routes.ts'
import type { StepChoices } from '../../api/staff/sign-in.ts'

export interface StaffRequest {
  method: 'GET' | 'POST'
  /** Path and query. */
  url: string
  /** The route the guard matched for this request (api/staff/http.ts): which page, and its parameter. */
  route: { key: string; params: Record<string, string> }
  /** The guard's matcher, for another address: the page a refused post shows, a link's rule. */
  match(method: string, path: string): Matched<StaffRoute> | undefined
  /** The posted form's fields, for a POST. */
  form?: Record<string, string>
  caller: StaffCaller
  username: string
  role: StaffRole
  /** New leads for this person (theirs or nobody's): in the navigation and the title of every page. */
  newLeads: number
  refused: StaffPageContext['refused']
  /** Reads this request's posted form against a procedure's schema (host/server/staff-forms.ts). */
  parse(procedure: string | $ZodType, fixed?: Record<string, string | number | boolean>): Parsed<unknown>
  /** What the post sent under one name more than once (the boxes ticked). */
  lists?: Record<string, string[]>
  /** The notice the post before this page left, once (a flash). */
  notice?: string
}

export type StaffAnswer = { kind: 'page'; status: number; title: string; html: string } | { kind: 'redirect'; location: string; notice?: string }


/**
 * Every console route, from the pages' own declarations (host/staff/page.ts, `roles`): the GET
 * and the post of each page that takes them, with the least role for each. The site hands this to
 * the guard (api/staff/http.ts), which checks every request under `/staff` against it.
 */
export const consoleRoutes: readonly (StaffRoute & { page: ListedStaffPage })[] = staffPages.flatMap((page) =>
  (['GET', 'POST'] as const).flatMap((method) => {
    const rule = method === 'GET' ? page.roles.get : page.roles.post
    return rule ? [{ key: `${method} ${page.path}`, method, path: page.path, rule, page }] : []
  }),
)

const pageOf = new Map(consoleRoutes.map((route) => [route.key, route.page]))

/**
 * The console's navigation, from the one list of pages: the pages this role may open (each
 * page's `roles.get`). Leaving a link out is presentation; the server refuses the page itself.
 */
function navFor(role: StaffRole) {
  return staffPages
    .flatMap((page) => (page.nav && page.roles.get && roleAllows(role, page.roles.get[0]) ? [{ href: page.path, label: page.nav.label }] : []))
}

/**
 * One request to a console page, as the guard matched it (api/staff/http.ts: the session, the
 * page's rule for this role; every call below goes through a staff procedure, which checks the
 * session again and, for writes, the origin): a GET renders the page; a POST runs the page's
 * form and redirects, or renders the page again with the refused form.
 */
export async function renderStaff(request: StaffRequest): Promise<StaffAnswer | undefined> {
  const target = new URL(request.url, 'http://staff')
  const found = pageOf.get(request.route.key)
  if (!found) return page(request, target, 404, 'Not found', <StaffNotFoundPage />)
  const context = (url: URL, params: Record<string, string>): StaffPageContext => ({
    caller: request.caller,
    params,
    query: url.searchParams,
    url: `${url.pathname}${url.search}`,
    username: request.username,
    role: request.role,
    mayOpen(path, method = 'GET') {
      const rule = request.match(method, path)?.route.rule
      return rule !== undefined && roleAllows(request.role, rule[0])
    },
    refused: request.refused,
    // Typed by the procedure's path on the page's side; the schema is the procedure's own.
    parse: (target: string | $ZodType, fixed?: Record<string, string | number | boolean>) => request.parse(target, fixed),
    notice: request.notice,
    lists: request.lists ?? {},
  })

  let shown: { page: ListedStaffPage; params: Record<string, string>; url: URL; status: number; posted?: PostedState } = {
    page: found,
    params: request.route.params,
    url: target,
    status: 200,
  }
  if (request.method === 'POST') {
    if (!found.post) return undefined
    const outcome = await found.post(context(target, request.route.params), request.form ?? {})
    if ('redirect' in outcome) return { kind: 'redirect', location: outcome.redirect, notice: outcome.notice }
    const url = new URL(outcome.url ?? request.url, 'http://staff')
    const again = request.match('GET', url.pathname)
    const other = again && pageOf.get(again.route.key)
    shown = other ? { page: other, params: again.params, url, status: outcome.status, posted: outcome.posted } : { ...shown, url, status: outcome.status, posted: outcome.posted }
  }
  try {
    const { title, body } = await shown.page.show(context(shown.url, shown.params), shown.posted)
    return page(request, shown.url, shown.status, title, body)
  } catch (error) {
    if (error instanceof StaffNotFound) return page(request, target, 404, 'Not found', <StaffNotFoundPage />)
    throw error
  }
}

function page(request: Pick<StaffRequest, 'username' | 'role' | 'newLeads' | 'notice'>, url: URL, status: number, title: string, body: ReactNode): StaffAnswer {
  const html = renderToString(
    <ConsoleLayout
      nav={navFor(request.role)}
      currentPath={url.pathname}
      username={request.username}
      role={request.role}
      newLeads={request.newLeads}
      notice={request.notice}
    >
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
export function renderSignIn(refusal?: { message: string; username: string }, notice?: string, next?: string): { title: string; html: string } {
  return { title: 'Sign in', html: renderToString(<SignInPage message={refusal?.message} username={refusal?.username} notice={notice} next={next} />) }
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
export function renderSecondStep(message?: string, choices: StepChoices = { app: true }, next?: string): { title: string; html: string } {
  return { title: 'Sign in: second step', html: renderToString(<SecondStepPage message={message} choices={choices} next={next} />) }
}
