import { ESLint } from 'eslint'
import tseslint from 'typescript-eslint'
import { describe, expect, it } from 'vitest'

// Loading the config (typescript-eslint, the resolver) takes seconds on a busy machine: hence the timeouts.
// The project's own eslint.config.js, on snippets that never touch the disk. Type information is
// switched off for them (a file that does not exist has no place in the TypeScript project); the
// rules tested here read imports and syntax only. So a rule that stops firing fails this test.
const eslint = new ESLint({
  cwd: new URL('../..', import.meta.url).pathname,
  overrideConfig: [{ files: ['**/*.{ts,tsx}'], ...tseslint.configs.disableTypeChecked }],
})

async function problems(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`)
}

describe('layer rules (docs/ARCHITECTURE.md, Layers)', { timeout: 60_000 }, () => {
  it('api/ never imports host/ or widgets/', async () => {
    expect(await problems('api/lint-probe.ts', "import { routes } from '../host/routes.ts'\nexport { routes }\n")).toEqual([
      expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: .*api\/ never imports host\//),
    ])
    expect(await problems('api/http/lint-probe.ts', "import type { ApiClient } from '../../widgets/shared/api.tsx'\nexport type { ApiClient }\n")).toEqual([
      expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: .*api\/ never imports host\/ or widgets\//),
    ])
  })

  it('widgets/ import only types from api/', async () => {
    expect(await problems('widgets/shared/lint-probe.ts', "import type { AppRouter } from '../../api/trpc/router.ts'\nexport type { AppRouter }\n")).toEqual([])
    expect(await problems('widgets/shared/lint-probe.ts', "import { appRouter } from '../../api/trpc/router.ts'\nexport { appRouter }\n")).toEqual([
      expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: .*widgets\/ import from api\/ only the router's type/),
    ])
  })

  it('domain/ imports no framework, only zod/mini', async () => {
    expect(await problems('domain/lint-probe.ts', "import { z } from 'zod/mini'\nexport const probe = z.string()\n")).toEqual([])
    for (const framework of ['react', 'express', 'node:fs', 'postgres', 'zod']) {
      expect(await problems('domain/lint-probe.ts', `import * as probe from '${framework}'\nexport { probe }\n`)).toEqual([
        expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: .*domain\/ imports no framework/),
      ])
    }
  })
})

describe('import cycles', { timeout: 60_000 }, () => {
  it('refuses an import that closes a circle', async () => {
    // domain/catalogue.ts imports domain/slug.ts: slug.ts importing the catalogue back closes a circle.
    expect(await problems('domain/slug.ts', "import * as catalogue from './catalogue.ts'\nexport { catalogue }\n")).toEqual([
      expect.stringMatching(/^local\/import-cycles: Import cycle: domain\/slug\.ts -> domain\/catalogue\.ts -> domain\/slug\.ts\./),
    ])
  })

  it('refuses a circle closed by a type-only import, or by a re-export', async () => {
    expect(await problems('domain/slug.ts', "import type { BodyColour } from './catalogue.ts'\nexport type { BodyColour }\n")).toEqual([
      expect.stringMatching(/^local\/import-cycles: Import cycle: domain\/slug\.ts -> domain\/catalogue\.ts -> domain\/slug\.ts\./),
    ])
    expect(await problems('domain/slug.ts', "export type { BodyColour } from './catalogue.ts'\n")).toEqual([
      expect.stringMatching(/^local\/import-cycles: Import cycle/),
    ])
  })

  it('names every module of a longer circle', async () => {
    // api/trpc/router.ts reaches domain/slug.ts through several modules (the layer rule refuses the probe too).
    const found = await problems('domain/slug.ts', "import type { AppRouter } from '../api/trpc/router.ts'\nexport type { AppRouter }\n")
    expect(found.filter((p) => p.startsWith('local/'))).toEqual([expect.stringMatching(/^local\/import-cycles: Import cycle: domain\/slug\.ts -> api\/trpc\/router\.ts -> .+ -> domain\/slug\.ts\./)])
  })

  it('lets a module import one that does not lead back', async () => {
    expect(await problems('domain/catalogue.ts', "import { slugify } from './slug.ts'\nexport const probe = slugify('a b')\n")).toEqual([])
  })
})

describe('cast rule', { timeout: 60_000 }, () => {
  it('refuses a double cast through unknown', async () => {
    expect(await problems('api/lint-probe.ts', 'export const probe = (value: string) => value as unknown as number\n')).toEqual([
      expect.stringMatching(/^no-restricted-syntax: A double cast/),
    ])
  })
})
