import type { ReactNode } from 'react'

/**
 * The lucide icons an embed's first paint shows (the map pin on every card, the alert's bell),
 * written out as plain markup with lucide's own drawing and attributes. Lucide's component is a
 * forwardRef that merges its classes and builds its children from a list on each render; on 24
 * cards that is work, and for `<gc-inventory>` it was the only reason to load lucide's chunk
 * before the first paint. Icons shown later (the gallery's, the toasts') keep lucide-react.
 */
function Outline(props: { name: string; size: number; children: ReactNode }) {
  return (
    <svg
      className={`lucide lucide-${props.name}`}
      xmlns="http://www.w3.org/2000/svg"
      width={props.size}
      height={props.size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {props.children}
    </svg>
  )
}

export function MapPinMark({ size }: { size: number }) {
  return (
    <Outline name="map-pin" size={size}>
      <path d="M20 10c0 4.993-5.539 10.193-7.399 11.799a1 1 0 0 1-1.202 0C9.539 20.193 4 14.993 4 10a8 8 0 0 1 16 0" />
      <circle cx="12" cy="10" r="3" />
    </Outline>
  )
}

export function BellMark({ size }: { size: number }) {
  return (
    <Outline name="bell" size={size}>
      <path d="M10.268 21a2 2 0 0 0 3.464 0" />
      <path d="M3.262 15.326A1 1 0 0 0 4 17h16a1 1 0 0 0 .74-1.673C19.41 13.956 18 12.499 18 8A6 6 0 0 0 6 8c0 4.499-1.411 5.956-2.738 7.326" />
    </Outline>
  )
}
