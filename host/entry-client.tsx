import { hydrate } from '@tanstack/react-query'
import { hydrateRoot } from 'react-dom/client'
import { createApiClient, createQueryClient } from '../widgets/shared/api.tsx'
import { App } from './app.tsx'
import './styles/index.ts'

/** Picks up the server's data, so hydration renders the same page without fetching it again. */
const queryClient = createQueryClient()
const state = document.getElementById('gc-state')?.textContent
if (state) hydrate(queryClient, JSON.parse(state))

const root = document.getElementById('root')!
hydrateRoot(root, <App queryClient={queryClient} apiClient={createApiClient('')} />)
// Lets tests and monitoring know the page is interactive.
queueMicrotask(() => root.setAttribute('data-hydrated', ''))
