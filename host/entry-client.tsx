import { hydrate } from '@tanstack/react-query'
import { startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { createApiOptions, createQueryClient } from '../widgets/shared/api.tsx'
import { App } from './app.tsx'
import type { PostedForm } from './form-state.ts'
import './styles/index.ts'

/** Picks up the server's data, so hydration renders the same page without fetching it again. */
const queryClient = createQueryClient()
const text = document.getElementById('gc-state')?.textContent
const state = text ? (JSON.parse(text) as Parameters<typeof hydrate>[1] & { postedForm?: PostedForm }) : undefined
if (state) hydrate(queryClient, state)

const root = document.getElementById('root')!
// As a transition, hydration yields to the browser every few milliseconds instead of holding
// the main thread for the whole page: the page already shows, and stays responsive meanwhile.
startTransition(() => {
  hydrateRoot(root, <App queryClient={queryClient} api={createApiOptions('', queryClient)} postedForm={state?.postedForm} />)
})
// Lets tests and monitoring know the page is interactive.
queueMicrotask(() => root.setAttribute('data-hydrated', ''))
