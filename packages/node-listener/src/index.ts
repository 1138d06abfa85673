/**
 * @petstore/node-listener: the one way the service runs a Node HTTP or HTTPS listener (the API, the
 * edge, the metrics, the key administration): handlers first, the port last, typed listen errors, and
 * a graceful close; and how they read a request target's path.
 */
export * from "./ListenAddress.js"
export * from "./ListenError.js"
export * as NodeListener from "./NodeListener.js"
export * from "./RequestTarget.js"
