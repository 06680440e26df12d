import { hydrate } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { ApiProvider, createApiOptions, createQueryClient } from '../../widgets/shared/api.tsx'

/**
 * The query cache the data islands share, filled with what the server fetched for the page
 * (#gc-state), so they hydrate without asking again; later reads go over /trpc.
 */
export function dataProvider(): (node: ReactNode) => ReactNode {
  const queryClient = createQueryClient()
  const text = document.getElementById('gc-state')?.textContent
  if (text) hydrate(queryClient, JSON.parse(text) as Parameters<typeof hydrate>[1])
  const api = createApiOptions('', queryClient)
  return (node) => (
    <ApiProvider apiBase="" queryClient={queryClient} api={api}>
      {node}
    </ApiProvider>
  )
}
