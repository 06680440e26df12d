import { roleLabels, secondStepNeeded } from '../../domain/staff-access.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { dealerTime } from './leads/inbox-filter.ts'
import { ActionForm, Field, Notice, Submit } from './form-kit.tsx'
import { StaffTable } from './staff-table.tsx'
import { type PostedState, type StaffCaller, type StaffPageProps, staffPage } from './page.ts'

/**
 * `/staff/account` (every role, issue #29): the signed-in person's own account. Their email
 * address, their password (the current one first; every other browser is signed out), and the
 * browsers they are signed in on, each of which they can sign out. One form per section, each
 * posting `action`, so a refusal comes back beside its own fields with everything typed kept.
 */
type AccountData = Awaited<ReturnType<StaffCaller['staff']['account']['get']>> & {
  needed?: boolean
  /** A passkey whose Remove was pressed: its confirmation, with the current password. */
  removePasskey?: number
}

export const passkeyNeedsScript = 'Adding a passkey needs JavaScript in this browser: turn it on, or add the passkey from another browser.'

/** The key grouped in fours, as apps show it and people type it. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim()

function SecondStepSection({ data, posted }: { data: AccountData; posted?: PostedState }) {
  const mine = (action: string) => (posted?.values.action === action ? posted : undefined)
  const step = data.secondStep
  const codes = posted?.values.recoveryCodes?.split(' ').filter(Boolean)
  return (
    <section className="staff-section" aria-labelledby="account-second-step" id="section-second-step">
      <h2 id="account-second-step">Second step</h2>
      {codes && (
        <div className="staff-alert staff-alert--done" role="status">
          <p>
            <strong>Your recovery codes.</strong> Each signs you in once if you lose your phone. Write them down or
            print them now: they are not shown again.
          </p>
          <ol className="staff-recovery-codes">
            {codes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ol>
        </div>
      )}
      <p>
        {step.authenticator || step.passkeys.length > 0 ? (
          <>
            You sign in with your password and {step.passkeys.length > 0 ? 'a passkey' : ''}
            {step.passkeys.length > 0 && step.authenticator ? ' or ' : ''}
            {step.authenticator ? 'a code from your authenticator app' : ''}. Recovery codes left:{' '}
            <strong>{step.recoveryCodesLeft}</strong> of 10.
          </>
        ) : (
          <>Besides your password, sign in with a passkey or a code from an app on your phone, so a password alone never opens the console.</>
        )}
      </p>
      <PasskeysPart data={data} posted={posted} />
      <h3>Authenticator app</h3>
      {step.authenticator ? (
        <>
          <p>Your authenticator app gives a new 6-digit code every 30 seconds.</p>
          <form method="post" action={staffPaths.account} className="staff-form">
            <Refusal posted={posted} actions={['codes', 'remove-app']} />
            <Field
              name="current"
              id="step-current"
              label="Current password"
              type="password"
              autoComplete="current-password"
              posted={mine('codes') ?? mine('remove-app')}
              hint="Needed for new recovery codes or to remove the app."
              required
            />
            <div className="staff-form__actions">
              <button className="staff-button" type="submit" name="action" value="codes">
                New recovery codes
              </button>
              <button className="staff-button staff-button--danger" type="submit" name="action" value="remove-app">
                Remove the app
              </button>
            </div>
          </form>
        </>
      ) : step.pending ? (
        <ActionForm to={staffPaths.account} action="confirm-app" posted={posted} className="staff-form">
          <p>
            In your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…), add an account with
            this key, or <a href={step.pending.uri}>open it in the app on this phone</a>:
          </p>
          <p className="staff-totp-key">
            <code>{grouped(step.pending.secret)}</code>
          </p>
          <Field
            name="code"
            label="The 6-digit code the app shows"
            type="text"
            autoComplete="one-time-code"
            posted={mine('confirm-app')}
            required
          />
          <Field name="current" id="app-current" label="Current password" type="password" autoComplete="current-password" posted={mine('confirm-app')} required />
          <Submit>Turn on</Submit>
        </ActionForm>
      ) : (
        <ActionForm to={staffPaths.account} action="start-app" posted={posted} className="staff-form">
          <p>Google Authenticator, Microsoft Authenticator, 1Password or any other app that shows 6-digit codes.</p>
          <Submit>Add an authenticator app</Submit>
        </ActionForm>
      )}
    </section>
  )
}

/**
 * The account's passkeys: each with its name and when it was added and last used, removed after a
 * confirmation that asks the current password (`?remove-passkey=ID`, so it works without the
 * script); and the form that adds one, which needs the console's script to ask the browser for
 * the passkey (host/staff/passkeys.ts): without it, the form stays hidden and says so.
 */
