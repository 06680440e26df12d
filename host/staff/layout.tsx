import type { ReactNode } from 'react'
import { Notice } from './form-kit.tsx'
import { business } from '../../domain/business.ts'
import { leadPaths, signInAddress, staffPaths } from '../../domain/staff-paths.ts'
import { roleLabels, type StaffRole } from '../../domain/staff-access.ts'

export interface NavLink {
  href: string
  label: string
}

/**
 * Every console page: a skip link, the dealer's name, the navigation (built from the one list of
 * pages, host/staff/pages.tsx), who is signed in with the Sign out button, and the page.
 */
export function ConsoleLayout(props: {
  nav: NavLink[]
  currentPath: string
  username: string
  role: StaffRole
  newLeads: number
  /** What the post before this page did, said once (a flash). */
  notice?: string
  children: ReactNode
}) {
  const current = (href: string) =>
    props.currentPath === href || (href !== staffPaths.console && props.currentPath.startsWith(`${href}/`))
  // Inventory is the console's home: a cart's own pages belong to it too; a customer's record, to the leads.
  const currentHref =
    props.nav.find((link) => current(link.href))?.href ??
    (props.currentPath.startsWith('/staff/carts')
      ? staffPaths.console
      : props.currentPath.startsWith('/staff/customers/')
        ? leadPaths.inbox
        : undefined)
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
              Signed in as <strong>{props.username}</strong> ({roleLabels[props.role].toLowerCase()})
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
                  {link.href === leadPaths.inbox && props.newLeads > 0 && (
                    <>
                      {' '}
                      <span className="staff-nav__count" data-new-leads={props.newLeads}>
                        {props.newLeads} new
                      </span>
                    </>
                  )}
                </a>
              </li>
            ))}
            <li className="staff-alerts" hidden data-alerts>
              <button type="button" className="staff-button staff-button--quiet" data-alerts-button>
                Turn on alerts on this phone
              </button>
              <span className="staff-alerts__status" aria-live="polite" data-alerts-status />
            </li>
            <li>
              <a href="/" className="staff-nav__site">
                View the site
              </a>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" className="staff-main" tabIndex={-1}>
        <Notice>{props.notice}</Notice>
        {props.children}
      </main>
    </>
  )
}

/** The console page sign-in leads back to (an alert's link), carried by each of its forms. */
function NextField(props: { next?: string }) {
  return props.next ? <input type="hidden" name="next" value={props.next} /> : null
}

/** The sign-in page (PRODUCT.md: fields "Username" and "Password", a "Sign in" button). */
export function SignInPage(props: { username?: string; message?: string; notice?: string; next?: string }) {
  const described = props.message ? 'sign-in-problem' : undefined
  return (
    <main id="main" className="staff-signin" tabIndex={-1}>
      <div className="staff-signin__panel">
        <p className="staff-brand">
          {business.name} <span className="staff-brand__tag">Staff</span>
        </p>
        <h1>Sign in to the staff console</h1>
        {props.notice && (
          <p className="staff-alert staff-alert--done" role="status">
            {props.notice}
          </p>
        )}
        {props.message && (
          <p className="staff-alert staff-alert--error" id="sign-in-problem" role="alert">
            {props.message}
          </p>
        )}
        <form method="post" action={staffPaths.login} className="staff-form">
          <NextField next={props.next} />
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
        <p>
          <a href={staffPaths.passwordReset}>Forgot your password?</a>
        </p>
        <p className="staff-muted">No account yet? An owner of the dealership can invite you.</p>
      </div>
    </main>
  )
}

