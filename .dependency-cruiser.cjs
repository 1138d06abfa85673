/**
 * The architecture's dependency rules (README "Architecture"), checked on every import of the workspace
 * by `pnpm lint`. A rule's name and comment say which rule of the architecture an import breaks; each
 * wrong import breaks one rule (an import of test support from production breaks its layer's rule and
 * the test-support rule). Workspace packages resolve to their TypeScript sources (the `@petstore/source`
 * export condition), so no build is needed and a path names the package it is in.
 * `tooling/structure` proves that every rule reports what it should, and nothing else.
 */

/**
 * The feature packages, each with the features (and small pure libraries) it may import: one table,
 * `tooling/structure/features.json`, which Purity.test.ts and the size check read too.
 */
const table = require("./tooling/structure/features.json")

const featureNames = Object.keys(table.features)
/** The feature packages: pure, every rule of architecture rule 1. */
const features = featureNames.join("|")
/** The adapters: one technology each, behind a feature's port or the HTTP contract. */
const adapters =
  "http|edge|dns|acme|webhook-sender|store-pg|store-memory|store-redis|telemetry|api-key-admin-client"
/** Shared infrastructure any adapter or app may use; it knows nothing of the features. */
const infrastructure = "node-listener|thrown"

/** A name as a regular expression that matches it alone (`ipaddr.js`'s dot is a dot). */
const literally = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
/** Modules of an npm package, wherever pnpm keeps it (`node_modules/.pnpm/<id>/node_modules/<name>/`). */
const npm = (name, modules = "") => `node_modules/${literally(name)}/${modules}`
/** `effect`'s modules that do I/O, serve or call over a network, run processes, or only belong in tests. */
const effectIo = npm(
  "effect",
  "dist/((http|http-api|sql|persistence|observability|cli|cluster|rpc|workflow|workers|socket|net|process|ai|devtools|eventlog|reactivity|graphql|testing|unstable)/|(FileSystem|Path|Terminal|Stdio|PlatformError)[.]js$)"
)
/** The public modules of these feature packages; never their test support (`@petstore/domains/testing`). */
const publicModulesOf = (names) => `^packages/(${names.join("|")})/src/(?!testing/)`

/** A package's or app's own sources: what ships. */
const production = "^(packages|apps)/[^/]+/src/"
/** Test support a package publishes for other packages' tests, in its sources (`src/testing/`). */
const publishedTestSupport = "^packages/[^/]+/src/testing/"

/**
 * Architecture rule 1, one rule a feature: what it may import, from the table (effect's I/O modules are
 * feature-no-effect-io's, Node's feature-no-node's).
 */