function PasskeysPart({ data, posted }: { data: AccountData; posted?: PostedState }) {
  const passkeys = data.secondStep.passkeys
  const removing = passkeys.find((p) => p.id === (posted?.values.action === 'remove-passkey' ? Number(posted.values.id) : data.removePasskey))
  const adding = posted?.values.action === 'add-passkey' ? posted : undefined
  return (
    <>
      <h3 id="account-passkeys">Passkeys</h3>
      {passkeys.length > 0 ? (
        <StaffTable className="staff-table staff-passkeys" labelledBy="account-passkeys" columns={['Name', 'Added', 'Last used', { hidden: 'Remove' }]}>
          {passkeys.map((passkey) => (
            <tr key={passkey.id}>
              <th scope="row">
                {passkey.name}
              </th>
              <td data-label="Added">{dealerTime(passkey.createdAt)}</td>
              <td data-label="Last used">{passkey.lastUsedAt ? dealerTime(passkey.lastUsedAt) : 'not yet'}</td>
              <td>
                <a className="staff-button staff-button--small staff-button--quiet" href={`${staffPaths.account}?remove-passkey=${passkey.id}#section-second-step`}>
                  Remove<span className="gc-sr-only"> the passkey {passkey.name}</span>
                </a>
              </td>
            </tr>
          ))}
        </StaffTable>
      ) : (
        <p>A passkey signs you in with this device’s screen lock, a phone nearby or a security key: nothing to type, and nothing a fake site can catch.</p>
      )}
      {removing && (
        <ActionForm to={staffPaths.account} action="remove-passkey" posted={posted} className="staff-form staff-confirm" labelledBy="remove-passkey-title">
          <h4 id="remove-passkey-title">Remove the passkey “{removing.name}”?</h4>
          <input type="hidden" name="id" value={removing.id} />
          <Field
            name="current"
            id="passkey-current"
            label="Current password"
            type="password"
            autoComplete="current-password"
            posted={posted?.values.action === 'remove-passkey' ? posted : undefined}
            hint="It no longer signs you in once removed."
            required
          />
          <div className="staff-form__actions">
            <button className="staff-button staff-button--danger" type="submit">
              Remove the passkey
            </button>
            <a className="staff-button staff-button--quiet" href={`${staffPaths.account}#section-second-step`}>
              Keep it
            </a>
          </div>
        </ActionForm>
      )}
      {passkeys.length < 10 && !removing && (
        <>
          <ActionForm to={staffPaths.account} action="add-passkey" posted={posted} data={{ 'passkey-add': '' }} hidden={!adding} className="staff-form">
            <input type="hidden" name="response" value="" />
            <Field
              name="name"
              id="passkey-name"
              label="Name of the new passkey"
              type="text"
              autoComplete="off"
              posted={adding}
              hint="Which device or key it is, like “Work laptop” or “Blue key”."
              required
            />
            <Field name="current" id="passkey-add-current" label="Current password" type="password" autoComplete="current-password" posted={adding} required />
            <Submit>Add a passkey</Submit>
            <p className="staff-hint" data-passkey-status role="status" aria-live="polite"></p>
          </ActionForm>
          {!adding && (
            <p className="staff-hint" data-passkey-unavailable>
              Adding a passkey needs JavaScript and a browser that supports passkeys.
            </p>
          )}
        </>
      )}
    </>
  )
}

