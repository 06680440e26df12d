import { DueFollowUps, loadDueFollowUps } from './follow-ups.tsx'
import { type CartStatus, cartStatuses, statusLabels } from '../../domain/cart-facts.ts'
import { cartFormValues } from '../../domain/cart-record.ts'
import { showroomByKey, showrooms } from '../../domain/business.ts'
import { cartPicture } from '../../domain/cart-pictures.ts'
import { formatPrice } from '../../domain/golf-cart.ts'
import { photoPath } from '../../domain/photos.ts'
import { consolePath, staffPaths } from '../../domain/staff-paths.ts'
import type { StaffCart } from '../../api/staff/cart-records.ts'
import { Checkbox, choices, Field, Notice } from './form-kit.tsx'
import { StaffTable } from './staff-table.tsx'
import { type PostedState, type PostOutcome, type StaffPageContext, type StaffPageProps } from './page.ts'
import { StaffNotFound, staffPage } from './page.ts'

const statusOptions = cartStatuses.map((status) => ({ value: status, label: statusLabels[status] }))
const statusChoices = choices(statusOptions)
const statusFilter = choices([{ value: '', label: 'Every status' }, ...statusOptions])
const locationFilter = choices([{ value: '', label: 'Every showroom' }, ...showrooms.map((showroom) => ({ value: showroom.id, label: showroom.name }))])

/** How many carts one page of the console's table shows. */
export const consolePageSize = 50

/** The table's orders, as the staff procedure names them (api/staff/cart-records.ts). */
export const consoleSorts = [
  ['newest', 'Newest first'],
  ['oldest', 'Oldest first'],
  ['updated', 'Recently changed'],
  ['title', 'Title A–Z'],
  ['price-asc', 'Price, low to high'],
  ['price-desc', 'Price, high to low'],
  ['stock', 'Stock number'],
] as const
type ConsoleSort = (typeof consoleSorts)[number][0]
const sortChoices = choices(consoleSorts.map(([value, label]) => ({ value, label })))

export interface InventoryQuery {
  q: string
  status?: CartStatus
  /** A showroom's key (domain/business.ts). */
  location?: string
  sort: ConsoleSort
  page: number
}

/** The table's state from its address: unknown values fall back to the defaults. */
export function inventoryQuery(query: URLSearchParams): InventoryQuery {
  const status = query.get('status') as CartStatus | null
  const location = query.get('location')
  const sort = query.get('sort') as ConsoleSort | null
  const page = Number(query.get('page') ?? '1')
  return {
    q: (query.get('q') ?? '').trim().slice(0, 100),
    status: status && cartStatuses.includes(status) ? status : undefined,
    location: location && showroomByKey(location) ? location : undefined,
    sort: sort && consoleSorts.some(([value]) => value === sort) ? sort : 'newest',
    page: Number.isInteger(page) && page >= 1 && page <= 20_000 ? page : 1,
  }
}

/** The address of the table in a given state; defaults are left out, so URLs stay short. */
export function inventoryHref(state: InventoryQuery, change: Partial<InventoryQuery> = {}): string {
  const next = { ...state, ...change }
  const params = new URLSearchParams()
  if (next.q) params.set('q', next.q)
  if (next.status) params.set('status', next.status)
  if (next.location) params.set('location', next.location)
  if (next.sort !== 'newest') params.set('sort', next.sort)
  if (next.page > 1) params.set('page', String(next.page))
  const search = params.toString()
  return search ? `${staffPaths.console}?${search}` : staffPaths.console
}

async function loadInventory(context: StaffPageContext) {
  const state = inventoryQuery(context.query)
  const followUps = loadDueFollowUps(context.caller)
  const { carts, total } = await context.caller.staff.cart.list({
    q: state.q || undefined,
    status: state.status,
    location: state.location,
    sort: state.sort,
    limit: consolePageSize,
    offset: (state.page - 1) * consolePageSize,
  })
  return { state, carts, total, followUps: await followUps }
}

type InventoryData = Awaited<ReturnType<typeof loadInventory>>

