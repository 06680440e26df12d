import express, { type Express, type Request, type Response } from 'express'
import type { SiteContext } from '../../api/http/app.ts'
import { sendError } from '../../api/http/errors.ts'
import { requestInfo } from '../../api/http/request-info.ts'
import { describeError } from '../../api/log.ts'
import { staffRequestInfo } from '../../api/staff/http.ts'
import type { ResolvedSession } from '../../api/staff/sessions.ts'
import { createContextInner } from '../../api/trpc/context.ts'
import { createCaller } from '../../api/trpc/router.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { refusedForm } from './staff-refusal.ts'
import type { renderSignIn, renderStaff } from '../entry-server.tsx'

export interface StaffRenderer {
  renderStaff: typeof renderStaff
  renderSignIn: typeof renderSignIn
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
  const form = express.urlencoded({ extended: false, limit: '100kb', parameterLimit: 100 })

  const document = async (title: string, body: string) => staffDocument(title, body, await assets())

  // A refused sign-in: the page again, the refusal beside the form, the username as typed.
  context.answerSignInRefusal((req, res, refusal) => {
    void (async () => {
      const page = (await renderer()).renderSignIn({ message: refusal.message, username: refusal.username.slice(0, 200) })
      send(req, res, { status: refusal.status, html: await document(page.title, page.html) })
    })().catch((error: unknown) => {
      context.log.error('sign-in page failed', { error: describeError(error) })
      if (!res.headersSent) sendError(res, refusal.status, refusal.message)
    })
  })

  app.get(staffPaths.login, async (req, res, next) => {
    try {
      const page = (await renderer()).renderSignIn()
      send(req, res, { status: 200, html: await document(page.title, page.html) })
    } catch (error) {
      next(error)
    }
  })

  const handle = (method: 'GET' | 'POST') => async (req: Request, res: Response, next: express.NextFunction) => {
    try {
      const session = res.locals.staffSession as ResolvedSession | undefined
      if (!session) return void res.redirect(303, staffPaths.login)
      const caller = createCaller(createContextInner(context.services, { ...requestInfo(req), ...staffRequestInfo(req, res, siteOrigin) }))
      const body = (req.body ?? {}) as Record<string, unknown>
      const fields = Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
      const answer = await (await renderer()).renderStaff({
        method,
        url: req.originalUrl,
        form: fields,
        caller,
        username: session.user.username,
        refused: refusedForm,
      })
      if (!answer) return next()
      if (answer.kind === 'redirect') return void res.redirect(303, answer.location)
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
