import type { QueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { type ApiOptions, ApiProvider, createApiOptions, createQueryClient } from './api.tsx'

/**
 * Every element on a page that talks to one API shares one query cache and one client: two
 * widgets showing the same carts make one request, not two.
 */
const clients = new Map<string, { queryClient: QueryClient; api: ApiOptions }>()

function clientsFor(apiBase: string) {
  let entry = clients.get(apiBase)
  if (!entry) {
    const queryClient = createQueryClient()
    entry = { queryClient, api: createApiOptions(apiBase, queryClient) }
    clients.set(apiBase, entry)
  }
  return entry
}

/** Data for the elements that fetch; the rental tables and the calculator load none of it. */
export function WidgetApi(props: { apiBase: string; children: ReactNode }) {
  const { queryClient, api } = clientsFor(props.apiBase)
  return (
    <ApiProvider apiBase={props.apiBase} queryClient={queryClient} api={api}>
      {props.children}
    </ApiProvider>
  )
}
