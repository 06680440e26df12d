import { business, formatHours } from '../../domain/business.ts'
import { counties } from '../../domain/counties.ts'
import { paths } from '../../domain/site-paths.ts'

const quickLinks = [
  { href: paths.home, label: 'Home' },
  { href: paths.inventory, label: 'Inventory' },
  { href: paths.rentals, label: 'Rentals' },
  { href: paths.services, label: 'Services' },
  { href: paths.financing, label: 'Financing' },
  { href: paths.about, label: 'About' },
  { href: paths.privacy, label: 'Privacy Policy' },
  { href: paths.terms, label: 'Terms of Service' },
]

/** The quick links, all 21 county pages and the dealer network's New Jersey page (docs/PRODUCT.md). */
export function Footer() {
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about" className="site-footer__title">
            {business.name}
          </h2>
          <p>
            New electric golf carts, rentals, service and financing, serving all {business.claims.countiesServed} New
            Jersey counties since {business.foundedYear}.
          </p>
          <p>
            <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a>
            <br />
            <a href={`mailto:${business.email}`}>{business.email}</a>
          </p>
          <ul className="site-footer__hours">
            {business.hours.map((h) => (
              <li key={h.days}>{formatHours(h)}</li>
            ))}
          </ul>
        </section>
        <nav aria-labelledby="footer-links">
          <h2 id="footer-links" className="site-footer__title">
            Quick Links
          </h2>
          <ul>
            {quickLinks.map((l) => (
              <li key={l.href}>
                <a href={l.href}>{l.label}</a>
              </li>
            ))}
            <li>
              <a href={business.networkUrl} rel="noopener">
                Dealer Network: New Jersey
              </a>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-counties" className="site-footer__counties">
          <h2 id="footer-counties" className="site-footer__title">
            Golf Carts by County
          </h2>
          <ul>
            {counties.map((c) => (
              <li key={c.value}>
                <a href={paths.countySales(c.value)}>{c.name} County</a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <p className="container site-footer__legal">
        © {business.foundedYear}–{new Date().getFullYear()} {business.legalName}. Prices and availability subject to
        change.
      </p>
    </footer>
  )
}
