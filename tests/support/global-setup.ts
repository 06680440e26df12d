import { makeTemplates } from './database-templates.ts'

/**
 * Once per run, before any test file: the template databases every test database is copied
 * from (tests/support/database-templates.ts). Several projects name this file; the first to
 * run makes the templates and the others find them.
 */
export default async function setup() {
  if (process.env.GC_TEST_TEMPLATES) return
  return makeTemplates()
}
