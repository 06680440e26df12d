import type { ReactNode } from 'react'

/** A card with an icon, a heading and a sentence or two. */
export function InfoCard(props: { icon?: ReactNode; title: string; children: ReactNode; level?: 2 | 3 | 4 }) {
  const H = `h${props.level ?? 3}` as const
  return (
    <div className="info-card">
      {props.icon && <span className="info-card__icon">{props.icon}</span>}
      <H className="info-card__title">{props.title}</H>
      <div className="info-card__text">{props.children}</div>
    </div>
  )
}
