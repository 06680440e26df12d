import type { ComponentType } from 'react'
import { batteries, batteryLabels, type DerivedFacts, derivedFacts, cartStatuses, conditionLabels, conditions, statusLabels } from '../../domain/cart-facts.ts'
import { type CartRecordField, cartFormValues, cartLimits, latestModelYear, savedCartKey } from '../../domain/cart-record.ts'
import { defaultShowroom, showroomByKey, showrooms } from '../../domain/business.ts'
import { formatPrice } from '../../domain/golf-cart.ts'
import { paths } from '../../domain/site-paths.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import type { CartHistoryEntry } from '../../api/staff/audit.ts'
import type { StaffCart } from '../../api/staff/cart-records.ts'
import { type StaffPageContext, type StaffPageProps, StaffNotFound, staffPage } from './page.ts'
import { SpecificationsPreview } from './spec-preview.tsx'
import { Checkbox, Field } from './form-kit.tsx'
import { CartPhotosSection } from './cart-photos.tsx'

type Values = Record<string, string>

interface CartField {
  name: CartRecordField
  label: string
  kind: 'text' | 'textarea' | 'money' | 'integer' | 'select' | 'checkbox'
  options?: readonly (readonly [value: string, label: string])[]
  hint?: string
  /** What visitors see when the field is left empty: the title's derivation (SPEC section 3). */
  derived?: (facts: DerivedFacts) => string | null
  maxLength?: number
  autoComplete?: string
}

/** What a form section gets: the values as typed, the errors by field, the cart when it exists. */
export interface CartFormSectionProps {
  values: Values
  errors: Record<string, string>
  cart?: StaffCart
}

/**
 * One section of the cart form: its heading and either fields of the record, or a component of
 * its own (photos, for instance). Adding a section is one entry in `cartFormSections`.
 */
export interface CartFormSection {
  id: string
  legend: string
  fields?: readonly CartField[]
  Component?: ComponentType<CartFormSectionProps>
}

const emptyChoice = (label: string) => ['', label] as const

/** The cart form, section by section; every field of the record (domain/cart-record.ts) is in one. */
export const cartFormSections: readonly CartFormSection[] = [
  {
    id: 'listing',
    legend: 'Listing',
    fields: [
      {
        name: 'title',
        label: 'Title',
        kind: 'text',
        maxLength: cartLimits.title,
        hint: 'As visitors read it, e.g. 2025 Evolution D6 Max GT4. Left empty, it is built from the year, make, model and trim',
      },
      {
        name: 'description',
        label: 'Description',
        kind: 'textarea',
        maxLength: cartLimits.description,
        hint: 'Left empty, a few plain sentences are written from the facts below',
      },
      { name: 'price', label: 'Price', kind: 'money', hint: 'Dollars, e.g. 12995' },
      { name: 'msrp', label: 'MSRP', kind: 'money', hint: 'Optional: the maker’s suggested price' },
      {
        name: 'status',
        label: 'Status',
        kind: 'select',
        options: cartStatuses.map((s) => [s, s === 'draft' ? 'Draft (hidden from the site)' : statusLabels[s]] as const),
        hint: 'Sold carts leave every list at once; On Hold carts list after the available ones; a draft is seen by staff only',
      },
      {
        name: 'location',
        label: 'Location',
        kind: 'select',
        options: showrooms.map((s) => [s.id, s.name] as const),
        hint: 'The showroom where the cart stands: its card, its page and the feeds name it',
      },
      { name: 'featured', label: 'Featured on the home page', kind: 'checkbox' },
    ],
  },
  {
    id: 'photos',
    legend: 'Photos',
    // Uploads, order, cover and alt text are saved as they happen, not with the form (cart-photos.tsx).
    Component: CartPhotosSection,
  },
  {
    id: 'vehicle',
    legend: 'Vehicle',
    fields: [
      { name: 'condition', label: 'Condition', kind: 'select', options: conditions.map((c) => [c, conditionLabels[c]] as const) },
      { name: 'year', label: 'Year', kind: 'integer', derived: (d) => (d.year ? String(d.year) : null) },
      { name: 'make', label: 'Make', kind: 'text', maxLength: cartLimits.make, derived: (d) => d.make },
      { name: 'model', label: 'Model', kind: 'text', maxLength: cartLimits.model, derived: (d) => d.model },
      { name: 'trim', label: 'Trim', kind: 'text', maxLength: cartLimits.trim },
      { name: 'color', label: 'Color', kind: 'text', maxLength: cartLimits.color },
      { name: 'seats', label: 'Seats', kind: 'integer', derived: (d) => `${d.seats.min === d.seats.max ? d.seats.min : `${d.seats.min}-${d.seats.max}`}` },
      {
        name: 'battery',
        label: 'Battery',
        kind: 'select',
        options: [emptyChoice('From the title'), ...batteries.map((b) => [b, batteryLabels[b]] as const)],
        derived: (d) => batteryLabels[d.battery],
      },
      { name: 'streetLegal', label: 'Street legal', kind: 'checkbox' },
      { name: 'lifted', label: 'Lifted', kind: 'checkbox' },
    ],
  },
  {
    id: 'identification',
    legend: 'Identification',
    fields: [
      { name: 'stockNumber', label: 'Stock number', kind: 'text', maxLength: cartLimits.stockNumber, hint: 'Left empty, a new cart gets GC-<its number>', autoComplete: 'off' },
      { name: 'vin', label: 'VIN', kind: 'text', maxLength: 17, hint: '17 characters; only street-legal carts have one', autoComplete: 'off' },
      { name: 'serialNumber', label: 'Serial number', kind: 'text', maxLength: cartLimits.serialNumber, autoComplete: 'off' },
      {
        name: 'imageUrl',
        label: 'Drawing',
        kind: 'text',
        maxLength: cartLimits.imageUrl,
        hint: 'A drawing on this site, e.g. /images/carts/2025-evolution-d5-maverick-4.svg. Left empty, a cart without photos shows its model’s drawing',
      },
    ],
  },
]

