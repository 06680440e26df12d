import type { QueryClient } from '@tanstack/react-query'
import type { TRPCOptionsProxy } from '@trpc/tanstack-react-query'
import type { ComponentType } from 'react'
import type { AppRouter } from '../api/trpc/router.ts'
import type { PageMeta } from './meta.ts'

export type Params = Record<string, string>

export interface PageProps {
  params: Params
  /** The query string, without "?". */
  search: string
}

/** What a page's metadata may use: the public address, and data the server already fetched. */
export interface MetaContext {
  siteUrl: string
  queryClient: QueryClient
  trpc: TRPCOptionsProxy<AppRouter>
}

export interface PrefetchOutcome {
  status?: number
  /** Where to send the visitor instead, with the request's query string unless `query` is 'own'. */
  redirect?: string
  /** 'own': the redirect's address carries its own query string (a stale page number's). */
  query?: 'own'
}

/**
 * One page of the site: what it renders, what it tells search engines, and what the server
 * fetches first so the HTML arrives complete and hydration fetches nothing. Its address is in
 * the table of domain/site-paths.ts; host/routes.ts pairs each address with its page.
 */
export interface Route {
  Page: ComponentType<PageProps>
  meta(context: MetaContext, params: Params, search?: URLSearchParams): PageMeta
  prefetch?(context: MetaContext, params: Params, search: URLSearchParams): Promise<PrefetchOutcome | void>
}
