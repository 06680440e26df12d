import { ExternalLink, MapPin, Phone } from 'lucide-react'
import { business, formatAddress, formatHours, mapsSearchUrl, statewideServiceArea } from '../../domain/business.ts'

/** The five location cards (home and contact pages): address, phone, hours and three links. */
export function LocationCards({ showHours = false }: { showHours?: boolean }) {
  return (
    <ul className="card-grid card-grid--locations">
      {business.locations.map((location) => (
        <li key={location.id} className="location-card">
          <h3 className="location-card__name">
            <MapPin aria-hidden="true" size={20} /> {location.name}
          </h3>
          <p>{location.address ? formatAddress(location.address) : statewideServiceArea}</p>
          <p>
            <a href={`tel:${location.phone.tel}`} className="location-card__phone">
              <Phone aria-hidden="true" size={16} /> {location.phone.display}
            </a>
          </p>
          {showHours && (
            <ul className="location-card__hours">
              {business.hours.map((h) => (
                <li key={h.days}>{formatHours(h)}</li>
              ))}
            </ul>
          )}
          <ul className="location-card__links">
            <li>
              <a href={mapsSearchUrl(location)} target="_blank" rel="noopener noreferrer">
                Maps<span className="gc-sr-only"> for {location.name} (new tab)</span>
                <ExternalLink aria-hidden="true" size={14} />
              </a>
            </li>
            <li>
              <a href={location.socialUrl} target="_blank" rel="noopener noreferrer">
                Facebook<span className="gc-sr-only"> page of {location.name} (new tab)</span>
                <ExternalLink aria-hidden="true" size={14} />
              </a>
            </li>
            <li>
              <a href={location.websiteUrl} target="_blank" rel="noopener noreferrer">
                Location page<span className="gc-sr-only"> of {location.name} (new tab)</span>
                <ExternalLink aria-hidden="true" size={14} />
              </a>
            </li>
          </ul>
        </li>
      ))}
    </ul>
  )
}