const featureRule = (feature) => {
  const below = table.features[feature]
  const libraries = table.libraries[feature] ?? []
  const allowed =
    below.length === 0
      ? `${["effect", ...libraries].join(", ")}: no feature is below it, so never a feature package`
      : `${["effect", ...libraries].join(", ")} and the features below it (${below.join(", ")}), never their test support: never a feature beside or above it (dependencies between features run one way)`
  return {
    name: `${feature}-imports-only-the-features-below-it`,
    comment: `Architecture rule 1: ${feature} imports only ${allowed}, an adapter, the contract, jobs, an app or another library.`,
    severity: "error",
    from: { path: `^packages/${feature}/src/` },
    to: {
      pathNot: [
        `^packages/${feature}/src/`,
        ...(below.length === 0 ? [] : [publicModulesOf(below)]),
        npm("effect"),
        ...libraries.map((library) => npm(library))
      ],
      dependencyTypesNot: ["core"]
    }
  }
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // Architecture rule 1: a feature package imports only effect, small pure libraries and the
    // features below it.
    {
      name: "feature-no-node",
      comment:
        "Architecture rule 1: a feature package does no I/O: it never imports node:* or another Node built-in.",
      severity: "error",
      from: { path: `^packages/(${features})/src/` },
      to: { dependencyTypes: ["core"] }
    },
    {
      name: "feature-no-effect-io",
      comment:
        "Architecture rule 1: a feature package never imports effect's HTTP, HttpApi, SQL, persistence, observability or other I/O modules (nor FileSystem, Path, Terminal): only effect's core.",
      severity: "error",
      from: { path: `^packages/(${features})/src/` },
      to: { path: effectIo }
    },
    ...featureNames.map(featureRule),

    // Architecture rule 2: the HTTP contract is a client's as much as the server's.
    {
      name: "api-imports-only-the-contract",
      comment:
        "Architecture rule 2: packages/api imports only the feature packages and effect's core, Schema and HttpApi modules (and the HTTP client its typed client runs on), so a client built from it pulls in no server, SQL or Node code.",
      severity: "error",
      from: { path: "^packages/api/src/" },
      to: {
        pathNot: [
          "^packages/api/src/",
          publicModulesOf(featureNames),
          npm("effect", "dist/([^/]+[.]js$|encoding/|http-api/)"),
          npm(
            "effect",
            "dist/http/(HttpClient|HttpClientRequest|HttpClientResponse|HttpClientError|HttpMethod|HttpServerRequest)[.]js$"
          )
        ]
      }
    },
    {
      name: "api-names-the-server-request-as-a-type-only",
      comment:
        "Architecture rule 2: packages/api has no server code; a middleware's contract may name the server's request as a type, never use it.",
      severity: "error",
      from: { path: "^packages/api/src/" },
      to: { path: npm("effect", "dist/http/HttpServerRequest[.]js$"), dependencyTypesNot: ["type-only"] }
    },

    // Architecture rule 3: adapters import the features (and the contract for HTTP), never another adapter.
    {
      name: "adapter-not-to-adapter",
      comment:
        "Architecture rule 3: an adapter never imports another adapter; what two adapters share is a feature's (a port) or shared infrastructure's (node-listener, thrown).",
      severity: "error",
      from: { path: `^packages/(${adapters})/src/` },
      to: { path: `^packages/(${adapters})/`, pathNot: "^packages/$1/" }
    },
    {
      name: "only-http-adapters-import-the-contract",
      comment:
        "Architecture rule 3: only the HTTP adapters import packages/api: http, which serves the contract, and api-key-admin-client, which calls it.",
      severity: "error",
      from: { path: `^packages/(${adapters})/src/`, pathNot: "^packages/(http|api-key-admin-client)/" },
      to: { path: "^packages/api/" }
    },
    {
      name: "infrastructure-knows-no-feature",
      comment:
        "Shared infrastructure (node-listener, thrown) serves adapters and apps alike, so it imports no feature package, no contract, no adapter and no other infrastructure.",
      severity: "error",
      from: { path: `^packages/(${infrastructure})/src/` },
      to: { path: "^packages/", pathNot: "^packages/$1/" }
    },

    // Architecture rule 4: the loops live in packages/jobs, which both apps run.
    {
      name: "jobs-imports-only-features-and-effect",
      comment:
        "Architecture rule 4: packages/jobs holds the loops both apps run, on the features' ports: it imports only the feature packages (never their test support) and effect, never an adapter, the contract, an app, Node or another library.",
      severity: "error",
      from: { path: "^packages/jobs/src/" },
      to: { pathNot: ["^packages/jobs/src/", publicModulesOf(featureNames), npm("effect")] }
    },

    // Architecture rule 4: apps are composition; nothing is composed of them.
    {
      name: "packages-not-to-apps",
      comment:
        "Architecture rule 4: apps compose the packages, and only apps/config reads configuration; a package never imports an app.",
      severity: "error",
      from: { path: "^packages/" },
      to: { path: "^apps/" }
    },
    {
      name: "app-not-to-app",
      comment:
        "Architecture rule 4: no app imports another app; apps/config, the one place configuration is read, is the one app the others import.",
      severity: "error",
      from: { path: "^apps/([^/]+)/", pathNot: "^apps/config/" },
      to: { path: "^apps/", pathNot: ["^apps/$1/", "^apps/config/"] }
    },
    {
      name: "config-imports-no-app",
      comment:
        "Architecture rule 4: apps/config reads the configuration the apps are composed with, so it imports no other app.",
      severity: "error",
      from: { path: "^apps/config/" },
      to: { path: "^apps/", pathNot: "^apps/config/" }
    },
    {
      name: "production-not-to-test-support",
      comment:
        "What ships never imports test support (a test/ folder, tooling/, a package's published src/testing/ such as @petstore/kernel/testing): a package's or app's sources run without it.",
      severity: "error",
      from: { path: production, pathNot: publishedTestSupport },
      to: { path: ["^(packages|apps)/[^/]+/test/", "^tooling/", publishedTestSupport] }
    },

    // Every package stands on what its manifest declares, and the graph has no cycle.
    {
      name: "no-circular",
      comment: "No import cycle, within a package or between packages: a cycle makes its modules one.",
      severity: "error",
      from: {},
      to: { circular: true }
    },
    {
      name: "not-to-unresolvable",
      comment:
        "Every import resolves. pnpm links only what a manifest declares, so a package its manifest does not declare does not resolve.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true }
    },
    {
      name: "no-non-package-json",
      comment:
        "Every npm package imported is declared in the importing package's own package.json, not merely found in a parent's node_modules.",
      severity: "error",
      from: {},
      to: { dependencyTypes: ["npm-no-pkg", "npm-unknown"] }
    },
    {
      name: "production-not-to-dev-dependency",
      comment:
        "A package's or app's sources import their dependencies or peer dependencies, never a devDependency (types excepted): what ships must install what it runs.",
      severity: "error",
      from: { path: production },
      to: { dependencyTypes: ["npm-dev"], dependencyTypesNot: ["npm-peer", "type-only"] }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules/" },
    exclude: { path: "^(packages|apps|tooling)/[^/]+/(dist|node_modules|[.]turbo|[.]data)/" },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["@petstore/source", "import", "node", "default"],
      mainFields: ["module", "main", "types"]
    }
  }
}
