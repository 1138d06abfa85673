/**
 * @petstore/node-listener: the one way the service runs a Node HTTP or HTTPS listener (the API, the
 * edge, the metrics, the key administration): handlers first, the port last, typed listen errors, and
 * a graceful close.
 */
export * from "./ListenAddress.js"
export * from "./ListenError.js"
export * as NodeListener from "./NodeListener.js"
