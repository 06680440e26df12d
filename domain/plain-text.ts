/**
 * Control characters: C0 but tab, line feed and carriage return, DEL, and C1. Nobody types one,
 * PostgreSQL's text cannot hold NUL (a 500 and a database error in the log, issue #26), and the
 * rest act on a terminal or forge lines in an email. Line breaks are their own rule. No zod
 * here: the site search's plain script reads this too.
 */
export const controlCharacter = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/
/** Line feed, carriage return, and Unicode's line and paragraph separators. */
export const lineBreak = /[\n\r\u2028\u2029]/
