import { readFileSync } from 'node:fs'

/**
 * A unit of `deploy/systemd/` read as systemd reads it (systemd.service(5), systemd.exec(5)), so
 * the tests know what the server process of an instance gets: its command line and environment.
 * What the shipped units use, and no more:
 * - `%i` is the instance name (`jersey-cart-co@3001.service`: `3001`), `%%` a percent sign;
 * - `Environment=` takes space-separated assignments, each optionally in double or single quotes;
 * - `EnvironmentFile=` (a leading `-`: optional) holds `KEY=VALUE` lines, `#` and `;` comments,
 *   and values optionally quoted; **variables from these files override `Environment=`**, whatever
 *   the order of the lines, and a later file overrides an earlier one;
 * - `ExecStart=` is split into words on spaces (quotes respected); `/usr/bin/env A=B cmd …`
 *   then sets A for that command, over everything above, as env(1) does.
 */
export interface UnitProcess {
  /** The program and its arguments, after `/usr/bin/env`'s assignments. */
  command: string
  args: string[]
  env: Record<string, string>
  workingDirectory?: string
}

function words(text: string): string[] {
  const out: string[] = []
  for (const match of text.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    out.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? match[3]!))
  }
  return out
}

function assignment(word: string): [string, string] | undefined {
  const at = word.indexOf('=')
  return at > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(word.slice(0, at)) ? [word.slice(0, at), word.slice(at + 1)] : undefined
}

/** An EnvironmentFile's variables. */
export function parseEnvironmentFile(text: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const pair = assignment(line)
    if (!pair) throw new Error(`Not an assignment in an environment file: ${line}`)
    const [key, value] = pair
    const quoted = value.match(/^"((?:[^"\\]|\\.)*)"$|^'([^']*)'$/)
    env[key] = quoted ? (quoted[1] !== undefined ? quoted[1].replace(/\\(.)/g, '$1') : quoted[2]!) : value.trim()
  }
  return env
}

/**
 * The process systemd starts for `unitText` (instance `instance`), reading each EnvironmentFile
 * through `readEnvironmentFile` (its path as the unit names it: the tests give the shipped file).
 */
export function unitProcess(unitText: string, instance: string, readEnvironmentFile: (path: string) => string = (path) => readFileSync(path, 'utf8')): UnitProcess {
  const fromEnvironment: Record<string, string> = {}
  const fromFiles: Record<string, string> = {}
  let execStart: string | undefined
  let workingDirectory: string | undefined
  let section = ''
  for (const raw of unitText.split('\n')) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const header = line.match(/^\[(.+)\]$/)
    if (header) {
      section = header[1]!
      continue
    }
    if (section !== 'Service') continue
    const at = line.indexOf('=')
    const key = line.slice(0, at).trim()
    const value = line
      .slice(at + 1)
      .trim()
      .replace(/%([i%])/g, (_, c: string) => (c === 'i' ? instance : '%'))
    if (key === 'Environment') {
      for (const word of words(value)) {
        const pair = assignment(word)
        if (pair) fromEnvironment[pair[0]] = pair[1]
      }
    } else if (key === 'EnvironmentFile') {
      const optional = value.startsWith('-')
      const path = optional ? value.slice(1) : value
      let text: string
      try {
        text = readEnvironmentFile(path)
      } catch (error) {
        if (optional) continue
        throw error
      }
      Object.assign(fromFiles, parseEnvironmentFile(text))
    } else if (key === 'ExecStart') {
      execStart = value
    } else if (key === 'WorkingDirectory') {
      workingDirectory = value
    }
  }
  if (!execStart) throw new Error('The unit has no ExecStart=')
  const env = { ...fromEnvironment, ...fromFiles }
  const args = words(execStart.replace(/^[-@:+!]+/, ''))
  let command = args.shift()
  if (command === '/usr/bin/env') {
    while (args.length > 0 && assignment(args[0]!)) {
      const [key, value] = assignment(args.shift()!)!
      env[key] = value
    }
    command = args.shift()
  }
  return { command: command!, args, env, workingDirectory }
}
