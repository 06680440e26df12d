import 'react'

/* eslint-disable @typescript-eslint/no-unused-vars -- declaration merging needs the same type parameter, used or not, as React's own declarations */

declare module 'react' {
  interface HTMLAttributes<T> {
    /** Shadow parts (`::part()`), the widgets' public styling hooks (docs/CONTRACTS.md, "Theming"). */
    part?: string
  }
  interface SVGAttributes<T> {
    part?: string
  }
}
