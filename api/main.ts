/** The API alone, without the website: `node --import tsx api/main.ts`. */
import { runServer } from './server.ts'

await runServer()
