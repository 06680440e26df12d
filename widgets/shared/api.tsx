import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createTRPCClient, httpLink, type TRPCClient, TRPCClientError } from '@trpc/client'
import { createTRPCContext } from '@trpc/tanstack-react-query'
import { createContext, type ReactNode, useContext } from 'react'
import type { AppRouter } from '../../api/trpc/router.ts'

/** The typed hooks every component uses: `useTRPC().cart.list.queryOptions(...)`. */
export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>()

export type ApiClient = TRPCClient<AppRouter>

/**
 * SPEC section 9: no retries, data never stale, no refetch on focus, unused cache dropped after
 * five minutes. The server renders with the same defaults, so hydration never refetches.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false, gcTime: 5 * 60_000 },
      mutations: { retry: false },
    },
  })
}

/**
 * One request per call (no batching), so reads are plain cacheable GETs. `same-origin`
 * credentials: a widget on a partner's site never sends that site's cookies to us.
 */
export function createApiClient(apiBase: string): ApiClient {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${apiBase}/trpc`,
        fetch: (url, init) => fetch(url, { ...(init as RequestInit), credentials: 'same-origin' }),
      }),
    ],
  })
}

export function ApiProvider(props: {
  apiBase: string
  queryClient: QueryClient
  apiClient: ApiClient
  children: ReactNode
}) {
  return (
    <QueryClientProvider client={props.queryClient}>
      <TRPCProvider trpcClient={props.apiClient} queryClient={props.queryClient}>
        <ApiBaseContext.Provider value={props.apiBase}>{props.children}</ApiBaseContext.Provider>
      </TRPCProvider>
    </QueryClientProvider>
  )
}

const ApiBaseContext = createContext('')

/** Where the API and its images live: '' on the dealer's own site, an origin in an embed. */
export function useApiBase(): string {
  return useContext(ApiBaseContext)
}

/** SPEC section 8: "<status>: <message>", or a plain sentence when no answer came back. */
export function describeFailure(error: unknown): string {
  if (error instanceof TRPCClientError) {
    const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus
    if (status) return `${status}: ${error.message}`
    return 'We could not reach the server. Check your connection and try again.'
  }
  return error instanceof Error ? error.message : String(error)
}

/** The per-field problems the API reported for a failed submission (PRODUCT.md error shape). */
export function fieldIssuesOf(error: unknown): { path: string; message: string }[] {
  if (!(error instanceof TRPCClientError)) return []
  const issues = (error.shape as { issues?: unknown } | undefined)?.issues
  return Array.isArray(issues) ? issues : []
}

export function isNotFound(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === 'NOT_FOUND'
}
