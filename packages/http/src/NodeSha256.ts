/**
 * The domain's SHA-256 on Node's `createHash`: synchronous, and several times cheaper per call than
 * the Web Crypto default, which every authenticated request pays once.
 */
import { createHash } from "node:crypto"
import { Sha256 } from "@petstore/domain"
import { Effect, Layer } from "effect"

export const nodeSha256 = (text: string) => Effect.sync(() => createHash("sha256").update(text).digest("hex"))

export const layer: Layer.Layer<never> = Layer.succeedContext(Sha256.context(nodeSha256))
