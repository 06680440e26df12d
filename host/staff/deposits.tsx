import { TRPCError } from '@trpc/server'
import type { StaffDeposit } from '../../api/deposits/staff-deposits.ts'
import { type DepositStatus, depositStatusLabels, formatCents, holdDate } from '../../domain/deposits.ts'
import { formatPrice } from '../../domain/golf-cart.ts'
import { leadPaths, staffPaths } from '../../domain/staff-paths.ts'
import { dealerTime, telHref } from './leads/inbox-filter.ts'
import { choices, Field } from './form-kit.tsx'
import { StaffTable } from './staff-table.tsx'
import { type PostOutcome, type StaffPageContext, type StaffPageProps, StaffNotFound, staffPage } from './page.ts'

/**
 * `/staff/deposits` (PRODUCT.md, "after the hold"; managers and owners): every deposit paid online,
 * newest first, with its cart, shopper, amount, when it was paid, until when it holds the cart and
 * its state; a refund, or the cart marked sold with the deposit counted toward its price, each
 * asked on a page of its own first (`/staff/deposits/{id}/refund`, `/staff/deposits/{id}/sold`),
 * so both work without JavaScript (decision 0016). Every write is a `staff.deposit.*` procedure,
 * which records it in the audit log. Without Stripe's settings the page says which to set and
 * still lists what was paid before; a refund needs Stripe and is not offered (decision 0047).
 */

/** The states the list can be narrowed to: every state but a Session still at Stripe's page. */
const shownStatuses = (Object.keys(depositStatusLabels) as DepositStatus[]).filter((status) => status !== 'open')
const isShownStatus = (value: string | null): value is DepositStatus => (shownStatuses as readonly string[]).includes(value ?? '')

const statusChoices = choices([{ value: '', label: 'Every deposit' }, ...shownStatuses.map((status) => ({ value: status, label: depositStatusLabels[status] }))])

const refundable = (deposit: StaffDeposit) => ['held', 'paid', 'expired'].includes(deposit.status)
const sellable = (deposit: StaffDeposit) =>
  deposit.kind === 'cart' && ['held', 'expired'].includes(deposit.status) && (deposit.cart?.status === 'hold' || deposit.cart?.status === 'available')

const shopperName = (deposit: StaffDeposit) => `${deposit.firstName} ${deposit.lastName}`
const cartName = (deposit: StaffDeposit) => (deposit.kind === 'rental' ? 'a rental reservation' : (deposit.cart?.title ?? 'a cart since removed'))

async function loadDeposits(context: StaffPageContext) {
  const status = context.query.get('status')
  const list = await context.caller.staff.deposit.list(isShownStatus(status) ? { status } : {})
  return { ...list, status: isShownStatus(status) ? status : undefined }
}

type DepositsData = Awaited<ReturnType<typeof loadDeposits>>

/** What a refund or a sale did, said once on the list (a flash). */
function doneNotice(done: 'refunded' | 'sold', deposit: StaffDeposit): string {
  const whose = `${shopperName(deposit)}’s ${formatCents(deposit.amountCents)} deposit`
  return done === 'refunded'
    ? `${whose} is being refunded through Stripe; the shopper is emailed when Stripe has taken it.${deposit.kind === 'cart' ? ' The cart is for sale again.' : ''}`
    : `${whose} is counted toward the sale: the ${deposit.cart?.title ?? 'cart'} is sold${deposit.balanceDueCents != null ? `, ${formatCents(deposit.balanceDueCents)} left to pay` : ''}.`
}

function DepositsPage({ data }: StaffPageProps<DepositsData>) {
  const filtered = data.status !== undefined
  return (
    <div className="staff-deposits">
      <h1>Deposits</h1>
      {!data.configured && (
        <div className="staff-alert staff-alert--notice" role="note" aria-labelledby="deposits-off">
          <p id="deposits-off">
            <strong>Deposits are not set up.</strong> No page offers “Hold it with a deposit”, and refunds cannot be made from here.
          </p>
          <p>
            To take deposits through Stripe, set {data.toSet.map((name, i) => (
              <span key={name}>
                {i > 0 && ' and '}
                <code>{name}</code>
              </span>
            ))}{' '}
            and restart the server (docs/DEPLOY.md, “Deposits (Stripe)”).
          </p>
        </div>
      )}
      <p className="staff-hint staff-deposits__about">
        A shopper’s deposit holds the cart until the date shown, then the cart is for sale again by itself. Refund gives the whole deposit
        back through Stripe; Mark sold sells the cart to that shopper with the deposit counted toward its price. Each asks first.
      </p>
      <form method="get" action={staffPaths.deposits} className="staff-deposits__filter">
        <Field name="status" id="deposits-status" label="Show" defaultValue={data.status ?? ''}>
          {statusChoices}
        </Field>
        <button type="submit" className="staff-button staff-button--quiet">
          Show deposits
        </button>
      </form>
      <p className="staff-count" id="deposits-count">
        {data.deposits.length === 0
          ? filtered
            ? 'No deposit is in that state.'
            : 'No deposit has been paid yet.'
          : `${data.deposits.length} ${data.deposits.length === 1 ? 'deposit' : 'deposits'}, newest first`}
      </p>
      {data.deposits.length > 0 && (
        <StaffTable
          className="staff-table staff-table--deposits"
          describedBy="deposits-count"
          caption="Deposits paid online"
          columns={['Cart', 'Shopper', 'Amount', 'Paid', 'Hold until', 'Status', { hidden: 'Actions' }]}
        >
          {data.deposits.map((deposit) => (
            <DepositRow key={deposit.id} deposit={deposit} configured={data.configured} />
          ))}
        </StaffTable>
      )}
    </div>
  )
}

