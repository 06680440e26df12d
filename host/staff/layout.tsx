import type { ReactNode } from 'react'
import { business } from '../../domain/business.ts'
import { staffPaths } from '../../domain/staff-paths.ts'

export interface NavLink {
  href: string
  label: string
}

/**
 * Every console page: a skip link, the dealer's name, the navigation (built from the one list of
 * pages, host/staff/pages.tsx), who is signed in with the Sign out button, and the page.
 */
export function ConsoleLayout(props: { nav: NavLink[]; currentPath: string; username: string; children: ReactNode }) {
  const current = (href: string) =>
    props.currentPath === href || (href !== staffPaths.console && props.currentPath.startsWith(`${href}/`))
  // Inventory is the console's home: a cart's own pages belong to it too.
  const currentHref =
    props.nav.find((link) => current(link.href))?.href ??
    (props.currentPath.startsWith('/staff/carts') ? staffPaths.console : undefined)
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="staff-header">
        <div className="staff-header__bar">
          <a className="staff-brand" href={staffPaths.console}>
            {business.name} <span className="staff-brand__tag">Staff</span>
          </a>
          <form className="staff-signout" method="post" action={staffPaths.logout}>
            <span className="staff-signout__who">
              Signed in as <strong>{props.username}</strong>
            </span>
            <button className="staff-button staff-button--quiet" type="submit">
              Sign out
            </button>
          </form>
        </div>
        <nav className="staff-nav" aria-label="Console">
          <ul>
            {props.nav.map((link) => (
              <li key={link.href}>
                <a href={link.href} aria-current={link.href === currentHref ? 'page' : undefined}>
                  {link.label}
                </a>
              </li>
            ))}
            <li>
              <a href="/" className="staff-nav__site">
                View the site
              </a>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" className="staff-main" tabIndex={-1}>
        {props.children}
      </main>
    </>
  )
}

/** The sign-in page (PRODUCT.md: fields "Username" and "Password", a "Sign in" button). */
export function SignInPage(props: { username?: string; message?: string }) {
  const described = props.message ? 'sign-in-problem' : undefined
  return (
    <main id="main" className="staff-signin" tabIndex={-1}>
      <div className="staff-signin__panel">
        <p className="staff-brand">
          {business.name} <span className="staff-brand__tag">Staff</span>
        </p>
        <h1>Sign in to the staff console</h1>
        {props.message && (
          <p className="staff-alert staff-alert--error" id="sign-in-problem" role="alert">
            {props.message}
          </p>
        )}
        <form method="post" action={staffPaths.login} className="staff-form">
          <div className="staff-field">
            <label htmlFor="username">Username</label>
            <input
              id="username"
              name="username"
              type="text"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              defaultValue={props.username}
              aria-describedby={described}
              aria-invalid={props.message ? true : undefined}
              autoFocus={!props.username}
            />
          </div>
          <div className="staff-field">
            <label htmlFor="password">Password</label>
            <input
              id="password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              aria-describedby={described}
              aria-invalid={props.message ? true : undefined}
              autoFocus={Boolean(props.username)}
            />
          </div>
          <button className="staff-button" type="submit">
            Sign in
          </button>
        </form>
        <p className="staff-muted">
          No account yet? Someone with access to the server creates one with <code>npm run staff -- add &lt;username&gt;</code>.
        </p>
      </div>
    </main>
  )
}

/** A console address with nothing behind it (a deleted cart, a mistyped id). */
export function StaffNotFoundPage() {
  return (
    <>
      <h1>Not found</h1>
      <p>Nothing is at this address in the console. The cart may have been deleted.</p>
      <p>
        <a href={staffPaths.console}>Back to the inventory</a>
      </p>
    </>
  )
}