function InventoryPage({ data, context, posted }: StaffPageProps<InventoryData>) {
  const { state, carts, total } = data
  const pages = Math.max(1, Math.ceil(total / consolePageSize))
  const first = total === 0 ? 0 : (state.page - 1) * consolePageSize + 1
  const last = Math.min(total, state.page * consolePageSize)
  const filtered = Boolean(state.q || state.status || state.location)
  return (
    <>
      <div className="staff-heading">
        <h1>Inventory</h1>
        <div className="staff-heading__actions">
          <a className="staff-button" href={staffPaths.newCart}>
            Add a cart
          </a>
          <a className="staff-link-button" href={staffPaths.featured}>
            Featured order
          </a>
          {context.mayOpen(staffPaths.inventoryImport) && (
            <a className="staff-link-button" href={staffPaths.inventoryImport}>
              Import or export a spreadsheet
            </a>
          )}
        </div>
      </div>
      <DueFollowUps tasks={data.followUps} />

      <form className="staff-filters" method="get" action={staffPaths.console} role="search" aria-label="Carts">
        <Field name="q" id="inventory-q" label="Search" className="staff-filters__q" hint="Title, stock number, VIN, make or model" defaultValue={state.q}>
          {(control) => <input {...control} type="search" maxLength={100} />}
        </Field>
        <Field name="status" id="inventory-status" label="Status" defaultValue={state.status ?? ''}>
          {statusFilter}
        </Field>
        <Field name="location" id="inventory-location" label="Location" defaultValue={state.location ?? ''}>
          {locationFilter}
        </Field>
        <Field name="sort" id="inventory-sort" label="Sort" defaultValue={state.sort}>
          {sortChoices}
        </Field>
        <div className="staff-filters__actions">
          <button className="staff-button" type="submit">
            Show carts
          </button>
          {filtered && (
            <a className="staff-link-button" href={inventoryHref(state, { q: '', status: undefined, location: undefined, page: 1 })}>
              Clear
            </a>
          )}
        </div>
      </form>

      <Notice tone="error">{posted?.message}</Notice>

      <p className="staff-count" id="inventory-count">
        {total === 0
          ? filtered
            ? 'No cart matches.'
            : 'No carts yet.'
          : `${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} ${total === 1 ? 'cart' : 'carts'}`}
      </p>

      {carts.length > 0 && (
        <form id={bulkFormId} className="staff-bulk" method="post" action={staffPaths.bulkChange}>
          <input type="hidden" name="back" value={context.url} />
          <label htmlFor="bulk-action">With the selected carts</label>
          <select id="bulk-action" name="action" defaultValue={posted?.values.action ?? ''} required>
            <option value="">Choose a change</option>
            {bulkActions
              .filter((action) => action.value !== 'delete' || context.mayOpen(staffPaths.bulkDelete, 'POST'))
              .map((action) => (
                <option key={action.value} value={action.value}>
                  {action.label}
                </option>
              ))}
          </select>
          <button className="staff-button staff-button--small" type="submit">
            Apply to selected
          </button>
          {/* The console's script shows this and ticks or clears every row of the page at once. */}
          <label className="staff-bulk__all" hidden>
            <input type="checkbox" data-select-all={bulkFormId} /> Select all on this page
          </label>
        </form>
      )}

      {carts.length > 0 && (
        <StaffTable
          className="staff-table staff-table--inventory"
          describedBy="inventory-count"
          caption="Carts; change a price, status or featured and press Save on its row, or select several and apply one change to them all"
          columns={['Cart', 'Stock number', 'Price', 'Watchers', 'Status', 'Featured', { hidden: 'Save' }]}
        >
          {carts.map((cart) => {
            const mine = posted?.rowId === cart.id ? posted : undefined
            const formId = `quick-${cart.id}`
            return (
              <tr key={cart.id} id={`cart-${cart.id}`}>
                <th scope="row" className="staff-table__cart">
                  <Checkbox id={`pick-${cart.id}`} name="ids" value={cart.id} form={bulkFormId} label={`Select ${cart.title}`} hiddenLabel posted={posted} />
                  <img
                    className="staff-table__thumb"
                    src={cart.cover ? photoPath(cart.cover.key, cart.cover.widths[0]!, 'jpeg') : cartPicture(cart)}
                    alt=""
                    width={64}
                    height={48}
                    loading="lazy"
                    decoding="async"
                  />
                  <span className="staff-table__name">
                    <a href={staffPaths.cart(cart.id)}>{cart.title}</a>
                    <span className="staff-muted">
                      <span className="staff-table__stock-inline">{cart.stockNumber} · </span>
                      {cart.status === 'draft' ? 'Draft · ' : ''}
                      {cart.condition === 'used' ? 'Used' : 'New'}
                      {` · ${showroomByKey(cart.location)?.name ?? cart.location}`}
                      {cart.vin ? ` · VIN ${cart.vin}` : ''}
                      {cart.watchers > 0 && <span className="staff-table__watchers-inline">{` · ${cart.watchers} watching`}</span>}
                    </span>
                  </span>
                </th>
                <td data-label="Stock number">{cart.stockNumber}</td>
                <td data-label="Price">
                  <Field name="price" id={`price-${cart.id}`} label={`Price of ${cart.title}`} hiddenLabel form={formId} posted={mine} defaultValue={cart.price}>
                    {(control) => <input {...control} className="staff-table__price" inputMode="decimal" />}
                  </Field>
                </td>
                <td data-label="Watchers" className="staff-table__watchers">
                  {cart.watchers}
                  <span className="gc-sr-only"> watching its price</span>
                </td>
                <td data-label="Status">
                  <Field name="status" id={`status-${cart.id}`} label={`Status of ${cart.title}`} hiddenLabel form={formId} posted={mine} defaultValue={cart.status}>
                    {statusChoices}
                  </Field>
                </td>
                <td data-label="Featured">
                  <Checkbox id={`featured-${cart.id}`} name="featured" value="true" form={formId} label={`Feature ${cart.title}`} hiddenLabel posted={mine} defaultChecked={cart.featured} />
                </td>
                <td className="staff-table__save">
                  <form id={formId} method="post" action={staffPaths.quickChange(cart.id)} data-confirm-sold={cart.title}>
                    <input type="hidden" name="back" value={context.url} />
                    <input type="hidden" name="version" value={cart.version} />
                    <button className="staff-button staff-button--small" type="submit">
                      Save<span className="gc-sr-only"> {cart.title}</span>
                    </button>
                  </form>
                </td>
              </tr>
            )
          })}
        </StaffTable>
      )}

      {pages > 1 && (
        <nav className="staff-pager" aria-label="Pages of carts">
          {state.page > 1 ? (
            <a href={inventoryHref(state, { page: state.page - 1 })} rel="prev">
              Previous
            </a>
          ) : (
            <span aria-hidden="true" className="staff-pager__off">
              Previous
            </span>
          )}
          <span>
            Page {state.page.toLocaleString('en-US')} of {pages.toLocaleString('en-US')}
          </span>
          {state.page < pages ? (
            <a href={inventoryHref(state, { page: state.page + 1 })} rel="next">
              Next
            </a>
          ) : (
            <span aria-hidden="true" className="staff-pager__off">
              Next
            </span>
          )}
        </nav>
      )}
    </>
  )
}

