import type { QueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { type ApiClient, ApiProvider, createApiClient, createQueryClient } from './api.tsx'

/**
 * Every element on a page that talks to one API shares one query cache and one client: two
 * widgets showing the same carts make one request, not two.
 */
const clients = new Map<string, { queryClient: QueryClient; apiClient: ApiClient }>()

function clientsFor(apiBase: string) {
  let entry = clients.get(apiBase)
  if (!entry) {
    entry = { queryClient: createQueryClient(), apiClient: createApiClient(apiBase) }
    clients.set(apiBase, entry)
  }
  return entry
}

/** Data for the elements that fetch; the rental tables and the calculator load none of it. */
export function WidgetApi(props: { apiBase: string; children: ReactNode }) {
  const { queryClient, apiClient } = clientsFor(props.apiBase)
  return (
    <ApiProvider apiBase={props.apiBase} queryClient={queryClient} apiClient={apiClient}>
      {props.children}
    </ApiProvider>
  )
}
