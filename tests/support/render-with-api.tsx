import { render } from '@testing-library/react'
import { createTRPCClient, unstable_localLink } from '@trpc/client'
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query'
import type { ReactElement, ReactNode } from 'react'
import { createContextInner } from '../../api/trpc/context.ts'
import { type AppRouter, appRouter } from '../../api/trpc/router.ts'
import { ApiProvider, createQueryClient } from '../../widgets/shared/api.tsx'
import { ToastProvider } from '../../widgets/shared/toast.tsx'
import { type FakeServices, fakeServices } from './fake-services.ts'

/** Renders a widget component as the site does, its calls answered by the real router. */
export function renderWithApi(ui: ReactElement, services: FakeServices = fakeServices(), options: { toasts?: boolean } = {}) {
  const queryClient = createQueryClient()
  const client = createTRPCClient<AppRouter>({
    links: [unstable_localLink({ router: appRouter, createContext: async () => createContextInner(services) })],
  })
  const api = createTRPCOptionsProxy<AppRouter>({ client, queryClient })
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ApiProvider apiBase="" queryClient={queryClient} api={api}>
      {options.toasts ? <ToastProvider>{children}</ToastProvider> : children}
    </ApiProvider>
  )
  const view = render(ui, { wrapper })
  return { ...view, services, queryClient }
}