/** A stored cart as the form's text values. */
export function cartAsValues(cart: StaffCart): Values {
  const text = (v: string | number | null) => (v === null ? '' : String(v))
  return {
    title: cart.title,
    description: cart.description,
    price: text(cart.price),
    msrp: text(cart.msrp),
    status: cart.status,
    location: cart.location,
    featured: cart.featured ? 'true' : '',
    imageUrl: cart.imageUrl ?? '',
    condition: cart.condition,
    year: text(cart.year),
    make: text(cart.make),
    model: text(cart.model),
    trim: text(cart.trim),
    color: text(cart.color),
    seats: text(cart.seats),
    battery: text(cart.battery),
    streetLegal: cart.streetLegal ? 'true' : '',
    lifted: cart.lifted ? 'true' : '',
    stockNumber: cart.stockNumber,
    vin: text(cart.vin),
    serialNumber: text(cart.serialNumber),
    version: String(cart.version),
  }
}

/** Fields the schema requires (domain/cart-record.ts); the rest may be left empty. */
const requiredFields = new Set<CartRecordField>(['price', 'condition', 'status', 'location'])

/** A new cart starts as a draft (PRODUCT.md, "drafts"): staff see it, visitors do not. */
const newCartValues: Values = { status: 'draft', condition: 'new', location: defaultShowroom.id }

/**
 * "Duplicate this cart" (issue #30): the next one of the same model, as a new draft's form with
 * everything but what is one cart's own (stock number, VIN, serial number, photos, featured).
 */
export function copiedValues(cart: StaffCart): Values {
  const { version: _version, ...values } = cartAsValues(cart)
  return { ...values, status: 'draft', featured: '', stockNumber: '', vin: '', serialNumber: '' }
}

