import type { ReactNode } from 'react'

/** The top of a page: its one h1, a line of text, the main actions, and an optional picture. */
export function Hero(props: { title: string; subtitle?: ReactNode; actions?: ReactNode; image?: 'hero' | 'none'; eyebrow?: string }) {
  return (
    <section className={`hero${props.image === 'hero' ? ' hero--picture' : ''}`}>
      <div className="container hero__inner">
        <div className="hero__text">
          {props.eyebrow && <p className="hero__eyebrow">{props.eyebrow}</p>}
          <h1 className="hero__title">{props.title}</h1>
          {props.subtitle && <p className="hero__subtitle">{props.subtitle}</p>}
          {props.actions && <div className="gc-actions hero__actions">{props.actions}</div>}
        </div>
        {props.image === 'hero' && (
          <img
            className="hero__image"
            src="/images/hero.svg"
            alt=""
            width={1600}
            height={900}
            fetchPriority="high"
          />
        )}
      </div>
    </section>
  )
}
