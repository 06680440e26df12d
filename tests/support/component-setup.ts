import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// `waitFor` and `findBy*` wait for what they mean; their default second, on two cores shared with
// the rest of the suite, is a bound a slow render can pass. A wait that never succeeds still fails.
configure({ asyncUtilTimeout: 10_000 })

afterEach(() => cleanup())