function DepositRow({ deposit, configured }: { deposit: StaffDeposit; configured: boolean }) {
  const name = shopperName(deposit)
  const canRefund = configured && refundable(deposit)
  const canSell = sellable(deposit)
  return (
    <tr data-deposit-id={deposit.id}>
      <td className="staff-table__cart">
        {deposit.kind === 'rental' ? (
          deposit.leadId !== null ? (
            <a href={leadPaths.lead(deposit.leadId)}>Rental reservation</a>
          ) : (
            'Rental reservation'
          )
        ) : deposit.cart ? (
          <>
            <a href={staffPaths.cart(deposit.cart.id)}>{deposit.cart.title}</a>
            <span className="staff-muted">{formatPrice(deposit.cart.price)}</span>
          </>
        ) : (
          <span className="staff-muted">A cart since removed</span>
        )}
      </td>
      <td data-label="Shopper" className="staff-deposits__shopper">
        {deposit.leadId !== null ? <a href={leadPaths.lead(deposit.leadId)}>{name}</a> : name}
        <span className="staff-muted">
          <a href={`mailto:${deposit.email}`}>{deposit.email}</a>
        </span>
        {deposit.phone && (
          <span className="staff-muted">
            <a href={telHref(deposit.phone)}>{deposit.phone}</a>
          </span>
        )}
        {deposit.owner && <span className="staff-muted">Salesperson: {deposit.owner}</span>}
      </td>
      <td data-label="Amount">{formatCents(deposit.amountCents)}</td>
      <td data-label="Paid">{deposit.paidAt ? <time dateTime={deposit.paidAt}>{dealerTime(deposit.paidAt)}</time> : <span className="staff-muted">Not paid</span>}</td>
      <td data-label="Hold until">
        {deposit.status === 'held' && deposit.holdUntil ? (
          <time dateTime={deposit.holdUntil}>{holdDate(deposit.holdUntil)}</time>
        ) : deposit.status === 'expired' && deposit.holdUntil ? (
          <span className="staff-muted">
            Ended <time dateTime={deposit.holdUntil}>{holdDate(deposit.holdUntil)}</time>
          </span>
        ) : (
          <span className="staff-muted">No hold</span>
        )}
      </td>
      <td data-label="Status">
        <span className={`staff-deposit-status staff-deposit-status--${deposit.status}`}>{depositStatusLabels[deposit.status]}</span>
        {deposit.refundReason === 'taken' && <span className="staff-muted">Paid after another shopper held the cart</span>}
        {deposit.balanceDueCents !== null && ['held', 'expired', 'sold'].includes(deposit.status) && (
          <span className="staff-muted">
            {formatCents(deposit.balanceDueCents)} left to pay
          </span>
        )}
      </td>
      <td data-label="Actions" className="staff-deposits__actions">
        {canSell && (
          <a className="staff-link-button" href={staffPaths.depositSold(deposit.id)}>
            Mark sold<span className="gc-sr-only"> to {name}</span>
          </a>
        )}
        {canRefund && (
          <a className="staff-link-button staff-link-button--danger" href={staffPaths.depositRefund(deposit.id)}>
            Refund<span className="gc-sr-only"> {name}’s deposit</span>
          </a>
        )}
      </td>
    </tr>
  )
}

export const depositsPage = staffPage<DepositsData>({
  path: staffPaths.deposits,
  roles: { get: ['manager', 'see deposits'] },
  nav: { label: 'Deposits', place: 70 },
  title: () => 'Deposits',
  load: loadDeposits,
  Page: DepositsPage,
})

/** One deposit, for its confirm step: a deposit that is none (or still at Stripe's page) is the console's 404. */
async function loadDeposit(context: StaffPageContext): Promise<{ deposit: StaffDeposit; configured: boolean }> {
  const id = Number(context.params.id)
  if (!Number.isSafeInteger(id) || id < 1) throw new StaffNotFound()
  return context.caller.staff.deposit.get({ id }).catch((error: unknown) => {
    if (error instanceof TRPCError && error.code === 'NOT_FOUND') throw new StaffNotFound()
    throw error
  })
}

type DepositData = Awaited<ReturnType<typeof loadDeposit>>

