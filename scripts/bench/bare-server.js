// @ts-check
/**
 * The ceiling: a bare `node:http` server answering recorded responses from memory, the same
 * bytes and content type our server sent. Plain JavaScript run by Node alone, as `npm start`
 * runs ours, so its memory and start-up are a fair floor too. Started by the benchmarks as a
 * child process. Input: a JSON file of { "<path>": { "type": "...", "body": "<base64>" } } as
 * argv[2]; without one it answers 404 to everything (for timing a bare start).
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

/** @type {Record<string, { type: string, body: string }>} */
const recorded = process.argv[2] ? JSON.parse(readFileSync(process.argv[2], 'utf8')) : {}
const responses = new Map(Object.entries(recorded).map(([path, r]) => [path, { type: r.type, body: Buffer.from(r.body, 'base64') }]))

const server = createServer((req, res) => {
  const response = responses.get(req.url ?? '')
  if (!response) {
    res.writeHead(404).end()
    return
  }
  res.writeHead(200, { 'content-type': response.type, 'content-length': response.body.length })
  res.end(response.body)
})
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address()
  console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`)
})
