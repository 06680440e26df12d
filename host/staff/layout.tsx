import type { ReactNode } from 'react'
import { Field, Notice } from './form-kit.tsx'
import { business } from '../../domain/business.ts'
import { leadPaths, signInAddress, staffPaths } from '../../domain/staff-paths.ts'
import { roleLabels, type StaffRole } from '../../domain/staff-access.ts'

export interface NavLink {
  href: string
  label: string
}

/**
 * Every console page: a skip link, the dealer's name, the navigation (built from the
 * pages' own `nav`, host/staff/pages.ts), who is signed in with the Sign out button, and the page.
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
  const problem = props.message ? { 'aria-describedby': 'sign-in-problem', 'aria-invalid': true } : {}
  return (
    <SignInFrame title="Sign in to the staff console">
      <Notice>{props.notice}</Notice>
      <Notice tone="error" id="sign-in-problem">
        {props.message}
      </Notice>
      <form method="post" action={staffPaths.login} className="staff-form">
        <NextField next={props.next} />
        {/* Both fields are described by the one problem above them: which of the two was wrong is not said. */}
        <Field name="username" label="Username" defaultValue={props.username}>
          {(control) => (
            <input {...control} {...problem} type="text" autoComplete="username" autoCapitalize="none" spellCheck={false} required autoFocus={!props.username} />
          )}
        </Field>
        <Field name="password" label="Password">
          {(control) => <input {...control} {...problem} type="password" autoComplete="current-password" required autoFocus={Boolean(props.username)} />}
        </Field>
        <button className="staff-button" type="submit">
          Sign in
        </button>
      </form>
      <p>
        <a href={staffPaths.passwordReset}>Forgot your password?</a>
      </p>
      <p className="staff-muted">No account yet? An owner of the dealership can invite you.</p>
    </SignInFrame>
  )
}

/** A page or action this person's role does not include (PRODUCT.md: a 403 with a sentence). */
export function StaffForbiddenPage(props: { message: string }) {
  return (
    <>
      <h1>Not allowed</h1>
      <Notice tone="error">{props.message}</Notice>
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
      <Notice>{props.sent && resetSentMessage}</Notice>
      <Notice tone="error" id="reset-problem">
        {props.message}
      </Notice>
      <form method="post" action={staffPaths.passwordReset} className="staff-form">
        <Field name="name" label="Username or email address" defaultValue={props.name}>
          {(control) => (
            <input
              {...control}
              type="text"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              maxLength={254}
              aria-describedby={props.message ? 'reset-problem' : undefined}
              autoFocus={!props.sent}
            />
          )}
        </Field>
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
        <Notice tone="error">{linkUnusableMessage}</Notice>
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
        <Field
          name="password"
          label="New password"
          hint="At least 12 characters. A few words you will remember are a good password."
          posted={props.message ? { values: {}, errors: { password: props.message } } : undefined}
        >
          {(control) => <input {...control} type="password" autoComplete="new-password" required autoFocus />}
        </Field>
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
      <Notice tone="error" id="code-problem">
        {props.message}
      </Notice>
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
        <Field name="code" label={codeLabel} hint={codeHint}>
          {(control) => (
            <input
              {...control}
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
          )}
        </Field>
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
