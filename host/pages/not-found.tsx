import { Phone } from 'lucide-react'
import { business } from '../../domain/business.ts'
import { callPrompt, type PageMeta, useDocumentMeta } from '../meta.ts'
import type { Route } from '../page.ts'
import { paths } from '../../domain/site-paths.ts'

const meta = (): PageMeta => ({
  title: '404 Page Not Found',
  description: `This page isn't here, but our golf cart experts are ready to help. ${callPrompt}`,
  keywords: [business.name],
  pageType: 'not-found',
  path: '/404',
  noindex: true,
})

function NotFoundPage() {
  useDocumentMeta(meta())
  return (
    <section className="section section--center not-found">
      <div className="container">
        <p className="not-found__code" aria-hidden="true">
          404
        </p>
        <h1 className="page-title">404 Page Not Found</h1>
        <p className="section__intro">
          The page you asked for isn't here. It may have moved, or the link may be mistyped. Our golf cart experts are
          ready to help you find what you need.
        </p>
        <div className="gc-actions gc-actions--center">
          <a className="gc-button gc-button--primary" href={paths.home}>
            Go to the Home Page
          </a>
          <a className="gc-button gc-button--secondary" href={paths.inventory}>
            Browse Inventory
          </a>
          <a className="gc-button gc-button--outline" href={`tel:${business.tollFree.tel}`}>
            <Phone aria-hidden="true" size={18} /> Call {business.tollFree.display}
          </a>
        </div>
      </div>
    </section>
  )
}

/** What every unmatched path renders, with status 404. */
export const notFoundRoute: Route = { Page: NotFoundPage, meta }
