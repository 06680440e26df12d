import { isStaffPage, type ListedStaffPage } from './page.ts'

/**
 * The console's modules under host/staff, read when the console is (Vite's `import.meta.glob`:
 * the server's build, `npm run dev` and the tests all load the console through Vite). Every
 * page a module declares with `staffPage` is found here, so adding a page is its module and its
 * procedure, nothing else (docs/ARCHITECTURE.md, "The staff console"). Left out: the browser's
 * entry (it hydrates a document), the renderer that reads this list, and the tests.
 */
const modules = import.meta.glob<Record<string, unknown>>(['./**/*.tsx', '!./**/*.test.tsx', '!./entry-client.tsx', '!./render.tsx'], {
  eager: true,
})

/**
 * Every page of the staff console: the navigation's pages in their places, then the others
 * by address (their order matters to nothing: the matcher takes a fixed address before a
 * pattern, and no two patterns match one address).
 */
export const staffPages: readonly ListedStaffPage[] = Object.values(modules)
  .flatMap((exports) => Object.values(exports).filter(isStaffPage))
  .sort((a, b) => (a.nav?.place ?? Infinity) - (b.nav?.place ?? Infinity) || a.path.localeCompare(b.path))
