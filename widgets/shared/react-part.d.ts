import 'react'

declare module 'react' {
  interface HTMLAttributes<T> {
    /** Shadow parts (`::part()`), the widgets' public styling hooks (PRODUCT.md). */
    part?: string
  }
  interface SVGAttributes<T> {
    part?: string
  }
}
