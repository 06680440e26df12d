import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Our style sheets are plain CSS: every rule closed, and no rule inside a style rule (we write no
 * CSS nesting). A brace lost in a merge is valid nested CSS to the build, which then quietly
 * scopes every later rule under the unclosed one: the console's charts lost their width that way.
 * This reads each sheet as the build would and names the first rule opened inside another.
 */
const root = new URL('../..', import.meta.url).pathname

function sheets(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sheets(path)
    return entry.name.endsWith('.css') ? [path] : []
  })
}

/** Where the sheet's blocks go wrong, or an empty list. */
function cssBlockProblems(css: string): string[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' ')).replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, (s) => s.replace(/[{}]/g, ' '))
  const stack: { style: boolean; line: number; selector: string }[] = []
  const problems: string[] = []
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '{') {
      const selector = text.slice(start, i).split(/[;}]/).pop()!.trim()
      const line = text.slice(0, i).split('\n').length
      const style = !selector.startsWith('@') && !/^(from|to|\d+(\.\d+)?%)(\s*,\s*(from|to|\d+(\.\d+)?%))*$/.test(selector)
      if (stack.at(-1)?.style && style) problems.push(`line ${line}: "${selector}" opens inside "${stack.at(-1)!.selector}" (line ${stack.at(-1)!.line}), which is not closed`)
      stack.push({ style, line, selector })
      start = i + 1
    } else if (c === '}') {
      if (!stack.pop()) problems.push(`line ${text.slice(0, i).split('\n').length}: a } closes nothing`)
      start = i + 1
    } else if (c === ';') {
      start = i + 1
    }
  }
  for (const open of stack) problems.push(`line ${open.line}: "${open.selector}" is never closed`)
  return problems
}

describe('style sheets', () => {
  it('finds a rule left open by a lost brace', () => {
    expect(cssBlockProblems('.a {\n  color: red;\n\n.b { color: blue; }\n')).toEqual([
      'line 4: ".b" opens inside ".a" (line 1), which is not closed',
      'line 1: ".a" is never closed',
    ])
    expect(cssBlockProblems('@media (min-width: 1px) { .a { color: red } }\n@keyframes k { from { opacity: 0 } 50% { opacity: 1 } }\n.c::before { content: "{" }')).toEqual([])
  })

  it.each(['host', 'widgets'].flatMap((dir) => sheets(join(root, dir))).map((path) => relative(root, path)))('%s closes every rule and nests none', (path) => {
    expect(cssBlockProblems(readFileSync(join(root, path), 'utf8'))).toEqual([])
  })
})
