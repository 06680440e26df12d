import type { ReactNode } from 'react'
import { slugify } from '../../domain/slug.ts'

/** A page section with its h2; the heading's id comes from the title unless the section has one. */
export function Section(props: { id?: string; title: string; intro?: ReactNode; tone?: 'plain' | 'tint' | 'ink'; children: ReactNode }) {
  const headingId = `${props.id ?? slugify(props.title)}-title`
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
