import * as z from 'zod/mini'
import { maxLength, plainText } from './inquiry.ts'
import { batteries, batteryLabels, type BatteryKind, cartSpecifications, cartStatuses, type CartStatus, type Condition, conditions } from './cart-facts.ts'
import { normalizeVin, vinProblem } from './vin.ts'
import { showroomKeys, showrooms } from './business.ts'

/**
 * The cart record staff keep (PRODUCT.md, "The dealer's staff"): SPEC's fields plus what a
 * dealer's listing needs. One schema serves the console's form and the server, so a field's
 * message is the same before and after the round trip. Optional facts are `null` when unknown;
 * where one is missing, SPEC section 3's derivation from the title fills it in for visitors.
 */

export const cartLimits = {
  title: 200,
  description: 5000,
  imageUrl: 500,
  make: 60,
  model: 60,
  trim: 60,
  serialNumber: 60,
  stockNumber: 30,
  color: 40,
  price: 10_000_000,
  minYear: 1950,
  maxSeats: 12,
} as const

/** Text that may be left empty: stored as `null`, so the title's derivation applies. */
function optionalText(label: string, max: number, shape?: { pattern?: RegExp; message?: string; lines?: boolean }) {
  return z.pipe(
    z.nullish(
      z.string(`${label} must be text`).check(
        z.trim(),
        maxLength(label, max),
        plainText(label, { lines: shape?.lines }),
        z.refine((v) => !shape?.pattern || v === '' || shape.pattern.test(v), shape?.message),
      ),
    ),
    z.transform((value) => value || null),
  )
}

function money(label: string) {
  return z.number(`${label} must be a number of dollars, like 12995`).check(
    z.minimum(0, `${label} cannot be negative`),
    z.maximum(cartLimits.price, `${label} must be at most $${cartLimits.price.toLocaleString('en-US')}`),
    z.refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, `${label} can have at most two decimals (cents)`),
  )
}

function optionalChoice<T extends readonly [string, ...string[]]>(values: T, message: string) {
  return z.pipe(
    z.nullish(z.union([z.enum(values), z.literal('')], message)),
    z.transform((value) => value || null),
  )
}

const flag = (label: string) => z._default(z.boolean(`${label} must be true or false`), false)

/** The latest model year a dealer can have on the lot: next year's models arrive in the summer. */
export const latestModelYear = () => new Date().getFullYear() + 1

/** A cart's id, as the staff procedures take it. */
export const cartId = z.int('id must be a whole number').check(z.minimum(1, 'id must be positive'))

/**
 * Which saved cart a save is for (none: a new one) and the version of it the form was read at,
 * so a stale copy is refused (`staff.cart.save`; the console's cart form reads its post by it).
 */
export const savedCartKey = z.object({ id: z.optional(cartId), version: z.optional(z.int('version must be a whole number')) })

export const cartRecordFields = {
  /** Left empty, built from year, make, model and trim (`listingTitle`). */
  title: optionalText('Title', cartLimits.title),
  /** Left empty, built from the cart's facts (`listingDescription`). */
  description: optionalText('Description', cartLimits.description, { lines: true }),
  price: money('Price'),
  /**
   * A drawing on this site (the page's security policy allows no other images), optional: a cart
   * without one shows its model's drawing or "photos coming" (domain/cart-pictures.ts).
   */
  imageUrl: optionalText('Drawing', cartLimits.imageUrl, {
    pattern: /^\/(?!\/)[^\s\\]*$/,
    message: 'Drawing must be a path on this site, like /images/carts/name.svg',
  }),
  condition: z.enum(conditions, 'Condition must be new or used'),
  status: z.enum(cartStatuses, 'Status must be draft, available, hold or sold'),
  featured: flag('Featured'),
  /** The showroom the cart stands at (PRODUCT.md, "cart location"): its key in the business facts. */
  location: z.enum(
    showroomKeys as [string, ...string[]],
    `Location must be one of the showrooms: ${showrooms.map((s) => `${s.id} (${s.name})`).join(', ')}`,
  ),
  year: z.pipe(
    z.nullish(
      z.int('Year must be a whole number, like 2025').check(
        z.minimum(cartLimits.minYear, `Year must be ${cartLimits.minYear} or later`),
        z.refine((v) => v <= latestModelYear(), 'Year cannot be more than a year ahead'),
      ),
    ),
    z.transform((v) => v ?? null),
  ),
  make: optionalText('Make', cartLimits.make),
  model: optionalText('Model', cartLimits.model),
  trim: optionalText('Trim', cartLimits.trim),
  vin: z.pipe(
    z.nullish(
      z.string('VIN must be text').check(
        z.overwrite(normalizeVin),
        z.refine((v) => v === '' || vinProblem(v) === undefined, {
          error: (issue) => vinProblem(String(issue.input)) ?? 'Invalid VIN',
        }),
      ),
    ),
    z.transform((v) => v || null),
  ),
  serialNumber: optionalText('Serial number', cartLimits.serialNumber),
  stockNumber: optionalText('Stock number', cartLimits.stockNumber, {
    pattern: /^[A-Za-z0-9][A-Za-z0-9._/-]*$/,
    message: 'Stock number may have letters, digits and . _ / - only',
  }),
  color: optionalText('Color', cartLimits.color),
  seats: z.pipe(
    z.nullish(
      z.int('Seats must be a whole number').check(
        z.minimum(1, 'Seats must be at least 1'),
        z.maximum(cartLimits.maxSeats, `Seats must be at most ${cartLimits.maxSeats}`),
      ),
    ),
    z.transform((v) => v ?? null),
  ),
  battery: optionalChoice(batteries, 'Battery must be lithium or lead-acid'),
  streetLegal: flag('Street legal'),
  lifted: flag('Lifted'),
  msrp: z.pipe(z.nullish(money('MSRP')), z.transform((v) => v ?? null)),
}

