import { roleLabels, staffRoles } from '../../domain/staff-access.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { dealerTime } from './leads/inbox-filter.ts'
import { choices, Field, Notice, Submit } from './form-kit.tsx'
import { StaffTable } from './staff-table.tsx'
import { type PostedState, type StaffCaller, type StaffPageProps, staffPage } from './page.ts'

/**
 * `/staff/accounts` (owners, PRODUCT.md "accounts in the browser"): every account with its role,
 * email, last sign-in, second step and state; change a role, disable or enable, remove (after a
 * confirmation step). Each row's buttons are small forms posting `action` and `username`; the last owner who can sign in can be neither
 * demoted, disabled nor removed (the account store refuses it, api/users/user-store.ts), and the
 * refusal comes back above the table with its sentence.
 */
type AccountsData = Awaited<ReturnType<StaffCaller['staff']['accounts']['list']>> & {
  /** The account whose Remove was pressed: the confirmation to answer first. */
  removing?: string
}

/** An account's second step, as the table says it. */
function secondStepLabel(account: { authenticatorApp: boolean; passkeys: number }): string {
  const kinds = [
    account.passkeys > 0 ? (account.passkeys === 1 ? 'Passkey' : `${account.passkeys} passkeys`) : '',
    account.authenticatorApp ? 'Authenticator app' : '',
  ].filter(Boolean)
  return kinds.length > 0 ? kinds.join(', ') : 'None'
}

/**
 * "Remove" asks first, as a step of this page (`?remove=NAME`), so it works without the script:
 * the account, what removing it does, and the button that does it.
 */
function RemoveConfirmation({ username, me }: { username: string; me: boolean }) {
  return (
    <form method="post" action={staffPaths.accounts} className="staff-form staff-confirm" id="confirm-remove" aria-labelledby="confirm-remove-title">
      <h2 id="confirm-remove-title">Remove the account “{username}”?</h2>
      <p>
        {me ? 'This is your own account: you are signed out at once. ' : ''}It is signed out everywhere and can never sign in
        again; its changes stay in the history under its name. To stop someone for a while, disable the account instead.
      </p>
      <input type="hidden" name="action" value="remove" />
      <input type="hidden" name="username" value={username} />
      <input type="hidden" name="confirm" value="yes" />
      <div className="staff-form__actions">
        <button className="staff-button staff-button--danger" type="submit">
          Remove {username}
        </button>
        <a className="staff-button staff-button--quiet" href={staffPaths.accounts}>
          Keep it
        </a>
      </div>
    </form>
  )
}

const roleChoices = choices(staffRoles.map((role) => ({ value: role, label: roleLabels[role] })))

function InviteForm({ posted }: { posted?: PostedState }) {
  const mine = posted?.values.action === 'invite' ? posted : undefined
  const field = (name: string, label: string, type: string) => (
    <Field name={name} id={`invite-${name}`} label={label} posted={mine}>
      {(control) => <input {...control} type={type} autoComplete="off" autoCapitalize="none" spellCheck={false} required />}
    </Field>
  )
  return (
    <form method="post" action={staffPaths.accounts} className="staff-form" aria-labelledby="invite-title">
      <fieldset className="staff-section" id="section-invite">
        <legend id="invite-title">Invite someone</legend>
        <Notice tone="error">{mine?.message}</Notice>
        <input type="hidden" name="action" value="invite" />
        {field('username', 'Username', 'text')}
        {field('email', 'Email', 'email')}
        <Field
          name="role"
          id="invite-role"
          label="Role"
          posted={mine}
          defaultValue="sales"
          hint="They get an email with a link that sets their password, valid 72 hours."
        >
          {roleChoices}
        </Field>
        <Submit>Send invitation</Submit>
      </fieldset>
    </form>
  )
}

