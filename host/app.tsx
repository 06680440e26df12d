import type { QueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { Router, useLocation, useSearch } from 'wouter'
import { type ApiOptions, ApiProvider } from '../widgets/shared/api.tsx'
import { ToastProvider } from '../widgets/shared/toast.tsx'
import { Footer } from './components/footer.tsx'
import { Header } from './components/header.tsx'
import { type PostedForm, PostedFormContext } from './form-state.ts'
import { matchRoute } from './routes.ts'

export interface AppProps {
  queryClient: QueryClient
  /** How the page's data is fetched: over HTTP in the browser, by direct calls on the server. */
  api: ApiOptions
  /** On the server: the path and query being rendered. */
  ssrPath?: string
  ssrSearch?: string
  /** A contact form posted without JavaScript, rendered again with its answers. */
  postedForm?: PostedForm
}

/** The whole site: the same tree renders on the server and hydrates in the browser. */
export function App(props: AppProps) {
  return (
    <ApiProvider apiBase="" queryClient={props.queryClient} api={props.api}>
      <ToastProvider>
        <Router ssrPath={props.ssrPath} ssrSearch={props.ssrSearch}>
          <PostedFormContext.Provider value={props.postedForm}>
            <Site />
          </PostedFormContext.Provider>
        </Router>
      </ToastProvider>
    </ApiProvider>
  )
}

function Site() {
  const [path, navigate] = useLocation()
  const search = useSearch()
  const { route, params } = matchRoute(path)
  useInternalLinks(navigate)
  useNavigationFocus(path, search)
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <Header path={path} />
      <main id="main" tabIndex={-1}>
        <route.Page key={path} params={params} search={search} />
      </main>
      <Footer />
    </>
  )
}

/**
 * Links between pages of the site change the page without reloading it. The shared widget
 * components render plain anchors, so one listener on the document handles every link the
 * same way; modified clicks, new tabs, downloads and other sites are left to the browser.
 */
function useInternalLinks(navigate: (to: string) => void) {
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      const anchor = (event.target as Element | null)?.closest?.('a')
      if (!anchor || (anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return
      const url = new URL(anchor.href, location.href)
      if (url.origin !== location.origin || !matchRoute(url.pathname).found) return
      if (url.pathname === location.pathname && url.search === location.search && url.hash) return
      event.preventDefault()
      navigate(`${url.pathname}${url.search}${url.hash}`)
    }
    document.addEventListener('click', onClick)
    return () => document.removeEventListener('click', onClick)
  }, [navigate])
}

/**
 * The view scrolls to the top whenever the location changes (a new page of the inventory
 * included). On a new page, focus moves to the main content, so keyboard and screen reader users
 * start there, not in the old header; a changed query (the inventory filter) keeps focus where
 * the visitor is.
 */
function useNavigationFocus(path: string, search: string) {
  const first = useRef(true)
  const lastPath = useRef(path)
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)))
    if (target) target.scrollIntoView()
    else window.scrollTo(0, 0)
    if (lastPath.current !== path) document.getElementById('main')?.focus({ preventScroll: true })
    lastPath.current = path
  }, [path, search])
}