type Naming = { title?: unknown; year?: unknown; make?: unknown; model?: unknown; trim?: unknown }
const named = (value: unknown) => (typeof value === 'string' && value.trim() !== '') || (typeof value === 'number' && Number.isFinite(value))

/** "2026 Evolution D5 Ranger 4 Plus": the title a listing gets when staff leave it empty. */
export function listingTitle(facts: Naming): string {
  return [facts.year, facts.make, facts.model, facts.trim]
    .filter(named)
    .map((part) => String(part).trim())
    .join(' ')
    .slice(0, cartLimits.title)
}

export interface DescriptionFacts {
  title: string
  condition: Condition
  make?: string | null
  model?: string | null
  seats?: number | null
  battery?: BatteryKind | null
  color?: string | null
  streetLegal?: boolean
  lifted?: boolean
}

/**
 * The description a listing gets when staff leave it empty: plain sentences from what they typed
 * and the model's specifications (SPEC section 3), never invented claims.
 */
export function listingDescription(cart: DescriptionFacts): string {
  const spec = cartSpecifications(cart)
  const seats = spec.seats.min === spec.seats.max ? `${spec.seats.max}-seat` : `${spec.seats.min}-${spec.seats.max} seat`
  const battery = cart.battery ? batteryLabels[cart.battery] : spec.battery
  const range = spec.rangeMiles.min === spec.rangeMiles.max ? `${spec.rangeMiles.max}` : `${spec.rangeMiles.min}-${spec.rangeMiles.max}`
  const extras = [cart.color && `finished in ${cart.color}`, cart.lifted && 'lifted', cart.streetLegal && 'street legal'].filter(Boolean)
  return [
    `${cart.title}: a ${cart.condition} ${seats} electric golf cart${extras.length > 0 ? `, ${extras.join(', ')}` : ''}.`,
    `Its ${battery.toLowerCase()} battery gives about ${range} miles on a charge, with a top speed of ${spec.topSpeedMph} mph.`,
    'Call or visit the showroom to see it and take it for a drive.',
  ].join(' ')
}

/**
 * A cart as staff save it: every field of the record. Every problem is found in one pass (a
 * missing name beside the other fields' problems); then an empty title and description are
 * built from the facts typed.
 */
export const cartRecordInput = z.pipe(
  z.object(cartRecordFields).check(
    z.refine((cart: Naming) => named(cart.title) || named(cart.make) || named(cart.model), {
      path: ['title'],
      message: 'Title is required: type one, or the make and model to build it from',
      when: () => true,
    }),
  ),
  z.transform((cart) => {
    const title = cart.title ?? listingTitle(cart)
    return { ...cart, title, description: cart.description ?? listingDescription({ ...cart, title }) }
  }),
)
export type CartRecordInput = z.input<typeof cartRecordInput>
export type CartRecord = z.output<typeof cartRecordInput>
export type CartRecordField = keyof CartRecord

/**
 * A posted HTML form (every value text, a checkbox present only when ticked) as the schema's
 * input: empty fields are `null`, numbers are numbers (`NaN` when not one, so the schema names
 * the field), checkboxes are booleans.
 */
export function cartFormValues(form: Readonly<Record<string, string | undefined>>): CartRecordInput {
  const text = (name: CartRecordField) => form[name]?.trim() || null
  const number = (name: CartRecordField) => {
    const value = text(name)?.replace(/[$,\s]/g, '')
    if (!value) return null
    return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN
  }
  const checked = (name: CartRecordField) => form[name] !== undefined && form[name] !== '' && form[name] !== 'false'
  return {
    title: text('title'),
    description: text('description'),
    price: number('price') ?? Number.NaN,
    imageUrl: text('imageUrl'),
    condition: (text('condition') ?? '') as Condition,
    status: (text('status') ?? '') as CartStatus,
    featured: checked('featured'),
    location: text('location') ?? '',
    year: number('year'),
    make: text('make'),
    model: text('model'),
    trim: text('trim'),
    vin: text('vin'),
    serialNumber: text('serialNumber'),
    stockNumber: text('stockNumber'),
    color: text('color'),
    seats: number('seats'),
    battery: text('battery') as BatteryKind | null,
    streetLegal: checked('streetLegal'),
    lifted: checked('lifted'),
    msrp: number('msrp'),
  }
}