function AccountsPage({ data, posted }: StaffPageProps<AccountsData>) {
  return (
    <div className="staff-accounts">
      <h1>Accounts</h1>
      <Notice tone="error">{posted?.values.action !== 'invite' && posted?.message}</Notice>
      {data.removing && data.accounts.some((a) => a.username === data.removing) && (
        <RemoveConfirmation username={data.removing} me={data.accounts.some((a) => a.username === data.removing && a.id === data.me)} />
      )}
      <StaffTable
        className="staff-table staff-accounts__table"
        caption="Every staff account"
        columns={['Account', 'Role', 'Email', 'Last sign-in', 'Second step', { hidden: 'Actions' }]}
      >
        {data.accounts.map((account) => {
          return (
            <tr key={account.id} data-username={account.username}>
              <th scope="row">
                {account.username}
                {account.id === data.me && <span className="staff-badge"> you</span>}
                {account.disabled && <span className="staff-badge staff-badge--off"> disabled</span>}
              </th>
              <td data-label="Role">
                <form method="post" action={staffPaths.accounts} className="staff-accounts__role">
                  <input type="hidden" name="action" value="role" />
                  <input type="hidden" name="username" value={account.username} />
                  <Field name="role" id={`role-${account.id}`} label={`Role of ${account.username}`} hiddenLabel defaultValue={account.role}>
                    {roleChoices}
                  </Field>
                  <button className="staff-button staff-button--small" type="submit">
                    Save<span className="gc-sr-only"> the role of {account.username}</span>
                  </button>
                </form>
              </td>
              <td data-label="Email">{account.email ?? <span className="staff-muted">none</span>}</td>
              <td data-label="Last sign-in">
                {account.lastSignInAt ? dealerTime(new Date(account.lastSignInAt).toISOString()) : <span className="staff-muted">never</span>}
              </td>
              <td data-label="Second step">{secondStepLabel(account)}</td>
              <td className="staff-accounts__actions">
                <form method="post" action={staffPaths.accounts}>
                  <input type="hidden" name="action" value={account.disabled ? 'enable' : 'disable'} />
                  <input type="hidden" name="username" value={account.username} />
                  <button className="staff-button staff-button--small staff-button--quiet" type="submit">
                    {account.disabled ? 'Enable' : 'Disable'}
                    <span className="gc-sr-only"> {account.username}</span>
                  </button>
                </form>
                {account.email && !account.disabled && (
                  <form method="post" action={staffPaths.accounts}>
                    <input type="hidden" name="action" value="reset" />
                    <input type="hidden" name="username" value={account.username} />
                    <button className="staff-button staff-button--small staff-button--quiet" type="submit">
                      Send reset<span className="gc-sr-only"> to {account.username}</span>
                    </button>
                  </form>
                )}
                <a
                  className="staff-button staff-button--small staff-button--danger"
                  href={`${staffPaths.accounts}?remove=${encodeURIComponent(account.username)}#confirm-remove`}
                >
                  Remove<span className="gc-sr-only"> {account.username}</span>
                </a>
              </td>
            </tr>
          )
        })}
      </StaffTable>
      <InviteForm posted={posted} />
    </div>
  )
}

export const accountsPage = staffPage({
  path: staffPaths.accounts,
  roles: { get: ['owner', 'see the accounts'], post: ['owner', 'change accounts'] },
  nav: { label: 'Accounts', place: 90 },
  title: () => 'Accounts',
  async load(context) {
    return { ...(await context.caller.staff.accounts.list()), removing: context.query.get('remove') ?? undefined }
  },
  Page: AccountsPage,
  async post(context, form) {
    const username = form.username ?? ''
    const done = (notice: string) => ({ redirect: staffPaths.accounts, notice })
    // One form per row: a problem beside a field (a role that is none) reads above the table.
    const aboveTable = ({ status, posted }: { status: number; posted: PostedState }) => ({
      status,
      posted: { ...posted, message: posted.message ?? Object.values(posted.errors)[0] },
    })
    const { accounts } = context.caller.staff
    try {
      switch (form.action) {
        case 'role': {
          const parsed = context.parse('staff.accounts.setRole')
          if (!parsed.ok) return aboveTable(parsed.refusal)
          await accounts.setRole(parsed.value)
          return done(`${username}’s role is changed.`)
        }
        case 'disable':
        case 'enable': {
          const parsed = context.parse('staff.accounts.setDisabled', { disabled: form.action === 'disable' })
          if (!parsed.ok) return aboveTable(parsed.refusal)
          await accounts.setDisabled(parsed.value)
          return done(parsed.value.disabled ? `${username} is disabled and signed out everywhere.` : `${username} can sign in again.`)
        }
        case 'remove': {
          // A removal not confirmed on this page (an old form, another tool) is asked first.
          if (form.confirm !== 'yes') return { redirect: `${staffPaths.accounts}?remove=${encodeURIComponent(username)}#confirm-remove` }
          const parsed = context.parse('staff.accounts.remove')
          if (!parsed.ok) return aboveTable(parsed.refusal)
          await accounts.remove(parsed.value)
          return done(`${username} is removed.`)
        }
        case 'reset': {
          const parsed = context.parse('staff.accounts.sendReset')
          if (!parsed.ok) return aboveTable(parsed.refusal)
          await accounts.sendReset(parsed.value)
          return done(`A password reset link is on its way to ${username}.`)
        }
        case 'invite': {
          const parsed = context.parse('staff.accounts.invite')
          if (!parsed.ok) return parsed.refusal
          const added = await accounts.invite(parsed.value)
          return done(`${added.username} is invited: the email’s link works for 72 hours.`)
        }
        default:
          return { status: 400, posted: { values: form, errors: {}, message: 'That is not something this page does.' } }
      }
    } catch (error) {
      const refused = context.refused(error, form)
      return form.action === 'invite' ? refused : aboveTable(refused)
    }
  },
})
