import { type DehydratedState, dehydrate } from '@tanstack/react-query'
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query'
import { renderToString } from 'react-dom/server'
import { createContextInner } from '../api/trpc/context.ts'
import type { Services } from '../api/services.ts'
import { type AppRouter, appRouter } from '../api/trpc/router.ts'
import { answeredNo, createQueryClient } from '../widgets/shared/api.tsx'
import { App } from './app.tsx'
import { placeIslands } from './islands/server.tsx'
import type { PostedForm } from './form-state.ts'
import { headTags } from './meta.ts'
import { matchRoute } from './routes.ts'
import { withoutTrailingSlashes } from '../domain/site-paths.ts'

/** The staff console renders here too, with the same React (host/staff/). */
export { renderConsoleRefusal, renderPasswordChoice, renderPasswordResetRequest, renderSecondStep, renderSignIn, renderStaff, consoleRoutes, type StaffAnswer, type StaffRequest } from './staff/render.tsx'

export type RenderResult =
  | {
      kind: 'page'
      status: number
      head: string
      html: string
      /** The data the page's islands hydrate from, when they read any. */
      state?: DehydratedState
      /** False when some data could not be loaded: the page says so, and must not be reused. */
      complete: boolean
    }
  | { kind: 'redirect'; status: number; location: string }

export interface RenderRequest {
  /** Path and query, e.g. "/vehicle/x?y=1". */
  url: string
  services: Services
  siteUrl: string
  postedForm?: PostedForm
  /** Overrides the page's status (400 for a posted form with problems). */
  status?: number
}

/**
 * Renders one page on the server: finds the route, fetches its data by calling the procedures
 * directly (no HTTP), renders the React tree with its islands, and returns the status, the head
 * tags and the data the islands need to hydrate without asking again.
 */
export async function render(request: RenderRequest): Promise<RenderResult> {
  const { pathname, search } = new URL(request.url, 'http://localhost')
  if (pathname.length > 1 && pathname.endsWith('/')) {
    return { kind: 'redirect', status: 301, location: `${withoutTrailingSlashes(pathname)}${search}` }
  }
  const match = matchRoute(pathname)
  const queryClient = createQueryClient()
  // What failed while prefetching renders as its error message, not as a skeleton that would
  // wait forever on a server that never fetches.
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retryOnMount: false } })
  const trpc = createTRPCOptionsProxy<AppRouter>({
    router: appRouter,
    ctx: createContextInner(request.services),
    queryClient,
  })
  const context = { siteUrl: request.siteUrl, queryClient, trpc }
  const query = new URLSearchParams(search)
  const outcome = (await match.route.prefetch?.(context, match.params, query)) ?? {}
  if (outcome.redirect) {
    return { kind: 'redirect', status: outcome.status ?? 301, location: outcome.query === 'own' ? outcome.redirect : `${outcome.redirect}${search}` }
  }
  // With the database down, what could not load renders as a message with a retry button,
  // and the status says "try again later" (503) to browsers and search engines alike.
  const complete = !queryClient
    .getQueryCache()
    .getAll()
    .some((query) => query.state.status === 'error' && !answeredNo(query.state.error))
  const islands = placeIslands(`${pathname}${search}`, queryClient, trpc)
  const page = renderToString(
    <App
      queryClient={queryClient}
      api={trpc}
      path={pathname}
      search={search.replace(/^\?/, '')}
      postedForm={request.postedForm}
      islands={islands.host}
    />,
  )
  const html = islands.fill(page)
  const head = headTags(match.route.meta(context, match.params, query), request.siteUrl)
  // Only islands that read data need it; a page without them carries none.
  const state = islands.needsData() ? dehydrate(queryClient) : undefined
  // Queries keep a five-minute garbage-collection timer; on the server that would hold every
  // request's data for five minutes. The cache has done its job once the head and the state
  // are taken from it.
  queryClient.clear()
  return {
    kind: 'page',
    status: request.status ?? (!complete ? 503 : match.found ? (outcome.status ?? 200) : 404),
    complete,
    head,
    html,
    state,
  }
}
