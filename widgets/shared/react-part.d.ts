import 'react'

declare module 'react' {
  interface HTMLAttributes<T> {
    /** Shadow parts (`::part()`), the widgets' public styling hooks (docs/CONTRACTS.md, "Theming"). */
    part?: string
  }
  interface SVGAttributes<T> {
    part?: string
  }
}
