/** A round-robin HTTP proxy on loopback: what a load balancer in front of the servers does (cluster test, bench). */
import { createServer, request as httpRequest, type Server } from "node:http"

export function roundRobin(upstreams: number[]): Promise<{ server: Server; port: number }> {
  let next = 0
  const server = createServer((req, res) => {
    const port = upstreams[next++ % upstreams.length]
    const upstream = httpRequest(
      { host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    upstream.on("error", () => {
      res.writeHead(502)
      res.end()
    })
    req.pipe(upstream)
  })
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, port: (server.address() as { port: number }).port }))
  )
}
