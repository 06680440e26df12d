import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createTRPCClient, httpLink, type TRPCClient, TRPCClientError } from '@trpc/client'
import { createTRPCOptionsProxy, type TRPCOptionsProxy } from '@trpc/tanstack-react-query'
import { createContext, type ReactNode, useContext } from 'react'
import type { AppRouter } from '../../api/trpc/router.ts'

export type ApiClient = TRPCClient<AppRouter>

/**
 * The typed query and mutation options every component uses: `useTRPC().cart.list.queryOptions(...)`.
 * In the browser they fetch over HTTP (`createApiOptions`); the server renders with options that
 * call the procedures directly (host/entry-server.tsx), so it builds no HTTP client it never uses.
 */
export type ApiOptions = TRPCOptionsProxy<AppRouter>

const ApiOptionsContext = createContext<ApiOptions | null>(null)

export function useTRPC(): ApiOptions {
  const options = useContext(ApiOptionsContext)
  if (!options) throw new Error('useTRPC() is only available inside an <ApiProvider>')
  return options
}

/**
 * No retries, data never stale, no refetch on focus, unused cache dropped after
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

/** Query options that fetch from the API at `apiBase` over HTTP, cached in `queryClient`. */
export function createApiOptions(apiBase: string, queryClient: QueryClient): ApiOptions {
  return createTRPCOptionsProxy<AppRouter>({ client: createApiClient(apiBase), queryClient })
}

export function ApiProvider(props: { apiBase: string; queryClient: QueryClient; api: ApiOptions; children: ReactNode }) {
  return (
    <QueryClientProvider client={props.queryClient}>
      <ApiOptionsContext.Provider value={props.api}>
        <ApiBaseContext.Provider value={props.apiBase}>{props.children}</ApiBaseContext.Provider>
      </ApiOptionsContext.Provider>
    </QueryClientProvider>
  )
}

const ApiBaseContext = createContext('')

/** Where the API and its images live: '' on the dealer's own site, an origin in an embed. */
export function useApiBase(): string {
  return useContext(ApiBaseContext)
}

/** "<status>: <message>", or a plain sentence when no answer came back (docs/PRODUCT.md). */
export function describeFailure(error: unknown): string {
  if (error instanceof TRPCClientError) {
    const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus
    if (status) return `${status}: ${error.message}`
    return 'We could not reach the server. Check your connection and try again.'
  }
  return error instanceof Error ? error.message : String(error)
}

/**
 * For a read the visitor did not ask for by pressing anything (the rental quote as they type):
 * asked again up to twice, 1 s then 2 s later, while the server answers 503 (busy, or its
 * database is) or nothing at all, instead of showing at once that it could not be checked.
 */
export function retryWhileBusy(failures: number, error: unknown): boolean {
  if (failures >= 2 || !(error instanceof TRPCClientError)) return false
  const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus
  return status === undefined || status === 503
}
export const busyRetryDelay = (attempt: number) => 1000 * (attempt + 1)

/** The per-field problems the API reported for a failed submission (docs/CONTRACTS.md error shape). */
export function fieldIssuesOf(error: unknown): { path: string; message: string }[] {
  if (!(error instanceof TRPCClientError)) return []
  const issues = (error.shape as { issues?: unknown } | undefined)?.issues
  return Array.isArray(issues) ? issues.filter(isFieldIssue) : []
}

function isFieldIssue(value: unknown): value is { path: string; message: string } {
  return typeof value === 'object' && value !== null && 'path' in value && typeof value.path === 'string' && 'message' in value && typeof value.message === 'string'
}

/** The tRPC code of a failure: from the HTTP client in the browser, from the procedure on the server. */
export function errorCode(error: unknown): string | undefined {
  if (error instanceof TRPCClientError) return (error.data as { code?: string } | undefined)?.code
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code
  return undefined
}

/** "No such thing" and "not a valid key" are answers; only a failure to answer is an outage. */
export function answeredNo(error: unknown): boolean {
  const code = errorCode(error)
  return code === 'NOT_FOUND' || code === 'BAD_REQUEST'
}
