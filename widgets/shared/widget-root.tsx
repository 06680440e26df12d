import type { ReactNode } from 'react'
import { type ApiClient, ApiProvider, createApiClient, createQueryClient } from './api.tsx'
import { ToastProvider } from './toast.tsx'
import type { QueryClient } from '@tanstack/react-query'

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

/** The inside of every custom element: data, optional toasts, and the isolated styling root. */
export function WidgetRoot(props: { apiBase: string; toasts?: boolean; children: ReactNode }) {
  const { queryClient, apiClient } = clientsFor(props.apiBase)
  return (
    <ApiProvider apiBase={props.apiBase} queryClient={queryClient} apiClient={apiClient}>
      <div className="gc-widget gc-theme" part="root">
        {props.toasts ? <ToastProvider>{props.children}</ToastProvider> : props.children}
      </div>
    </ApiProvider>
  )
}