export const inventoryPage = staffPage<InventoryData>({
  path: staffPaths.console,
  roles: { get: ['sales', 'see the inventory'] },
  nav: { label: 'Inventory', place: 10 },
  title: () => 'Inventory',
  load: loadInventory,
  Page: InventoryPage,
})

/**
 * The list's one-step change: price, status and featured from one row, in one press of Save,
 * through one procedure in one transaction (`staff.cart.saveRow`): saved whole or refused whole.
 * A sale asks first (the console's script asks in place; without it, the confirmation page does).
 * Back to the same page of the list, that row marked.
 */
export const quickChangePage = staffPage<null>({
  path: staffPaths.quickChange.pattern,
  roles: { post: ['sales', 'change prices, statuses and what is featured'] },
  title: () => 'Inventory',
  // Only its post is a page: opened as an address, it is not there.
  load: () => Promise.reject(new StaffNotFound()),
  Page: () => null,
  async post(context, form) {
    const id = Number(context.params.id)
    const back = consolePath(form.back)
    const values = { price: form.price ?? '', status: form.status ?? '', featured: form.featured === 'true' ? 'true' : '' }
    // The row by saveRow's own schema: the version it was read at, the status chosen; the price as
    // the cart form reads dollars ("$7,995"), an unticked box as not featured, a sale as asked.
    const parsed = context.parse('staff.cart.saveRow', {
      id: context.params.id ?? '',
      price: String(cartFormValues({ price: values.price }).price),
      featured: values.featured === 'true',
      confirmSale: form.confirm === 'sold',
    })
    if (!parsed.ok) return { status: parsed.refusal.status, posted: { ...parsed.refusal.posted, values, rowId: id }, url: back }
    let saved: StaffCart
    try {
      saved = await context.caller.staff.cart.saveRow(parsed.value)
    } catch (error) {
      if ((error as { code?: string }).code === 'PRECONDITION_FAILED') {
        const ask = new URLSearchParams({ price: values.price, featured: values.featured, back, ...(form.version ? { version: form.version } : {}) })
        return { redirect: `${staffPaths.confirmSold(id)}?${ask}` }
      }
      return { ...context.refused(error, values, id), url: back }
    }
    // Its row is the address's target, marked by the style sheet (`:target`).
    const { pathname, search } = new URL(back, 'http://staff')
    return {
      redirect: `${pathname}${search}#cart-${id}`,
      notice: `Saved ${saved.title}: ${formatPrice(saved.price)}, ${statusLabels[saved.status]}, ${saved.featured ? 'featured' : 'not featured'}.`,
    }
  },
})

