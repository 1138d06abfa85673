import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Result } from "effect"
import { ConnectionError, SqlError, UnknownError } from "effect/sql/SqlError"
import { storageOperation } from "../src/internal/storageOperation.js"

describe("storageOperation", () => {
  it.effect("turns failures into a StorageError naming the operation", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        storageOperation("Pets.list")(
          Effect.fail(
            new SqlError({ reason: new UnknownError({ cause: new Error("boom"), message: "boom" }) })
          )
        )
      )
      expect(error._tag).toBe("StorageError")
      expect(error.operation).toBe("Pets.list")
    })
  )

  it.effect("turns a SqlError defect (a ROLLBACK on a lost connection) into a StorageError", () =>
    Effect.gen(function* () {
      const lost = new SqlError({
        reason: new ConnectionError({
          cause: new Error("Connection closed"),
          message: "PgConnection: Connection closed"
        })
      })
      const error = yield* Effect.flip(storageOperation("Pets.create")(Effect.die(lost)))
      expect(error._tag).toBe("StorageError")
      expect(error.operation).toBe("Pets.create")
    })
  )

  it.effect("leaves any other defect a defect: a bug is not a storage outage", () =>
    Effect.gen(function* () {
      const bug = new TypeError("bug")
      const exit = yield* Effect.exit(storageOperation("Pets.create")(Effect.die(bug)))
      expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause) && !Cause.hasFails(exit.cause)).toBe(true)
      if (Exit.isFailure(exit)) expect(Cause.findDefect(exit.cause)).toEqual(Result.succeed(bug))
    })
  )
})
