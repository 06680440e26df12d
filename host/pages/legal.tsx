import { business } from '../../domain/business.ts'
import { paths } from '../../domain/site-paths.ts'
import { type LegalDocument, privacyPolicy, termsOfService } from '../content/legal.ts'
import { callPrompt, type PageMeta, useDocumentMeta } from '../meta.ts'
import type { Route } from '../page.ts'

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' })

function LegalPage({ document: doc, meta }: { document: LegalDocument; meta: PageMeta }) {
  useDocumentMeta(meta)
  return (
    <section className="section">
      <div className="container prose legal">
        <h1 className="page-title">{doc.title}</h1>
        <p className="legal__dates">
          Effective {dateFormat.format(new Date(doc.effectiveDate))}. Last updated{' '}
          {dateFormat.format(new Date(doc.updatedDate))}.
        </p>
        <p>{doc.intro}</p>
        <nav aria-label="Sections" className="legal__toc">
          <ol>
            {doc.sections.map((section, i) => (
              <li key={section.heading}>
                <a href={`#section-${i + 1}`}>{section.heading}</a>
              </li>
            ))}
          </ol>
        </nav>
        {doc.sections.map((section, i) => (
          <section key={section.heading} id={`section-${i + 1}`} aria-labelledby={`section-${i + 1}-title`}>
            <h2 id={`section-${i + 1}-title`}>
              {i + 1}. {section.heading}
            </h2>
            {section.paragraphs.map((p) => (
              <p key={p}>{p}</p>
            ))}
          </section>
        ))}
      </div>
    </section>
  )
}

const privacyMeta = (): PageMeta => ({
  title: 'Privacy Policy',
  description: `How ${business.name} collects, uses and protects what you send through this website. ${callPrompt}`,
  keywords: ['privacy policy', 'golf cart dealer privacy', 'contact form data', business.name],
  pageType: 'policy',
  path: paths.privacy,
})

const termsMeta = (): PageMeta => ({
  title: 'Terms of Service',
  description: `The terms for using the ${business.name} website, quotes, financing and rentals, governed by New Jersey law. ${callPrompt}`,
  keywords: ['terms of service', 'golf cart rental terms', 'golf cart financing terms', business.name],
  pageType: 'terms',
  path: paths.terms,
})

export const privacyRoute: Route = {
  Page: () => <LegalPage document={privacyPolicy} meta={privacyMeta()} />,
  meta: privacyMeta,
}

export const termsRoute: Route = {
  Page: () => <LegalPage document={termsOfService} meta={termsMeta()} />,
  meta: termsMeta,
}