/** "Mark it sold?": the list's sale asked as a page, for a browser without the console's script. */
export const confirmSoldPage = staffPage<{ cart: StaffCart; price: string; featured: string; version: string; back: string }>({
  path: staffPaths.confirmSold.pattern,
  roles: { get: ['sales', 'mark carts sold'] },
  title: (data) => `Mark ${data.cart.title} as sold?`,
  async load(context) {
    const id = Number(context.params.id)
    if (!Number.isSafeInteger(id) || id < 1) throw new StaffNotFound()
    const cart = await context.caller.staff.cart.get({ id }).catch((error: unknown) => {
      if ((error as { code?: string }).code === 'NOT_FOUND') throw new StaffNotFound()
      throw error
    })
    const read = (name: string) => context.query.get(name) ?? ''
    return { cart, price: read('price') || String(cart.price), featured: read('featured'), version: read('version'), back: consolePath(read('back')) }
  },
  Page: ({ data }) => (
    <>
      <h1>Mark {data.cart.title} as sold?</h1>
      <p>It leaves the inventory, every list, the feeds and the featured set at once; its page says Sold for two weeks.</p>
      <form method="post" action={staffPaths.quickChange(data.cart.id)} className="staff-form__actions">
        <input type="hidden" name="status" value="sold" />
        <input type="hidden" name="confirm" value="sold" />
        <input type="hidden" name="price" value={data.price} />
        <input type="hidden" name="back" value={data.back} />
        {data.featured && <input type="hidden" name="featured" value="true" />}
        {data.version && <input type="hidden" name="version" value={data.version} />}
        <button className="staff-button staff-button--danger" type="submit">
          Mark it sold
        </button>
        <a className="staff-link-button" href={data.back}>
          Keep it listed
        </a>
      </form>
    </>
  ),
})

/**
 * The list's bulk changes (issue #30, point 6): select several rows, choose one change, apply it
 * to all of them in one transaction (`staff.cart.saveMany`, `staff.cart.deleteMany`). Selling and
 * deleting ask first, on a page that names every cart, with or without the console's script.
 * Deleting is for managers and owners (PRODUCT.md): sales do not see it, and the server refuses it.
 */
const bulkFormId = 'bulk-change'

