/**
 * `npm run staff|inventory|leads|backup|restore -- …`: plain JavaScript run by Node alone, as
 * `npm start` is (scripts/start.js). It builds what is missing or out of date (the first command
 * on a fresh clone), in a child process, then runs the command's built file
 * (`dist/server/<name>.js`, from `scripts/<name>.ts`) in this process: a command starts on
 * about a third of the CPU it took through the TypeScript loader (docs/decisions/0034-built-commands.md).
 *
 * `node scripts/command.js <name> [arguments]`: the command sees its own file as argv[1] and
 * the arguments after it, as when Node runs it directly.
 */
import { fileURLToPath } from 'node:url'
import { buildIfStaleInChild, commands } from './build/builds.js'

const name = process.argv[2]
if (name === undefined || !/** @type {readonly string[]} */ (commands).includes(name)) {
  console.error(`Usage: node scripts/command.js ${commands.join('|')} [arguments]`)
  process.exit(2)
}

// The build's own lines go to stderr: a command's standard output may be data (a CSV export).
if (!buildIfStaleInChild(`npm run ${name}`, 2)) process.exit(1)

const file = new URL(`../dist/server/${name}.js`, import.meta.url)
process.argv.splice(1, 2, fileURLToPath(file))
await import(file.href)
