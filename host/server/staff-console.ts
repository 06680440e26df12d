import express, { type Express, type Request, type Response } from 'express'
import type { SiteContext } from '../../api/http/app.ts'
import { maxBodyBytes } from '../../api/http/body-limit.ts'
import { sendError } from '../../api/http/errors.ts'
import { requestInfo } from '../../api/http/request-info.ts'
import { describeError } from '../../api/log.ts'
import { staffRequestInfo } from '../../api/staff/http.ts'
import { stepCookie } from '../../api/staff/cookie.ts'
import { guardedRoute, guardedSession } from '../../api/staff/access.ts'
import { plainStaffRoutes, routeMatcher, type RouteMatcher, type StaffRoute } from '../../api/staff/routes.ts'
import { createContextInner } from '../../api/trpc/context.ts'
import { createCaller } from '../../api/trpc/router.ts'
import { signInReturn, staffPaths } from '../../domain/staff-paths.ts'
import { refusedForm } from './staff-refusal.ts'
import { formPayload, parseStaffForm } from './staff-forms.ts'
import { leaveNotice, takeNotice } from './staff-notice.ts'
import { isSameOrigin } from '../../api/staff/http.ts'
import { passwordProblem } from '../../api/users/user-store.ts'

/** The sign-in page after a password was set through a link. */
export const passwordSetNotice = 'Your password is saved. Sign in with it.'
import type {
  consoleRoutes,
  renderConsoleRefusal,
  renderPasswordChoice,
  renderPasswordResetRequest,
  renderSecondStep,
  renderSignIn,
  renderStaff,
} from '../entry-server.tsx'

export interface StaffRenderer {
  consoleRoutes: typeof consoleRoutes
  renderStaff: typeof renderStaff
  renderSignIn: typeof renderSignIn
  renderConsoleRefusal: typeof renderConsoleRefusal
  renderPasswordResetRequest: typeof renderPasswordResetRequest
  renderPasswordChoice: typeof renderPasswordChoice
  renderSecondStep: typeof renderSecondStep
}

export interface StaffAssets {
  scripts: string[]
  styles: string[]
  inlineCss?: string
}

/**
 * The staff console's pages (host/staff/), mounted after the session guard of api/staff/http.ts:
 * every request here has a session (`res.locals.staffSession`), except the sign-in page. Pages are
 * rendered on the server with the site's React; their forms post back here, and every read and
 * write goes through a `staff.*` procedure with this request's cookie and origin, so the
 * procedures' own checks (session, own origin for writes) hold for the forms too.
 */
