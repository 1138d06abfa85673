import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { storageOperation } from "../src/internal/storageOperation.js"

describe("storageOperation", () => {
  it.effect("turns failures into a StorageError naming the operation", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        storageOperation("Pets.list")(Effect.fail(new SqlError({ message: "boom" })))
      )
      expect(error._tag).toBe("StorageError")
      expect(error.operation).toBe("Pets.list")
    })
  )

  it.effect("turns a SqlError defect (a ROLLBACK on a lost connection) into a StorageError", () =>
    Effect.gen(function* () {
      const lost = new SqlError({ message: "Client has encountered a connection error and is not queryable" })
      const error = yield* Effect.flip(storageOperation("Pets.create")(Effect.die(lost)))
      expect(error._tag).toBe("StorageError")
      expect(error.operation).toBe("Pets.create")
    })
  )

  it.effect("leaves any other defect a defect: a bug is not a storage outage", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(storageOperation("Pets.create")(Effect.die(new TypeError("bug"))))
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
    })
  )
})
