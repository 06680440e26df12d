import { type BatteryKind, batteries, cartSpecifications, type CartStatus, cartStatuses, statusLabels } from '../../domain/cart-facts.ts'
import { categoryLabel, formatPrice } from '../../domain/golf-cart.ts'
import { specificationGroups } from '../../domain/specifications.ts'
import { SpecRows } from '../../widgets/vehicle-detail/spec-rows.tsx'

/** The form's values the preview reads, as typed (text), so a half-typed form still previews. */
export interface PreviewValues {
  title?: string
  make?: string
  model?: string
  seats?: string
  battery?: string
  condition?: string
  status?: string
  price?: string
}

export const previewFields = ['title', 'make', 'model', 'seats', 'battery', 'condition', 'status', 'price'] as const

/**
 * The specifications a visitor will see on the vehicle page, from the same functions the vehicle
 * page uses (domain/cart-facts.ts, domain/specifications.ts): stored seats and battery win over
 * the title's. Rendered on the server with the form, and again in the browser as staff type
 * (host/staff/entry-client.tsx).
 */
export function SpecificationsPreview({ values }: { values: PreviewValues }) {
  const title = values.title?.trim() ?? ''
  const seats = Number(values.seats)
  const battery = batteries.includes(values.battery as BatteryKind) ? (values.battery as BatteryKind) : null
  const spec = cartSpecifications({
    title,
    make: values.make?.trim() || null,
    model: values.model?.trim() || null,
    seats: Number.isInteger(seats) && seats > 0 && seats <= 12 ? seats : null,
    battery,
  })
  const status = cartStatuses.includes(values.status as CartStatus) ? (values.status as CartStatus) : 'available'
  const groups = specificationGroups(spec, { category: categoryLabel(values.condition === 'used' ? 'used' : 'new'), availability: statusLabels[status] })
  const price = Number((values.price ?? '').replace(/[$,\s]/g, ''))
  return (
    <div className="staff-preview__body">
      <p className="staff-preview__title">{title || 'Untitled cart'}</p>
      <p className="staff-preview__price">{values.price?.trim() && Number.isFinite(price) && price >= 0 ? formatPrice(price) : 'No price yet'}</p>
      {(
        [
          ['Performance', groups.performance],
          ['Dimensions', groups.dimensions],
          ['Capacity', groups.capacity],
        ] as const
      ).map(([heading, rows]) => (
        <div key={heading} className="staff-preview__group">
          <h3>{heading}</h3>
          <SpecRows rows={rows} rowClassName="staff-preview__row" />
        </div>
      ))}
    </div>
  )
}
