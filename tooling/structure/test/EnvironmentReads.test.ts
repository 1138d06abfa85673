import { describe, expect, it } from "vitest"
import { environmentReadsOf } from "../src/EnvironmentReads.ts"

const readsOf = (...text: ReadonlyArray<string>) =>
  environmentReadsOf(text.join("\n")).map(({ line, read }) => `${line}: ${read}`)

describe("environment reads", () => {
  it("are process.env, however process is reached", () => {
    expect(
      readsOf(
        "const port = process.env.PORT",
        'const home = process.env["HOME"]',
        'const all = process["env"]',
        "const { env } = process",
        "const shell = globalThis.process.env.SHELL"
      )
    ).toStrictEqual([
      "1: process.env",
      "2: process.env",
      "3: process.env",
      "4: process.env",
      "5: process.env"
    ])
  })

  it("are the env of node:process, imported or reached through the module", () => {
    expect(
      readsOf(
        'import { env } from "node:process"',
        'import proc from "process"',
        "const user = proc.env.USER",
        'import { env as environment } from "process"'
      )
    ).toStrictEqual(['1: env from "node:process"', "3: process.env", '4: env from "process"'])
  })

  it("are effect's Config, as a value, however it is imported", () => {
    expect(
      readsOf(
        'import { Config, Effect } from "effect"',
        'const port = Config.Port("PORT")',
        'const name = Config.schema(Schema.String, "NAME").pipe(Config.withDefault("x"))',
        'import { Config as Settings } from "effect"',
        "const both = Settings.all({ port, name })",
        'import * as C from "effect/Config"',
        'const url = C.URL("URL")'
      )
    ).toStrictEqual([
      "2: Config.Port",
      "3: Config.schema",
      "3: Config.withDefault",
      "5: Config.all",
      '6: import from "effect/Config"',
      "7: Config.URL"
    ])
  })

  it("are effect's ConfigProvider reading the process's environment or files", () => {
    expect(
      readsOf(
        'import { ConfigProvider } from "effect"',
        "const fromEnvironment = ConfigProvider.fromEnv()",
        "const fromOptions = ConfigProvider.fromEnv(options)",
        'const fromFile = ConfigProvider.fromDotEnv(".env")',
        'const fromFolder = ConfigProvider.fromDir({ rootPath: "/run/secrets" })'
      )
    ).toStrictEqual([
      "2: ConfigProvider.fromEnv() of the process's environment",
      "3: ConfigProvider.fromEnv() of the process's environment",
      "4: ConfigProvider.fromDotEnv",
      "5: ConfigProvider.fromDir"
    ])
  })

  it("are not Config's types and error, a provider of the source's values, nor words in comments or strings", () => {
    expect(
      readsOf(
        'import { Config, ConfigProvider, Layer } from "effect"',
        'import type { Config as Settings } from "effect"',
        "export const read: Config.Config<number> = undefined as never",
        "type Port = typeof Config.Port",
        "const failed = (error: unknown) => error instanceof Config.ConfigError",
        "const isOne = Config.isConfig",
        '// process.env.PORT, Config.String("PORT")',
        'const text = "process.env"',
        'const otlp = ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { OTEL_TRACES_EXPORTER: "otlp" } }))',
        'const env = { PORT: "1" }',
        "const port = env.PORT"
      )
    ).toStrictEqual([])
  })

  it("are not a Config of our own, nor effect's under another name", () => {
    expect(
      readsOf(
        'import { Schema } from "effect"',
        "const Config = { String: (name: string) => name }",
        'export const port = Config.String("PORT")'
      )
    ).toStrictEqual([])
  })
})
