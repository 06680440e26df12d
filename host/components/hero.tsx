import type { ReactNode } from 'react'

/**
 * The top of a page: its one h1, a line of text, the main actions, and on wide screens a picture
 * or a panel of facts beside them (`aside`), so the right half is never left empty.
 */
export function Hero(props: {
  title: string
  subtitle?: ReactNode
  actions?: ReactNode
  image?: 'hero' | 'none'
  aside?: ReactNode
  eyebrow?: string
}) {
  const split = props.image === 'hero' || props.aside
  return (
    <section className={`hero${split ? ' hero--split' : ''}`}>
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
        {props.aside && <div className="hero__aside">{props.aside}</div>}
      </div>
    </section>
  )
}