export const bulkActions = [
  { value: 'available', label: 'Mark available', done: 'marked available', change: { status: 'available' } },
  { value: 'hold', label: 'Put on hold', done: 'put on hold', change: { status: 'hold' } },
  { value: 'sold', label: 'Mark sold…', done: 'marked sold', change: { status: 'sold' } },
  { value: 'draft', label: 'Back to draft', done: 'made drafts', change: { status: 'draft' } },
  { value: 'feature', label: 'Feature', done: 'featured', change: { featured: true } },
  { value: 'unfeature', label: 'Stop featuring', done: 'no longer featured', change: { featured: false } },
  { value: 'delete', label: 'Delete…', done: 'deleted', change: {} },
] as const satisfies readonly { value: string; label: string; done: string; change: { status?: CartStatus; featured?: boolean } }[]
type BulkAction = (typeof bulkActions)[number]

const bulkAction = (value: string | null | undefined): BulkAction | undefined => bulkActions.find((action) => action.value === value)

/** The ids of a confirmation page's address (`?ids=4&ids=12`): whole numbers, at most 200. */
export function idsOf(query: URLSearchParams): number[] {
  const ids = query.getAll('ids').filter((id) => /^\d{1,9}$/.test(id)).map(Number)
  return [...new Set(ids)].filter((id) => id >= 1).slice(0, 200)
}

/** "1 cart", "3 carts". */
const cartCount = (count: number) => `${count} ${count === 1 ? 'cart' : 'carts'}`

/**
 * The list again, with what was ticked and chosen, and why nothing changed: a sentence of ours
 * (400), or a staff call's refusal with its status. The list has no field to show a problem
 * beside, so every problem goes above it.
 */
function refusedBulk(
  context: StaffPageContext,
  form: Record<string, string>,
  refusal: string | { error: unknown } | { status: number; posted: PostedState },
  back: string,
): PostOutcome {
  const values = Object.fromEntries(Object.entries(form).filter(([name]) => name === 'action' || name === 'ids'))
  const lists: Record<string, string[]> = context.lists.ids ? { ids: context.lists.ids } : {}
  if (typeof refusal === 'string') return { status: 400, posted: { values, lists, errors: {}, message: refusal }, url: back }
  const refused = 'error' in refusal ? context.refused(refusal.error, values) : refusal
  const message = [refused.posted.message, ...Object.values(refused.posted.errors)].filter(Boolean).join(' ')
  return { status: refused.status, posted: { values, lists, errors: {}, message }, url: back }
}

const selectFirst = 'Select at least one cart first: tick the box beside each cart to change.'

interface BulkConfirmData {
  action: BulkAction
  carts: StaffCart[]
  back: string
}

async function loadBulkConfirm(context: StaffPageContext, actionValue: string | null): Promise<BulkConfirmData> {
  const action = bulkAction(actionValue)
  const ids = idsOf(context.query)
  if (!action || ids.length === 0) throw new StaffNotFound()
  const carts = await Promise.all(ids.map((id) => context.caller.staff.cart.get({ id }).catch(() => undefined)))
  const found = carts.filter((cart): cart is StaffCart => cart !== undefined)
  if (found.length === 0) throw new StaffNotFound()
  return { action, carts: found, back: consolePath(context.query.get('back')) }
}


