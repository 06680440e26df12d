import { useId } from 'react'
import type { NjMap as NjMapData } from '../../scripts/build/nj-map.ts'

export interface NjMapProps {
  /** The build-time map: `import map from 'virtual:nj-map'`. */
  map: NjMapData
  /** The county page for a county value: "cape-may" -> "/counties/cape-may". */
  countyHref: (value: string) => string
}

export const NJ_MAP_TITLE = 'Map of the 21 New Jersey counties we serve, with our showrooms'

/**
 * The home page's New Jersey map (docs/PRODUCT.md, "Home"): a self-contained SVG, one link per
 * county to its county page, and a pin per showroom. Styles live in `nj-map.css`.
 *
 * County shapes are links (keyboard users tab through all 21, each named "<Name> County golf
 * carts"); the visible labels are drawn above every shape, hidden from assistive technology and
 * let clicks through, so a label never covers a neighbour's link.
 */
export function NjMap({ map, countyHref }: NjMapProps) {
  const titleId = `${useId()}nj-map-title`
  return (
    <svg
      className="nj-map"
      viewBox={map.viewBox}
      role="group"
      aria-labelledby={titleId}
      xmlns="http://www.w3.org/2000/svg"
    >
      <title id={titleId}>{NJ_MAP_TITLE}</title>
      <g className="nj-map__counties">
        {map.counties.map((county) => (
          <a
            key={county.value}
            className="nj-map__county"
            href={countyHref(county.value)}
            aria-label={`${county.name} County golf carts`}
          >
            <title>{`${county.name} County`}</title>
            <path className="nj-map__shape" d={county.d} />
          </a>
        ))}
      </g>
      <path className="nj-map__outline" d={map.outline} aria-hidden="true" />
      <g className="nj-map__labels" aria-hidden="true">
        {map.counties.map((county) => (
          <text
            key={county.value}
            className="nj-map__label"
            x={county.labelX}
            y={county.labelY}
            fontSize={map.sizes.countyLabel}
            textAnchor="middle"
            dominantBaseline="central"
          >
            {county.name}
          </text>
        ))}
      </g>
      <g className="nj-map__pins">
        {map.pins.map((pin) => (
          <g
            key={pin.id}
            className="nj-map__pin"
            role="img"
            aria-label={`${pin.name} showroom`}
            transform={`translate(${pin.x} ${pin.y})`}
          >
            <title>{`${pin.name} showroom`}</title>
            <path className="nj-map__pin-marker" d={`M0 0C-2-4.5-7-7.5-7-${map.sizes.pinHead}a7 7 0 0 1 14 0C7-7.5 2-4.5 0 0Z`} />
            <circle className="nj-map__pin-dot" cx="0" cy={-map.sizes.pinHead} r="2.6" />
          </g>
        ))}
      </g>
      <g className="nj-map__pin-labels" aria-hidden="true">
        {map.pins.map((pin) => (
          <text
            key={pin.id}
            className="nj-map__pin-label"
            x={pin.labelX}
            y={pin.labelY}
            fontSize={map.sizes.pinLabel}
            textAnchor={pin.labelAnchor}
            dominantBaseline="central"
          >
            {pin.name}
          </text>
        ))}
      </g>
    </svg>
  )
}
