/**
 * The one terminal-safe writer (issue #11, point 5; issue #26, point 5). Every command that prints
 * stored or file data (`npm run leads`, `inventory`, `staff`, `backup`, `restore`) prints through
 * `say`, `complain` or `writeData` here, never through `console.log` with data in it, so a cart
 * title, a CSV cell, a visitor's name or a backup file cannot clear the screen, retitle the window,
 * plant a hidden link or forge a line of the report.
 */

/** C0, DEL, C1, and the invisible characters that reorder or hide text. */
const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g

/**
 * Text made safe to print on a terminal: control characters (C0, DEL, C1) and the invisible
 * characters that reorder or hide text (bidirectional overrides and isolates, zero-width spaces)
 * are shown, never obeyed. C0 characters become their Unicode "control pictures" (ESC is shown
 * as ␛, a line break as ␊), the rest `<U+202E>`. So an escape sequence cannot clear the screen,
 * recolour text or plant a hidden link, and a line break in a name cannot start a forged entry.
 * `keep` lists characters to leave alone (the CSV keeps line breaks, quoted).
 */
export function visible(text: string, keep = ''): string {
  return text.replace(unsafe, (c) => {
    if (keep.includes(c)) return c
    const code = c.codePointAt(0)!
    if (code < 0x20) return String.fromCodePoint(0x2400 + code)
    if (code === 0x7f) return '\u2421'
    return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`
  })
}

/** Lines for a terminal: each shown with `visible` (a tab kept), so one value stays one line. */
export function terminalLines(lines: readonly string[]): string {
  return lines.map((line) => `${visible(line, '\t')}\n`).join('')
}

/** Writes lines to standard output, each one line whatever it holds. */
export function say(...lines: string[]): void {
  process.stdout.write(terminalLines(lines))
}

/** Writes lines to standard error, each one line whatever it holds. */
export function complain(...lines: string[]): void {
  process.stderr.write(terminalLines(lines))
}

/**
 * A file's worth of text (a CSV export) on standard output. Redirected to a file or a pipe it is
 * written as it is, so an export imports again unchanged; on a terminal its line breaks are kept
 * (CRLF as one) and everything else `visible` shows is shown, never obeyed.
 */
export function writeData(text: string, stream: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout): void {
  stream.write(stream.isTTY ? visible(text.replace(/\r\n/g, '\n'), '\n\t') : text)
}