/** The confirm step's post: the procedure, then the list with what was done; a refusal shows here again. */
function confirmedPost(action: 'refund' | 'markSold', done: 'refunded' | 'sold') {
  return async (context: StaffPageContext): Promise<PostOutcome> => {
    const parsed = context.parse(`staff.deposit.${action}`, { id: context.params.id ?? '' })
    if (!parsed.ok) throw new StaffNotFound()
    try {
      await context.caller.staff.deposit[action](parsed.value)
      const { deposit } = await context.caller.staff.deposit.get(parsed.value)
      return { redirect: staffPaths.deposits, notice: doneNotice(done, deposit) }
    } catch (error) {
      return context.refused(error, {})
    }
  }
}

function RefusedNotice({ message }: { message?: string }) {
  return message ? (
    <p className="staff-alert staff-alert--error" role="alert">
      {message}
    </p>
  ) : null
}

function Facts({ deposit }: { deposit: StaffDeposit }) {
  return (
    <dl className="staff-deposits__facts">
      <div>
        <dt>Shopper</dt>
        <dd>
          {shopperName(deposit)}, {deposit.email}
        </dd>
      </div>
      <div>
        <dt>{deposit.kind === 'rental' ? 'For' : 'Cart'}</dt>
        <dd>{deposit.kind === 'rental' ? 'A rental reservation' : deposit.cart ? `${deposit.cart.title}, ${formatPrice(deposit.cart.price)}` : 'A cart since removed'}</dd>
      </div>
      <div>
        <dt>Deposit</dt>
        <dd>
          {formatCents(deposit.amountCents)}
          {deposit.paidAt && `, paid ${dealerTime(deposit.paidAt)}`}
        </dd>
      </div>
      {deposit.status === 'held' && deposit.holdUntil && (
        <div>
          <dt>Hold until</dt>
          <dd>{holdDate(deposit.holdUntil)}</dd>
        </div>
      )}
      <div>
        <dt>Status</dt>
        <dd>{depositStatusLabels[deposit.status]}</dd>
      </div>
    </dl>
  )
}

export const depositRefundPage = staffPage<DepositData>({
  path: staffPaths.depositRefund.pattern,
  roles: { get: ['manager', 'refund deposits'], post: ['manager', 'refund deposits'] },
  title: ({ deposit }) => `Refund ${shopperName(deposit)}’s deposit?`,
  load: loadDeposit,
  Page: ({ data: { deposit, configured }, posted }) => (
    <div className="staff-deposits">
      <h1>
        Refund {shopperName(deposit)}’s {formatCents(deposit.amountCents)} deposit?
      </h1>
      <RefusedNotice message={posted?.message} />
      <Facts deposit={deposit} />
      {!configured ? (
        <p>Refunds go through Stripe, which is not set up: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET first.</p>
      ) : !refundable(deposit) ? (
        <p>This deposit cannot be refunded: it is {depositStatusLabels[deposit.status].toLowerCase()}.</p>
      ) : (
        <p>
          The whole {formatCents(deposit.amountCents)} goes back to the shopper’s card through Stripe, and they are emailed once Stripe has
          taken it.
          {deposit.status === 'held' && deposit.cart?.status === 'hold' && ` The ${deposit.cart.title} is for sale again at once.`}
        </p>
      )}
      <form method="post" action={staffPaths.depositRefund(deposit.id)} className="staff-form__actions">
        {configured && refundable(deposit) && (
          <button className="staff-button staff-button--danger" type="submit">
            Refund {formatCents(deposit.amountCents)}
          </button>
        )}
        <a className="staff-link-button" href={staffPaths.deposits}>
          {configured && refundable(deposit) ? 'Keep the deposit' : 'Back to deposits'}
        </a>
      </form>
    </div>
  ),
  post: confirmedPost('refund', 'refunded'),
})

export const depositSoldPage = staffPage<DepositData>({
  path: staffPaths.depositSold.pattern,
  roles: { get: ['manager', 'count deposits toward sales'], post: ['manager', 'count deposits toward sales'] },
  title: ({ deposit }) => `Mark the ${cartName(deposit)} sold to ${shopperName(deposit)}?`,
  load: loadDeposit,
  Page: ({ data: { deposit }, posted }) => (
    <div className="staff-deposits">
      <h1>
        Mark the {cartName(deposit)} sold to {shopperName(deposit)}?
      </h1>
      <RefusedNotice message={posted?.message} />
      <Facts deposit={deposit} />
      {sellable(deposit) ? (
        <p>
          The {formatCents(deposit.amountCents)} deposit counts toward the price
          {deposit.balanceDueCents !== null && `: ${formatCents(deposit.balanceDueCents)} is left to pay`}. The cart leaves every list, the feeds and the
          featured set at once, and its page says Sold.
        </p>
      ) : (
        <p>Only a cart’s deposit that holds it, or held it until the hold ended, can be counted toward its sale.</p>
      )}
      <form method="post" action={staffPaths.depositSold(deposit.id)} className="staff-form__actions">
        {sellable(deposit) && (
          <button className="staff-button" type="submit">
            Mark it sold
          </button>
        )}
        <a className="staff-link-button" href={staffPaths.deposits}>
          {sellable(deposit) ? 'Not yet' : 'Back to deposits'}
        </a>
      </form>
    </div>
  ),
  post: confirmedPost('markSold', 'sold'),
})