function BulkConfirmPage({ data, posted }: StaffPageProps<BulkConfirmData>) {
  const { action, carts } = data
  const deleting = action.value === 'delete'
  const count = cartCount(carts.length)
  return (
    <>
      <h1>{deleting ? `Delete ${count}?` : `Mark ${count} as sold?`}</h1>
      <Notice tone="error">{posted?.message}</Notice>
      <p>
        {deleting
          ? 'They leave the site, every list and the featured set at once, and cannot be brought back. Their history is kept.'
          : 'They leave the inventory, every list, the feeds and the featured set at once; their pages say Sold for two weeks.'}
      </p>
      <ul className="staff-bulk__carts">
        {carts.map((cart) => (
          <li key={cart.id}>
            {cart.title} <span className="staff-muted">· {cart.stockNumber}</span>
          </li>
        ))}
      </ul>
      <form method="post" action={deleting ? staffPaths.bulkDelete : staffPaths.bulkChange} className="staff-form__actions">
        <input type="hidden" name="action" value={action.value} />
        {carts.map((cart) => (
          <input key={cart.id} type="hidden" name="ids" value={cart.id} />
        ))}
        <input type="hidden" name="confirm" value="yes" />
        <input type="hidden" name="back" value={data.back} />
        <button className="staff-button staff-button--danger" type="submit">
          {deleting ? `Delete ${count} for good` : `Mark ${count} sold`}
        </button>
        <a className="staff-link-button" href={data.back}>
          {deleting ? 'Keep them' : 'Keep them listed'}
        </a>
      </form>
    </>
  )
}

const askFirst = (path: string, action: BulkAction, ids: number[], back: string) =>
  `${path}?${new URLSearchParams([['action', action.value], ...ids.map((id) => ['ids', String(id)]), ['back', back]])}`

/** Back to the list the change came from, saying what was done, once. */
const doneBulk = (back: string, action: BulkAction, count: number): PostOutcome => ({ redirect: back, notice: `${cartCount(count)} ${action.done}.` })

/** Status or featured for the carts selected; a sale is asked first, a deletion handed on. */
export const bulkChangePage = staffPage<BulkConfirmData>({
  path: staffPaths.bulkChange,
  roles: { get: ['sales', 'change statuses and what is featured'], post: ['sales', 'change statuses and what is featured'] },
  title: (data) => `Mark ${cartCount(data.carts.length)} as sold?`,
  // Opened as an address, it is the sale's question (the only bulk change that asks).
  load: (context) => loadBulkConfirm(context, context.query.get('action') === 'sold' ? 'sold' : null),
  Page: BulkConfirmPage,
  async post(context, form) {
    const back = consolePath(form.back)
    const action = bulkAction(form.action)
    if (!action) return refusedBulk(context, form, 'Choose a change to apply to the selected carts.', back)
    if (!form.ids) return refusedBulk(context, form, selectFirst, back)
    // The ticked boxes (`ids=4&ids=12`) and the action's change, read by saveMany's own schema.
    const parsed =
      action.value === 'delete'
        ? context.parse('staff.cart.deleteMany')
        : context.parse('staff.cart.saveMany', { ...action.change, confirmSale: action.value === 'sold' })
    if (!parsed.ok) return refusedBulk(context, form, parsed.refusal, back)
    const { ids } = parsed.value
    if (action.value === 'delete') return { redirect: askFirst(staffPaths.bulkDelete, action, ids, back) }
    if (action.value === 'sold' && form.confirm !== 'yes') return { redirect: askFirst(staffPaths.bulkChange, action, ids, back) }
    try {
      await context.caller.staff.cart.saveMany({ ids, ...action.change, confirmSale: action.value === 'sold' })
    } catch (error) {
      return refusedBulk(context, form, { error }, back)
    }
    return doneBulk(back, action, ids.length)
  },
})

/** Deleting several carts: the question as a page, its post the answer (managers and owners). */
export const bulkDeletePage = staffPage<BulkConfirmData>({
  path: staffPaths.bulkDelete,
  roles: { get: ['manager', 'delete carts'], post: ['manager', 'delete carts'] },
  title: (data) => `Delete ${cartCount(data.carts.length)}?`,
  load: (context) => loadBulkConfirm(context, 'delete'),
  Page: BulkConfirmPage,
  async post(context, form) {
    const back = consolePath(form.back)
    const action = bulkAction('delete')!
    if (!form.ids) return refusedBulk(context, form, selectFirst, back)
    const parsed = context.parse('staff.cart.deleteMany')
    if (!parsed.ok) return refusedBulk(context, form, parsed.refusal, back)
    try {
      await context.caller.staff.cart.deleteMany(parsed.value)
    } catch (error) {
      return refusedBulk(context, form, { error }, back)
    }
    return doneBulk(back, action, parsed.value.ids.length)
  },
})
