import { Menu, Phone, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { business } from '../../domain/business.ts'
import { matchSitePath, paths, type SitePage } from '../../domain/site-paths.ts'

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

/** Links with the current one highlighted, the phone, Get Quote; a menu on small screens. */
export function Header({ path }: { path: string }) {
  const [open, setOpen] = useState(false)
  const current = currentSection(path)
  // Choosing a link (any navigation) closes the menu.
  useEffect(() => setOpen(false), [path])

  const links = headerLinks.map((link) => (
    <li key={link.page}>
      <a href={paths[link.page]} aria-current={current === link.page ? 'page' : undefined} onClick={() => setOpen(false)}>
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
          <a className="gc-button gc-button--primary" href={paths.contact}>
            Get Quote
          </a>
          <button
            type="button"
            className="site-header__toggle"
            aria-expanded={open}
            aria-controls="mobile-menu"
            onClick={() => setOpen(!open)}
          >
            {open ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
            <span className="gc-sr-only">{open ? 'Close menu' : 'Open menu'}</span>
          </button>
        </div>
      </div>
      <nav id="mobile-menu" aria-label="Mobile" className="site-header__mobile" hidden={!open}>
        <ul>{links}</ul>
        <a className="site-header__mobile-phone" href={`tel:${business.tollFree.tel}`}>
          <Phone aria-hidden="true" size={18} /> Call {business.tollFree.display}
        </a>
      </nav>
    </header>
  )
}