export function mountStaffConsole(
  app: Express,
  context: SiteContext,
  { renderer, assets, send }: {
    renderer: () => Promise<StaffRenderer>
    assets: () => Promise<StaffAssets>
    /** The site's answer: the console's policy (its stylesheet by hash), never kept. */
    send: (req: Request, res: Response, page: { status: number; html: string }) => void
  },
) {
  const siteOrigin = new URL(context.env.siteUrl).origin
  const form = express.urlencoded({ extended: false, limit: maxBodyBytes, parameterLimit: 100 })

  const document = async (title: string, body: string) => staffDocument(title, body, await assets())

  // The pages' routes and rules, from their declarations (host/staff/page.ts): the guard checks
  // every request under /staff against them and the plain routes', with the one matcher.
  context.declareConsolePages(async () => (await renderer()).consoleRoutes)
  let matcher: RouteMatcher<StaffRoute> | undefined
  const match = async () => (matcher ??= routeMatcher([...plainStaffRoutes, ...(await renderer()).consoleRoutes]))

  // A refused sign-in: the page again, the refusal beside the form, the username as typed.
  context.answerSignInRefusal((req, res, refusal) => {
    void (async () => {
      const page = refusal.step
        ? (await renderer()).renderSecondStep(refusal.message, await context.services.staff.signIn.stepChoices(stepCookie(req)), refusal.next)
        : (await renderer()).renderSignIn({ message: refusal.message, username: refusal.username.slice(0, 200) }, undefined, refusal.next)
      send(req, res, { status: refusal.status, html: await document(page.title, page.html) })
    })().catch((error: unknown) => {
      context.log.error('sign-in page failed', { error: describeError(error) })
      if (!res.headersSent) sendError(res, refusal.status, refusal.message)
    })
  })

  // A page or post the role does not allow (403, the sentence), or an address with nothing (404).
  context.answerConsoleRefusal((req, res, refusal) => {
    void (async () => {
      const { user } = refusal.session
      const newLeads = await context.services.staff.alerts.newLeadCount(user.id)
      const answer = (await renderer()).renderConsoleRefusal({ ...refusal, url: req.originalUrl, username: user.username, role: user.role, newLeads })
      if (answer.kind === 'page') send(req, res, { status: answer.status, html: await document(answer.title, answer.html) })
    })().catch((error: unknown) => {
      context.log.error('console refusal page failed', { error: describeError(error) })
      if (!res.headersSent) sendError(res, refusal.status, refusal.message)
    })
  })

  app.get(staffPaths.login, async (req, res, next) => {
    try {
      const notice = req.query.password === 'set' ? passwordSetNotice : undefined
      const next = signInReturn(req.query.next)
      const page =
        req.query.step === 'code'
          ? (await renderer()).renderSecondStep(undefined, await context.services.staff.signIn.stepChoices(stepCookie(req)), next)
          : (await renderer()).renderSignIn(undefined, notice, next)
      send(req, res, { status: 200, html: await document(page.title, page.html) })
    } catch (error) {
      next(error)
    }
  })

  // Setting a password through an emailed link (issue #29, PRODUCT.md "password reset"): no
  // session; the posts only from the site's own pages. The token is in the path, so these pages
  // send a Referer to no other site (same-origin: with no-referrer, Chromium posts their forms
  // with `Origin: null`, which the origin check rightly refuses) and are never kept.
  const linkPage = (res: Response) => res.set({ 'Referrer-Policy': 'same-origin', 'Cache-Control': 'no-store' })
  app.get(staffPaths.passwordReset, async (req, res, next) => {
    try {
      const page = (await renderer()).renderPasswordResetRequest({ sent: req.query.sent === '1' })
      send(req, linkPage(res), { status: 200, html: await document(page.title, page.html) })
    } catch (error) {
      next(error)
    }
  })
  app.post(staffPaths.passwordReset, form, async (req, res, next) => {
    try {
      const name = postedField(req, 'name')
      if (!isSameOrigin(req, siteOrigin) || !name.trim()) {
        const message = name.trim() ? 'Ask for a link from the site itself.' : 'Enter your username or email address.'
        const page = (await renderer()).renderPasswordResetRequest({ message, name: name.slice(0, 254) })
        return send(req, linkPage(res), { status: name.trim() ? 403 : 400, html: await document(page.title, page.html) })
      }
      // Answered at once, the same for every name; the link, if any, goes out after.
      context.services.staff.links.requestReset(name, req.ip ?? 'unknown')
      res.redirect(303, `${staffPaths.passwordReset}?sent=1`)
    } catch (error) {
      next(error)
    }
  })
  app.get(`${staffPaths.passwordReset}/:token`, async (req, res, next) => {
    try {
      const account = await context.services.staff.links.check(String(req.params.token))
      const page = (await renderer()).renderPasswordChoice({ action: req.originalUrl.split('?')[0] ?? '', account })
      send(req, linkPage(res), { status: account ? 200 : 410, html: await document(page.title, page.html) })
    } catch (error) {
      next(error)
    }
  })
  app.post(`${staffPaths.passwordReset}/:token`, form, async (req, res, next) => {
    try {
      const token = String(req.params.token)
      const password = postedField(req, 'password')
      const again = async (status: number, message?: string) => {
        const account = await context.services.staff.links.check(token)
        const page = (await renderer()).renderPasswordChoice({ action: req.originalUrl.split('?')[0] ?? '', account, message })
        send(req, linkPage(res), { status: account ? status : 410, html: await document(page.title, page.html) })
      }
      if (!isSameOrigin(req, siteOrigin)) return await again(403, 'Set your password from the site itself.')
      const problem = passwordProblem(password)
      if (problem) return await again(400, problem)
      const used = await context.services.staff.links.use(token, password)
      if (!used) return await again(410)
      res.redirect(303, `${staffPaths.login}?password=set`)
    } catch (error) {
      next(error)
    }
  })

  const handle = (method: 'GET' | 'POST') => async (req: Request, res: Response, next: express.NextFunction) => {
    try {
      const session = guardedSession(res)
      const route = guardedRoute(res)
      if (!session || !route) return void res.redirect(303, staffPaths.login)
      const caller = createCaller(createContextInner(context.services, { ...requestInfo(req), ...staffRequestInfo(req, res, siteOrigin) }))
      const payload = formPayload(req.body)
      // Each field's first value; a name posted more than once is also in `lists`, and `parse` reads every value.
      const fields = Object.fromEntries([...new Set(payload.keys())].map((name) => [name, payload.get(name) ?? '']))
      const answer = await (await renderer()).renderStaff({
        method,
        url: req.originalUrl,
        route: { key: route.route.key, params: route.params },
        match: await match(),
        form: fields,
        caller,
        username: session.user.username,
        role: session.user.role,
        newLeads: await context.services.staff.alerts.newLeadCount(session.user.id),
        refused: refusedForm,
        parse: (procedure, fixed) => parseStaffForm(procedure, payload, fixed),
        lists: repeatedFields(payload),
        notice: method === 'GET' ? takeNotice(req, res) : undefined,
      })
      if (!answer) return next()
      if (answer.kind === 'redirect') {
        if (answer.notice) leaveNotice(req, res, answer.notice)
        return void res.redirect(303, answer.location)
      }
      send(req, res, { status: answer.status, html: await document(answer.title, answer.html) })
    } catch (error) {
      next(error)
    }
  }
  app.get(['/staff', '/staff/{*path}'], handle('GET'))
  app.post(['/staff', '/staff/{*path}'], form, handle('POST'))
}

/** The HTML around a console page: never indexed, its own small script and stylesheet. */
export function staffDocument(title: string, body: string, assets: StaffAssets): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="robots" content="noindex, nofollow">
    <title>${escapeHtml(title)} | Staff console</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml">
    <link rel="manifest" href="/staff/manifest.webmanifest">
    <meta name="theme-color" content="#1d4ed8">
${assets.inlineCss ? `    <style>${assets.inlineCss}</style>` : ''}
${assets.styles.map((href) => `    <link rel="stylesheet" href="${href}">`).join('\n')}
${assets.scripts.map((src) => `    <script type="module" src="${src}"></script>`).join('\n')}
  </head>
  <body class="staff-body">
    <div id="root">${body}</div>
  </body>
</html>
`
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** One field of a posted form, or empty. */
function postedField(req: Request, name: string): string {
  const value = ((req.body ?? {}) as Record<string, unknown>)[name]
  return typeof value === 'string' ? value : ''
}

/** The names a form posted more than once (the boxes ticked), with every value. */
function repeatedFields(payload: URLSearchParams): Record<string, string[]> {
  const lists: Record<string, string[]> = {}
  for (const name of new Set(payload.keys())) {
    const all = payload.getAll(name)
    if (all.length > 1) lists[name] = all
  }
  return lists
}
