// The import-cycle rule for eslint.config.js. eslint-plugin-import-x's no-cycle skips `import type`
// (and every plugin's no-cycle does the same), so two modules tied together only through a type
// passed the lint that said it refused them. A cycle through a type still ties the two modules
// together: neither can move, be tested or be bundled without the other, and turning the type
// import into a value import later makes it a cycle at run time. This rule counts every import:
// values, types, re-exports and `import()`.
//
// How: the file being linted contributes its own imports (from the text being linted, which need
// not be on disk); every other file's imports are read from disk with TypeScript's
// `preProcessFile` (no parsing, no types) once per lint run, and followed depth-first. Only
// relative imports are followed: packages cannot import our files back.
import { readFileSync, statSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import ts from 'typescript'

/** Each file's resolved relative imports, read once per lint run. @type {Map<string, string[]>} */
const importsOnDisk = new Map()

/** @param {string} from @param {string} specifier @returns {string | undefined} */
function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return undefined
  const path = resolve(dirname(from), specifier)
  return statSync(path, { throwIfNoEntry: false })?.isFile() ? path : undefined
}

/** @param {string} file @returns {string[]} */
function importsOf(file) {
  let imports = importsOnDisk.get(file)
  if (!imports) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    imports = [...new Set(importedFiles.flatMap((i) => resolveImport(file, i.fileName) ?? []))]
    importsOnDisk.set(file, imports)
  }
  return imports
}

/**
 * The route from `start` back to `target`, or undefined when there is none.
 * @param {string} start @param {string} target @returns {string[] | undefined}
 */
function routeBack(start, target) {
  const seen = new Set([start])
  const path = [start]
  /** @param {string} file @returns {boolean} */
  const walk = (file) => {
    for (const next of importsOf(file)) {
      if (next === target) return true
      if (seen.has(next)) continue
      seen.add(next)
      path.push(next)
      if (walk(next)) return true
      path.pop()
    }
    return false
  }
  return walk(start) ? path : undefined
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuse import cycles, type-only imports included.' },
    schema: [],
    messages: {
      cycle: 'Import cycle: {{route}}. Type-only imports count too: move what both need into a module of its own.',
    },
  },
  create(context) {
    const file = context.physicalFilename
    if (file === '<text>') return {}
    const root = context.cwd
    /** @param {import('eslint').Rule.Node} node @param {import('estree').Expression | null | undefined} source */
    const check = (node, source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return
      const target = resolveImport(file, source.value)
      if (!target || target === file) return
      const route = routeBack(target, file)
      if (!route) return
      const names = [file, ...route, file].map((f) => relative(root, f))
      context.report({ node, messageId: 'cycle', data: { route: names.join(' -> ') } })
    }
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    }
  },
}

export default { rules: { 'import-cycles': rule } }