function FieldInput({ field, values, errors, derived }: { field: CartField; values: Values; errors: Record<string, string>; derived: DerivedFacts }) {
  const id = `field-${field.name}`
  const fromTitle = field.derived?.(derived)
  const hint = [field.hint, fromTitle ? `Left empty, visitors see ${fromTitle} (from the title)` : undefined].filter(Boolean).join('. ') || undefined
  // The form as typed (or as stored), with each refusal beside its field.
  const posted = { values, errors }
  if (field.name === 'status' && values.status === 'draft') {
    // A draft is published with the form's Publish button, not by choosing a status.
    return (
      <div className="staff-field">
        <input type="hidden" name="status" value="draft" />
        <p className="staff-draft-note" id={id}>
          <strong>Draft</strong>: only staff see it. Add its photos, then press Publish to put it on the site.
        </p>
      </div>
    )
  }
  if (field.kind === 'checkbox') return <Checkbox id={id} name={field.name} value="true" label={field.label} hint={hint} posted={posted} />
  const label = (
    <>
      {field.label}
      {!requiredFields.has(field.name) && <span className="staff-optional"> (optional)</span>}
    </>
  )
  return (
    <Field name={field.name} id={id} label={label} hint={hint} posted={posted} className={`staff-field--${field.kind}`}>
      {(control) =>
        field.kind === 'textarea' ? (
          <textarea {...control} rows={6} maxLength={field.maxLength} />
        ) : field.kind === 'select' ? (
          <select {...control}>
            {field.options?.map(([option, words]) => (
              <option key={option} value={option}>
                {words}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...control}
            type="text"
            inputMode={field.kind === 'money' ? 'decimal' : field.kind === 'integer' ? 'numeric' : undefined}
            maxLength={field.maxLength}
            autoComplete={field.autoComplete}
            placeholder={field.name === 'year' ? `e.g. ${latestModelYear() - 1}` : undefined}
          />
        )
      }
    </Field>
  )
}

/** What a save says once, on the cart's page it leads to (a flash notice, host/server/staff-notice.ts). */
const savedMessages = {
  saved: 'Saved. The site shows the change now.',
  draft: 'Draft saved. Only staff see it until you publish it.',
  published: 'Published: it is on the site now.',
} as const
type Saved = keyof typeof savedMessages

interface CartPageData {
  cart?: StaffCart
  /** The cart a new cart's form was filled from (`?copy=`). */
  copyOf?: StaffCart
  history: CartHistoryEntry[]
}

async function loadCart(context: StaffPageContext): Promise<CartPageData> {
  const read = async (id: number) => {
    if (!Number.isSafeInteger(id) || id < 1) throw new StaffNotFound()
    return context.caller.staff.cart.get({ id }).catch((error: unknown) => {
      if ((error as { code?: string }).code === 'NOT_FOUND') throw new StaffNotFound()
      throw error
    })
  }
  if (context.params.id === undefined) {
    const copy = context.query.get('copy')
    return copy === null ? { history: [] } : { history: [], copyOf: await read(Number(copy)) }
  }
  const id = Number(context.params.id)
  const cart = await read(id)
  const history = await context.caller.staff.audit.forCart({ id, limit: 50 })
  return { cart, history }
}

/**
 * How many shoppers watch this cart's price (PRODUCT.md, "Price and search alerts"): the demand
 * a dealer prices by. Who they are is never shown: their addresses are for their alerts only.
 */
function WatcherLine({ watchers }: { watchers: number }) {
  return (
    <p className="staff-watchers">
      {watchers === 0
        ? 'No shopper is watching this cart’s price.'
        : `${watchers} ${watchers === 1 ? 'shopper is' : 'shoppers are'} watching this cart’s price: a drop is emailed to them within a minute.`}
    </p>
  )
}

function CartFormPage({ data, context, posted }: StaffPageProps<CartPageData>) {
  const { cart } = data
  const values: Values = posted?.values ?? (cart ? cartAsValues(cart) : data.copyOf ? copiedValues(data.copyOf) : newCartValues)
  const errors = posted?.errors ?? {}
  const derived = derivedFacts(values.title ?? '')
  const problems = Object.entries(errors)
  const action = cart ? staffPaths.cart(cart.id) : staffPaths.newCart
  const draft = values.status === 'draft'
  return (
    <>
      <nav aria-label="Breadcrumb" className="staff-breadcrumb">
        <a href={staffPaths.console}>Inventory</a> <span aria-hidden="true">/</span> <span aria-current="page">{cart ? cart.title : 'New cart'}</span>
      </nav>
      <div className="staff-heading">
        <h1>{cart ? cart.title : 'Add a cart'}</h1>
        {cart?.status === 'draft' && <span className="staff-badge">Draft</span>}
        {cart && cart.status !== 'draft' && (
          <a className="staff-link-button" href={paths.vehicle(cart.slug)}>
            View its page on the site
          </a>
        )}
        {cart && (
          <a className="staff-link-button" href={staffPaths.duplicateCart(cart.id)}>
            Duplicate this cart
          </a>
        )}
      </div>
      {cart && cart.status !== 'draft' && <WatcherLine watchers={cart.watchers} />}
      {data.copyOf && !posted && (
        <p className="staff-alert" role="status">
          A copy of <a href={staffPaths.cart(data.copyOf.id)}>{data.copyOf.title}</a>: type this cart&rsquo;s stock number, VIN
          and serial number, and add its photos. It is saved as a draft.
        </p>
      )}
      {posted && (
        <div className="staff-alert staff-alert--error" role="alert">
          {posted.message && <p>{posted.message}</p>}
          {problems.length > 0 && (
            <>
              <p>
                Nothing was saved: {problems.length === 1 ? 'one field needs' : `${problems.length} fields need`} a change.
              </p>
              <ul>
                {problems.map(([name, message]) => (
                  <li key={name}>
                    <a href={`#field-${name}`}>{message}</a>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      <div className="staff-editor">
        <form
          className="staff-form staff-editor__form"
          method="post"
          action={action}
          data-cart-form=""
          data-unsaved-prompt=""
          data-confirm-sold={cart?.title}
          noValidate
        >
          {values.version !== undefined && <input type="hidden" name="version" value={values.version} />}
          {cartFormSections.map((section) => (
            <fieldset key={section.id} className="staff-section" id={`section-${section.id}`}>
              <legend>{section.legend}</legend>
              {section.fields?.map((field) => <FieldInput key={field.name} field={field} values={values} errors={errors} derived={derived} />)}
              {section.Component && <section.Component values={values} errors={errors} cart={cart} />}
            </fieldset>
          ))}
          <div className="staff-form__actions">
            {draft ? (
              <>
                <button className="staff-button" type="submit" name="intent" value="publish">
                  Publish
                </button>
                <button className="staff-button staff-button--quiet" type="submit" name="intent" value="draft">
                  Save draft
                </button>
              </>
            ) : (
              <button className="staff-button" type="submit">
                Save changes
              </button>
            )}
            <a className="staff-link-button" href={staffPaths.console}>
              Cancel
            </a>
          </div>
        </form>
        <aside className="staff-preview" aria-labelledby="preview-heading">
          <h2 id="preview-heading">What visitors will see</h2>
          <div id="spec-preview" aria-live="polite">
            <SpecificationsPreview values={values} />
          </div>
        </aside>
      </div>
      {cart && <CartHistory entries={data.history} />}
      {cart && context.mayOpen(staffPaths.deleteCart(cart.id)) && (
        <section className="staff-danger" aria-labelledby="delete-heading">
          <h2 id="delete-heading">Delete this cart</h2>
          <p>It leaves the site and every list for good; its history is kept.</p>
          <a className="staff-link-button staff-link-button--danger" href={staffPaths.deleteCart(cart.id)}>
            Delete {cart.title}…
          </a>
        </section>
      )}
    </>
  )
}

const fieldLabels: Record<string, string> = Object.fromEntries(
  cartFormSections.flatMap((s) => s.fields ?? []).map((f) => [f.name, f.label]),
)

function shown(field: string | null, value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)'
  if ((field === 'price' || field === 'msrp') && typeof value === 'number') return formatPrice(value)
  if (field === 'status' && typeof value === 'string' && value in statusLabels) return statusLabels[value as keyof typeof statusLabels]
  if (field === 'location' && typeof value === 'string') return showroomByKey(value)?.name ?? value
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  if (typeof value === 'string' || typeof value === 'number') return String(value)
  return 'the whole record'
}

/** The cart's audit log, newest first: who changed which field, from what to what, and when. */
function CartHistory({ entries }: { entries: CartHistoryEntry[] }) {
  return (
    <section className="staff-history" aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      {entries.length === 0 ? (
        <p className="staff-muted">No changes recorded yet.</p>
      ) : (
        <ol>
          {entries.map((entry) => (
            <li key={entry.id}>
              <time dateTime={entry.at}>{new Date(entry.at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/New_York' })}</time>{' '}
              <strong>{entry.actor}</strong>{' '}
              {entry.subject === 'photo' ? (
                <PhotoChange entry={entry} />
              ) : entry.action === 'create' ? (
                'added the cart'
              ) : entry.action === 'delete' ? (
                'deleted the cart'
              ) : (
                <>
                  changed <em>{fieldLabels[entry.field ?? ''] ?? entry.field}</em> from {shown(entry.field, entry.before)} to{' '}
                  {shown(entry.field, entry.after)}
                </>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

/** One change of the cart's photos, as a person made it (api/staff/audit.ts, `cartHistory`). */
function PhotoChange({ entry }: { entry: CartHistoryEntry }) {
  const count = entry.photos ?? 1
  const some = count === 1 ? 'a photo' : `${count} photos`
  if (entry.action === 'create') return <>added {some}</>
  if (entry.action === 'delete') return <>removed {some}</>
  if (entry.field === 'cover') return <>changed the cover photo</>
  if (entry.field === 'order') return <>reordered the photos</>
  return (
    <>
      changed a photo&rsquo;s <em>alt text</em> from {shown('alt', entry.before)} to {shown('alt', entry.after)}
    </>
  )
}

async function saveCart(context: StaffPageContext, form: Record<string, string>) {
  const values: Values = {}
  for (const section of cartFormSections) for (const field of section.fields ?? []) values[field.name] = form[field.name] ?? ''
  if (form.version) values.version = form.version
  // Which cart (the address's id; none for a new one) and the version the form was read at, by the procedure's own rule.
  const key = context.parse(savedCartKey, context.params.id === undefined ? {} : { id: context.params.id })
  if (!key.ok) return { status: key.refusal.status, posted: { values, errors: {}, message: Object.values(key.refusal.posted.errors)[0] ?? key.refusal.posted.message } }
  // Publish is a draft's save that makes it available; refused, the form stays a draft.
  const publish = form.intent === 'publish' && values.status === 'draft'
  try {
    const record = cartFormValues(values)
    const saved = await context.caller.staff.cart.save({ ...record, ...(publish ? { status: 'available' as const } : {}), ...key.value })
    const said: Saved = publish ? 'published' : saved.status === 'draft' ? 'draft' : 'saved'
    return { redirect: staffPaths.cart(saved.id), notice: savedMessages[said] }
  } catch (error) {
    return context.refused(error, values)
  }
}

/** The one form a new cart and a saved one share: read, shown and saved the same way. */
const cartForm = { load: loadCart, Page: CartFormPage, post: saveCart }

export const newCartPage = staffPage<CartPageData>({
  path: staffPaths.newCart,
  roles: { get: ['sales', 'add carts'], post: ['sales', 'add carts'] },
  title: () => 'Add a cart',
  ...cartForm,
})

export const cartPage = staffPage<CartPageData>({
  path: staffPaths.cart.pattern,
  roles: { get: ['sales', 'see a cart'], post: ['sales', 'edit carts'] },
  title: (data) => data.cart?.title ?? 'Cart',
  ...cartForm,
})

/** Deleting a cart asks first (PRODUCT.md): this page is the question, its post the answer. */
export const deleteCartPage = staffPage<CartPageData>({
  path: staffPaths.deleteCart.pattern,
  roles: { get: ['manager', 'delete carts'], post: ['manager', 'delete carts'] },
  title: (data) => `Delete ${data.cart?.title ?? 'cart'}`,
  load: loadCart,
  Page: ({ data, posted }) => (
    <>
      <h1>Delete {data.cart?.title}?</h1>
      {posted?.message && (
        <p className="staff-alert staff-alert--error" role="alert">
          {posted.message}
        </p>
      )}
      <p>The cart leaves the site, every list and the featured set at once, and cannot be brought back. Its history is kept.</p>
      <form method="post" className="staff-form__actions">
        <button className="staff-button staff-button--danger" type="submit">
          Delete for good
        </button>
        <a className="staff-link-button" href={staffPaths.cart(data.cart?.id ?? '')}>
          Keep it
        </a>
      </form>
    </>
  ),
  async post(context) {
    try {
      await context.caller.staff.cart.delete({ id: Number(context.params.id) })
      return { redirect: staffPaths.console }
    } catch (error) {
      return context.refused(error, {})
    }
  },
})

