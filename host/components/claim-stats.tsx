import { Star } from 'lucide-react'
import { business } from '../../domain/business.ts'

type Claim = 'happyCustomers' | 'yearsExperience' | 'cartsInStock' | 'rating'

const labels: Record<Claim, string> = {
  happyCustomers: 'Happy Customers',
  yearsExperience: 'Years Experience',
  cartsInStock: 'Carts in Stock',
  rating: 'Customer Rating',
}

/** The business's claims as dark tiles (500+ Happy Customers...), on the home, about and county pages. */
export function ClaimStats({ claims = ['happyCustomers', 'yearsExperience', 'cartsInStock', 'rating'] }: { claims?: readonly Claim[] }) {
  return (
    <dl className="stats">
      {claims.map((claim) => (
        <div key={claim}>
          <dt>{labels[claim]}</dt>
          <dd>{claim === 'rating' ? <Rating /> : business.claims[claim]}</dd>
        </div>
      ))}
    </dl>
  )
}

function Rating() {
  const { rating } = business.claims
  return (
    <>
      <span aria-hidden="true" className="stars">
        {Array.from({ length: rating }, (_, i) => (
          <Star key={i} size={22} fill="currentColor" />
        ))}
      </span>
      <span className="gc-sr-only">{rating} out of 5 stars</span>
    </>
  )
}
