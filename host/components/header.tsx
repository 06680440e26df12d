import { Menu, Phone, X } from 'lucide-react'
import { business } from '../../domain/business.ts'
import { matchSitePath, paths, type SitePage } from '../../domain/site-paths.ts'
import { shortlistHref } from '../../domain/shortlist.ts'
import { ShortlistLinks } from '../../widgets/shared/shortlist-buttons.tsx'

/** The header's links, in order (docs/PRODUCT.md, "Header and footer"). */
const headerLinks = [
  { page: 'home', label: 'Home' },
  { page: 'inventory', label: 'Inventory' },
  { page: 'rentals', label: 'Rentals' },
  { page: 'services', label: 'Services' },
  { page: 'about', label: 'About' },
  { page: 'contact', label: 'Contact' },
] as const satisfies readonly { page: SitePage; label: string }[]

/** Which header link a page belongs under: a vehicle under the inventory, a county's rentals under rentals. */
const sectionOf: Partial<Record<SitePage, SitePage>> = { vehicle: 'inventory', countyRentals: 'rentals' }

function currentSection(path: string): SitePage | undefined {
  const page = matchSitePath(path)?.page
  return page && (sectionOf[page] ?? page)
}

/**
 * Links with the current one highlighted, the phone (on phones in a row of its own), Get Quote,
 * the shopper's compare and saved lists; a menu on small screens. The
 * header is HTML only: the menu button's script is host/islands/menu.ts, and the button's icon
 * follows its aria-expanded (site.css).
 */
export function Header({ path }: { path: string }) {
  const current = currentSection(path)

  const links = headerLinks.map((link) => (
    <li key={link.page}>
      <a href={paths[link.page]} aria-current={current === link.page ? 'page' : undefined}>
        {link.label}
      </a>
    </li>
  ))

  return (
    <header className="site-header">
      <div className="container site-header__bar">
        <a href={paths.home} className="site-header__brand">
          <img src="/images/logo.svg" alt="" width={40} height={40} />
          <span>{business.name}</span>
        </a>
        <nav aria-label="Main" className="site-header__nav">
          <ul>{links}</ul>
        </nav>
        <div className="site-header__actions">
          <a className="site-header__phone" href={`tel:${business.tollFree.tel}`}>
            <Phone aria-hidden="true" size={18} />
            {business.tollFree.display}
          </a>
          <a className="gc-button gc-button--primary" href={paths.quoteForm()}>
            Get Quote
          </a>
          <button type="button" className="site-header__toggle" aria-expanded={false} aria-controls="mobile-menu">
            <Menu aria-hidden="true" className="site-header__open" />
            <X aria-hidden="true" className="site-header__close" />
            <span className="gc-sr-only">Open menu</span>
          </button>
        </div>
      </div>
      {/*
        Phones: the number to call under the bar (the bar has room for the name, Get Quote and
        the menu only). Every screen: the shopper's compare and saved lists once they have a
        cart (shown by host/islands/shortlist.ts; the server has no storage).
      */}
      <div className="container site-header__sub">
        <a className="site-header__call" href={`tel:${business.tollFree.tel}`}>
          <Phone aria-hidden="true" size={16} />
          Call {business.tollFree.display}
        </a>
        <ShortlistLinks className="gc-shortlist site-header__lists" href={shortlistHref} />
      </div>
      <nav id="mobile-menu" aria-label="Mobile" className="site-header__mobile" hidden>
        <ul>{links}</ul>
        <a className="site-header__mobile-phone" href={`tel:${business.tollFree.tel}`}>
          <Phone aria-hidden="true" size={18} /> Call {business.tollFree.display}
        </a>
      </nav>
    </header>
  )
}
