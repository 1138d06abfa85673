/**
 * The architecture's dependency rules (README "Architecture"), checked on every import of the workspace
 * by `pnpm lint`. A rule's name and comment say which rule of the architecture an import breaks; each
 * wrong import breaks one rule. Workspace packages resolve to their TypeScript sources (the
 * `@petstore/source` export condition), so no build is needed and a path names the package it is in.
 * `tooling/structure` proves that every rule reports what it should, and nothing else.
 */

/** The three domain packages: every rule, no I/O. */
const domain = "kernel|catalogue|custom-domains"
/** The adapters: one technology each, behind a domain port or the HTTP contract. */
const adapters =
  "http|edge|dns|acme|webhooks|store-pg|store-memory|store-redis|telemetry|api-key-admin-client"
/** Shared infrastructure any adapter or app may use; it knows nothing of the domain. */
const infrastructure = "node-listener|thrown"

/** Modules of an npm package, wherever pnpm keeps it (`node_modules/.pnpm/<id>/node_modules/<name>/`). */
const npm = (name, modules = "") => `node_modules/${name}/${modules}`
/** `effect`'s modules that do I/O, serve or call over a network, run processes, or only belong in tests. */
const effectIo = npm(
  "effect",
  "dist/((http|http-api|sql|persistence|observability|cli|cluster|rpc|workflow|workers|socket|net|process|ai|devtools|eventlog|reactivity|graphql|testing|unstable)/|(FileSystem|Path|Terminal|Stdio|PlatformError)[.]js$)"
)
/** The kernel's public modules; never its test support (`@petstore/kernel/testing`). */
const kernel = "^packages/kernel/src/(?!testing/)"
/** What the domain and the contract may import of the feature packages. */
const features = "^packages/(catalogue|custom-domains)/src/"

/** A package's or app's own sources: what ships. */
const production = "^(packages|apps)/[^/]+/src/"

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // Architecture rule 1: the domain packages import only effect (and tldts), and the kernel.
    {
      name: "domain-no-node",
      comment:
        "Architecture rule 1: a domain package (kernel, catalogue, custom-domains) does no I/O: it never imports node:* or another Node built-in.",
      severity: "error",
      from: { path: `^packages/(${domain})/src/` },
      to: { dependencyTypes: ["core"] }
    },
    {
      name: "domain-no-effect-io",
      comment:
        "Architecture rule 1: a domain package never imports effect's HTTP, HttpApi, SQL, persistence, observability or other I/O modules (nor FileSystem, Path, Terminal): only effect's core.",
      severity: "error",
      from: { path: `^packages/(${domain})/src/` },
      to: { path: effectIo }
    },
    {
      name: "kernel-imports-only-effect",
      comment:
        "Architecture rule 1: the kernel (what both features share) imports only effect: never a feature package, an adapter, the contract or another library.",
      severity: "error",
      from: { path: "^packages/kernel/src/" },
      to: { pathNot: ["^packages/kernel/src/", npm("effect")], dependencyTypesNot: ["core"] }
    },
    {
      name: "catalogue-imports-only-effect-and-kernel",
      comment:
        "Architecture rule 1: the animal catalogue imports only effect and the kernel: never custom domains (the specification keeps the two features apart), an adapter, the contract or another library.",
      severity: "error",
      from: { path: "^packages/catalogue/src/" },
      to: { pathNot: ["^packages/catalogue/src/", kernel, npm("effect")], dependencyTypesNot: ["core"] }
    },
    {
      name: "custom-domains-imports-only-effect-tldts-ipaddr-and-kernel",
      comment:
        "Architecture rule 1: custom domains import only effect, tldts (the Public Suffix List), ipaddr.js (address ranges, for webhook URLs) and the kernel: never the animal catalogue (the specification keeps the two features apart), an adapter, the contract or another library.",
      severity: "error",
      from: { path: "^packages/custom-domains/src/" },
      to: {
        pathNot: ["^packages/custom-domains/src/", kernel, npm("effect"), npm("tldts"), npm("ipaddr.js")],
        dependencyTypesNot: ["core"]
      }
    },

    // Architecture rule 2: the HTTP contract is a client's as much as the server's.
    {
      name: "api-imports-only-the-contract",
      comment:
        "Architecture rule 2: packages/api imports only the domain packages and effect's core, Schema and HttpApi modules (and the HTTP client its typed client runs on), so a client built from it pulls in no server, SQL or Node code.",
      severity: "error",
      from: { path: "^packages/api/src/" },
      to: {
        pathNot: [
          "^packages/api/src/",
          features,
          kernel,
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

    // Architecture rule 3: adapters import the domain (and the contract for HTTP), never another adapter.
    {
      name: "adapter-not-to-adapter",
      comment:
        "Architecture rule 3: an adapter never imports another adapter; what two adapters share is the domain's (a port) or shared infrastructure's (node-listener, thrown).",
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
      name: "infrastructure-knows-no-domain",
      comment:
        "Shared infrastructure (node-listener, thrown) serves adapters and apps alike, so it imports no domain package, no contract and no adapter.",
      severity: "error",
      from: { path: `^packages/(${infrastructure})/src/` },
      to: { path: "^packages/", pathNot: "^packages/$1/" }
    },

    // Architecture rule 4: apps are composition; nothing is composed of them.
    {
      name: "packages-not-to-apps",
      comment:
        "Architecture rule 4: apps compose the packages, and only they read configuration; a package never imports an app.",
      severity: "error",
      from: { path: "^packages/" },
      to: { path: "^apps/" }
    },
    {
      name: "production-not-to-test-support",
      comment:
        "What ships never imports test support (a test/ folder, tooling/, @petstore/kernel/testing): a package's or app's sources run without it.",
      severity: "error",
      from: { path: production, pathNot: "^packages/kernel/src/testing/" },
      to: { path: ["^(packages|apps)/[^/]+/test/", "^tooling/", "^packages/kernel/src/testing/"] }
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
