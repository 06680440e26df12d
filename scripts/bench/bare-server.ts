/**
 * The ceiling: a bare `node:http` server answering recorded responses from memory, the same
 * bytes and content type our server sent. Started by the API benchmark as a child process.
 * Input: a JSON file of { "<path>": { "type": "...", "body": "<base64>" } } as argv[2].
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

const responses = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, { type: string; body: string }>).map(
    ([path, r]) => [path, { type: r.type, body: Buffer.from(r.body, 'base64') }],
  ),
)

const server = createServer((req, res) => {
  const response = responses.get(req.url ?? '')
  if (!response) {
    res.writeHead(404).end()
    return
  }
  res.writeHead(200, { 'content-type': response.type, 'content-length': response.body.length })
  res.end(response.body)
})
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`))
