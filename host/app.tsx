import type { QueryClient } from '@tanstack/react-query'
import { type ApiOptions, ApiProvider } from '../widgets/shared/api.tsx'
import { type IslandHost, IslandHostProvider } from '../widgets/shared/island.tsx'
import { Footer } from './components/footer.tsx'
import { Header } from './components/header.tsx'
import { type PostedForm, PostedFormContext } from './form-state.ts'
import { matchRoute } from './routes.ts'

export interface AppProps {
  queryClient: QueryClient
  /** The page's data, fetched by direct calls to the procedures. */
  api: ApiOptions
  /** The path and the query (without "?") being rendered. */
  path: string
  search: string
  /** A contact form posted without JavaScript, rendered again with its answers. */
  postedForm?: PostedForm
  /** Where the page's interactive parts go (host/islands/server.tsx). */
  islands: IslandHost
}

/**
 * The whole site, rendered on the server only: the page stays HTML, and the browser hydrates
 * just its islands (host/entry-client.tsx, docs/decisions/0014-islands.md). Links between pages
 * are ordinary links.
 */
export function App(props: AppProps) {
  const { route, params } = matchRoute(props.path)
  return (
    <ApiProvider apiBase="" queryClient={props.queryClient} api={props.api}>
      <IslandHostProvider value={props.islands}>
        <PostedFormContext.Provider value={props.postedForm}>
          <a className="skip-link" href="#main">
            Skip to main content
          </a>
          <Header path={props.path} />
          <main id="main" tabIndex={-1}>
            <route.Page params={params} search={props.search} />
          </main>
          <Footer />
        </PostedFormContext.Provider>
      </IslandHostProvider>
    </ApiProvider>
  )
}
