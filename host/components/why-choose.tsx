import { BadgeCheck, Leaf, Percent, Wrench } from 'lucide-react'
import { financingHeadline, financingOffer } from '../../domain/payment.ts'
import { InfoCard } from './info-card.tsx'

/** The four reasons, on the home page and every county page. */
export function WhyChooseCards() {
  return (
    <div className="card-grid card-grid--four">
      <InfoCard icon={<BadgeCheck aria-hidden="true" />} title="Premium Quality">
        New carts from brands like Evolution and Denago, with factory warranties.
      </InfoCard>
      <InfoCard icon={<Wrench aria-hidden="true" />} title="Expert Service">
        Certified technicians for maintenance and repair, with genuine parts.
      </InfoCard>
      <InfoCard icon={<Percent aria-hidden="true" />} title={`${financingOffer.apr}% Financing`}>
        Flexible options, including {financingHeadline}.
      </InfoCard>
      <InfoCard icon={<Leaf aria-hidden="true" />} title="Eco-Friendly">
        Quiet electric carts with zero tailpipe emissions.
      </InfoCard>
    </div>
  )
}

/** The brands as text tiles: never third-party logos (docs/PRODUCT.md). */
export function BrandTiles({ brands, monogram = false }: { brands: readonly string[]; monogram?: boolean }) {
  return (
    <ul className={`brand-tiles${monogram ? ' brand-tiles--monogram' : ''}`}>
      {brands.map((brand) => (
        <li key={brand} className="brand-tile">
          {monogram && (
            <span className="brand-tile__letter" aria-hidden="true">
              {brand[0]}
            </span>
          )}
          <span className="brand-tile__name">{brand}</span>
        </li>
      ))}
    </ul>
  )
}