/** A page or action this person's role does not include (PRODUCT.md: a 403 with a sentence). */
export function StaffForbiddenPage(props: { message: string }) {
  return (
    <>
      <h1>Not allowed</h1>
      <p className="staff-alert staff-alert--error" role="alert">
        {props.message}
      </p>
      <p>
        <a href={staffPaths.console}>Back to the inventory</a>
      </p>
    </>
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

/** The sign-in page's frame, for the pages reached from it without a session. */
function SignInFrame(props: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="staff-signin" tabIndex={-1}>
      <div className="staff-signin__panel">
        <p className="staff-brand">
          {business.name} <span className="staff-brand__tag">Staff</span>
        </p>
        <h1>{props.title}</h1>
        {props.children}
      </div>
    </main>
  )
}

/** The same words whether or not an account has that name (PRODUCT.md, "password reset"). */
export const resetSentMessage =
  'If an account has that username or email address, we have sent it a link to choose a new password. The link works once, for 30 minutes. Nothing arrived after a few minutes? Ask an owner of the dealership.'

/** "Forgot your password?": a username or email address; afterwards, the one answer. */
export function PasswordResetRequestPage(props: { sent?: boolean; message?: string; name?: string }) {
  return (
    <SignInFrame title="Reset your password">
      {props.sent && (
        <p className="staff-alert staff-alert--done" role="status">
          {resetSentMessage}
        </p>
      )}
      {props.message && (
        <p className="staff-alert staff-alert--error" id="reset-problem" role="alert">
          {props.message}
        </p>
      )}
      <form method="post" action={staffPaths.passwordReset} className="staff-form">
        <div className="staff-field">
          <label htmlFor="name">Username or email address</label>
          <input
            id="name"
            name="name"
            type="text"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            maxLength={254}
            defaultValue={props.name}
            aria-describedby={props.message ? 'reset-problem' : undefined}
            autoFocus={!props.sent}
          />
        </div>
        <button className="staff-button" type="submit">
          Email me a link
        </button>
      </form>
      <p>
        <a href={staffPaths.login}>Back to sign in</a>
      </p>
    </SignInFrame>
  )
}

export const linkUnusableMessage = 'This link has expired or has already been used. Ask for a new one.'

/** The emailed link: choose a password, or why the link no longer works. */
export function PasswordChoicePage(props: { action: string; account?: { username: string; purpose: 'reset' | 'invite' }; message?: string }) {
  if (!props.account) {
    return (
      <SignInFrame title="This link no longer works">
        <p className="staff-alert staff-alert--error" role="alert">
          {linkUnusableMessage}
        </p>
        <p>
          <a href={staffPaths.passwordReset}>Email me a new link</a>
        </p>
      </SignInFrame>
    )
  }
  const invited = props.account.purpose === 'invite'
  return (
    <SignInFrame title={invited ? 'Choose your password' : 'Choose a new password'}>
      <p>
        For the account <strong>{props.account.username}</strong>.{' '}
        {invited ? '' : 'Every browser signed in to it is signed out.'}
      </p>
      <form method="post" action={props.action} className="staff-form">
        <input type="text" name="username" autoComplete="username" value={props.account.username} readOnly hidden />
        <div className="staff-field">
          <label htmlFor="password">New password</label>
          <p className="staff-hint" id="password-hint">
            At least 12 characters. A few words you will remember are a good password.
          </p>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            aria-describedby={props.message ? 'password-hint password-error' : 'password-hint'}
            aria-invalid={props.message ? true : undefined}
            autoFocus
          />
          {props.message && (
            <p className="staff-error" id="password-error">
              {props.message}
            </p>
          )}
        </div>
        <button className="staff-button" type="submit">
          Save password
        </button>
      </form>
    </SignInFrame>
  )
}

/**
 * After a right password, for an account with a second step: its passkey (the console's script
 * shows that form and asks the browser; `data-passkey-sign-in` holds the options to sign), the
 * code from its app, or a recovery code, which every account with a second step has.
 */
export function SecondStepPage(props: { message?: string; choices: { app: boolean; passkey?: unknown }; next?: string }) {
  const { app, passkey } = props.choices
  const codeLabel = app ? 'Code from your authenticator app' : 'Recovery code'
  const codeHint = app
    ? 'The 6 digits your app shows now. Lost your phone? Enter one of your recovery codes instead.'
    : 'Lost your passkey, or this browser cannot use it? Enter one of the recovery codes you wrote down.'
  return (
    <SignInFrame title={app || !passkey ? 'Enter your code' : 'Use your passkey'}>
      {props.message && (
        <p className="staff-alert staff-alert--error" id="code-problem" role="alert">
          {props.message}
        </p>
      )}
      {passkey !== undefined && (
        <>
          <form method="post" action={staffPaths.login} className="staff-form" data-passkey-sign-in={JSON.stringify(passkey)} hidden>
            <input type="hidden" name="passkey" value="" />
            <NextField next={props.next} />
            <p>Use the passkey you added to your account: this device, a phone nearby or a security key.</p>
            <button className="staff-button" type="submit">
              Use your passkey
            </button>
            <p className="staff-hint" data-passkey-status role="status" aria-live="polite"></p>
          </form>
          <p className="staff-hint" data-passkey-unavailable>
            Signing in with a passkey needs JavaScript and a browser that supports passkeys.
          </p>
        </>
      )}
      <form method="post" action={staffPaths.login} className="staff-form">
        <NextField next={props.next} />
        <div className="staff-field">
          <label htmlFor="code">{codeLabel}</label>
          <p className="staff-hint" id="code-hint">
            {codeHint}
          </p>
          <input
            id="code"
            name="code"
            type="text"
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            required
            maxLength={40}
            aria-describedby={props.message ? 'code-hint code-problem' : 'code-hint'}
            aria-invalid={props.message ? true : undefined}
            autoFocus={passkey === undefined}
          />
        </div>
        <button className={passkey === undefined ? 'staff-button' : 'staff-button staff-button--quiet'} type="submit">
          {passkey === undefined ? 'Sign in' : 'Sign in with the code'}
        </button>
      </form>
      <p>
        <a href={signInAddress(props.next)}>Start again</a>
      </p>
    </SignInFrame>
  )
}