/** "Chrome on Android", from a user agent, or the agent itself when it names nothing we know. */
export function browserLabel(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser'
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\/|CriOS\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : undefined
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : undefined
  if (!browser) return userAgent.slice(0, 60)
  return system ? `${browser} on ${system}` : browser
}

/** A refusal of what was posted with one of `actions`, shown where that form is. */
function Refusal({ posted, actions }: { posted?: PostedState; actions: readonly string[] }) {
  return <Notice tone="error">{actions.includes(posted?.values.action ?? '') && posted?.message}</Notice>
}

function AccountPage({ data, posted }: StaffPageProps<AccountData>) {
  const mine = (action: string) => (posted?.values.action === action ? posted : undefined)
  const others = data.sessions.filter((session) => !session.current)
  return (
    <div className="staff-account">
      <h1>Your account</h1>
      <p>
        Signed in as <strong>{data.username}</strong>, {roleLabels[data.role].toLowerCase()}.
      </p>
      <Notice tone="error">{data.needed && secondStepNeeded.message}</Notice>

      <ActionForm to={staffPaths.account} action="email" posted={posted} labelledBy="account-email" className="staff-form">
        <fieldset className="staff-section" id="section-email">
          <legend id="account-email">Email address</legend>
          <Field
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            defaultValue={data.email ?? ''}
            posted={mine('email')}
            hint="Where password reset links and lead alerts go. Leave it empty to have none."
          />
          <Field name="current" id="email-current" label="Current password" type="password" autoComplete="current-password" posted={mine('email')} hint="Needed to change the address; the old one is told." required />
          <Submit>Save email</Submit>
        </fieldset>
      </ActionForm>

      <ActionForm to={staffPaths.account} action="password" posted={posted} labelledBy="account-password" className="staff-form">
        <fieldset className="staff-section" id="section-password">
          <legend id="account-password">Password</legend>
          {/* For password managers: which account this new password belongs to. */}
          <input type="text" name="username" autoComplete="username" value={data.username} readOnly hidden />
          <Field name="current" label="Current password" type="password" autoComplete="current-password" posted={mine('password')} required />
          <Field
            name="password"
            label="New password"
            type="password"
            autoComplete="new-password"
            posted={mine('password')}
            hint="At least 12 characters. Every other browser is signed out when it changes."
            required
          />
          <Submit>Change password</Submit>
        </fieldset>
      </ActionForm>

      <SecondStepSection data={data} posted={posted} />

      <section className="staff-section" aria-labelledby="account-sessions" id="section-sessions">
        <h2 id="account-sessions">Where you are signed in</h2>
        <Refusal posted={posted} actions={['end-session']} />
        <StaffTable className="staff-table staff-sessions" labelledBy="account-sessions" columns={['Browser', 'Address', 'Signed in', 'Last used', { hidden: 'Sign out' }]}>
          {data.sessions.map((session) => (
            <tr key={session.id}>
              <td>
                {browserLabel(session.userAgent)}
                {session.current && <span className="staff-badge"> this browser</span>}
              </td>
              <td data-label="Address">{session.address ?? 'unknown'}</td>
              <td data-label="Signed in">{dealerTime(session.signedInAt)}</td>
              <td data-label="Last used">{dealerTime(session.lastSeenAt)}</td>
              <td>
                {!session.current && (
                  <form method="post" action={staffPaths.account}>
                    <input type="hidden" name="action" value="end-session" />
                    <input type="hidden" name="id" value={session.id} />
                    <button className="staff-button staff-button--small staff-button--quiet" type="submit">
                      Sign out<span className="gc-sr-only"> {browserLabel(session.userAgent)} from {session.address ?? 'unknown'}</span>
                    </button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </StaffTable>
        {others.length > 0 && (
          <ActionForm to={staffPaths.account} action="end-others" className="staff-form__actions">
            <button className="staff-button staff-button--quiet" type="submit">
              Sign out every other browser
            </button>
          </ActionForm>
        )}
      </section>
    </div>
  )
}

export const accountPage = staffPage({
  path: staffPaths.account,
  roles: { get: ['sales', 'see their own account'], post: ['sales', 'change their own account'] },
  nav: { label: 'Your account', place: 110 },
  title: () => 'Your account',
  async load(context) {
    const account = await context.caller.staff.account.get()
    const needed = context.query.get('needed') === 'second-step' && !account.secondStep.authenticator && account.secondStep.passkeys.length === 0
    const removePasskey = Number(context.query.get('remove-passkey')) || undefined
    return { ...account, needed, removePasskey }
  },
  Page: AccountPage,
  async post(context, form) {
    const done = (notice: string, section: string) => ({ redirect: `${staffPaths.account}#section-${section}`, notice })
    // Passwords are never sent back into the page, refused or not; nor a passkey's answer.
    const kept = { ...form, current: '', password: '', response: '' }
    const keep = ({ status, posted }: { status: number; posted: PostedState }) => ({ status, posted: { ...posted, values: { ...posted.values, ...kept } } })
    try {
      switch (form.action) {
        case 'email':
          await context.caller.staff.account.setEmail({ email: form.email ?? '', current: form.current ?? '' })
          return done('Your email address is saved.', 'email')
        case 'password':
          await context.caller.staff.account.setPassword({ current: form.current ?? '', password: form.password ?? '' })
          return done('Your password is changed. Every other browser is signed out.', 'password')
        case 'end-session': {
          const parsed = context.parse('staff.account.endSession')
          if (!parsed.ok) return keep(parsed.refusal)
          await context.caller.staff.account.endSession(parsed.value)
          return done('That browser is signed out.', 'sessions')
        }
        case 'start-app':
          await context.caller.staff.account.startAuthenticator()
          return { redirect: `${staffPaths.account}#section-second-step` }
        case 'confirm-app': {
          const { recoveryCodes } = await context.caller.staff.account.confirmAuthenticator({ code: form.code ?? '', current: form.current ?? '' })
          if (recoveryCodes.length === 0) return done('The authenticator app is on. Your recovery codes are the ones you already have.', 'second-step')
          // Shown on this answer only, never stored where a page could show them again.
          return { status: 200, posted: { values: { action: 'confirm-app', recoveryCodes: recoveryCodes.join(' ') }, errors: {} } }
        }
        case 'add-passkey': {
          // The console's script fills `response` with the browser's new passkey.
          if (!form.response) return { status: 400, posted: { values: kept, errors: {}, message: passkeyNeedsScript } }
          const { recoveryCodes } = await context.caller.staff.account.addPasskey({ name: form.name ?? '', response: form.response, current: form.current ?? '' })
          if (recoveryCodes.length === 0) return done('The passkey is added: use it at your next sign-in.', 'second-step')
          return { status: 200, posted: { values: { action: 'add-passkey-done', recoveryCodes: recoveryCodes.join(' ') }, errors: {} } }
        }
        case 'remove-passkey': {
          const parsed = context.parse('staff.account.removePasskey')
          if (!parsed.ok) return keep(parsed.refusal)
          await context.caller.staff.account.removePasskey(parsed.value)
          return done('The passkey is removed.', 'second-step')
        }
        case 'codes': {
          const { recoveryCodes } = await context.caller.staff.account.newRecoveryCodes({ current: form.current ?? '' })
          return { status: 200, posted: { values: { action: 'codes', recoveryCodes: recoveryCodes.join(' ') }, errors: {} } }
        }
        case 'remove-app':
          await context.caller.staff.account.removeAuthenticator({ current: form.current ?? '' })
          return done('The authenticator app is removed.', 'second-step')
        case 'end-others':
          await context.caller.staff.account.endOtherSessions()
          return done('Every other browser is signed out.', 'sessions')
        default:
          return { status: 400, posted: { values: kept, errors: {}, message: 'That is not something this page does.' } }
      }
    } catch (error) {
      return context.refused(error, kept)
    }
  },
})
