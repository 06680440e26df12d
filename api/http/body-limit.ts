/**
 * The largest request body the server reads, on every door that takes one: tRPC, the REST
 * contact post, the contact form without JavaScript and the staff console's forms. A larger one is
 * answered 413 with `bodyTooLargeMessage` (api/http/errors.ts) before anything else reads it.
 * The staff's spreadsheet import has a limit of its own (`maxImportBytes`, api/carts/inventory-csv.ts).
 */
export const maxBodyBytes = 100 * 1024

/** The limit as the 413's message and the documents say it. */
export const bodyTooLargeMessage = `The request body is larger than ${maxBodyBytes / 1024} kB`
