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

/** A page section with its h2. */
export function Section(props: { id?: string; title: string; intro?: ReactNode; tone?: 'plain' | 'tint' | 'ink'; children: ReactNode }) {
  const headingId = `${props.id ?? slugOf(props.title)}-title`
  return (
    <section id={props.id} className={`section section--${props.tone ?? 'plain'}`} aria-labelledby={headingId}>
      <div className="container">
        <h2 id={headingId} className="section__title">
          {props.title}
        </h2>
        {props.intro && <p className="section__intro">{props.intro}</p>}
        {props.children}
      </div>
    </section>
  )
}

function slugOf(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
}

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
