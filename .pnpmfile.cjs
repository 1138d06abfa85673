/**
 * pnpm's hooks.
 *
 * Install: `@scalar/api-reference` is installed for one file, its standalone browser bundle
 * (`dist/browser/standalone.js`, self-contained), which `/docs` serves; its npm dependencies (Vue, its
 * component libraries: about 340 packages, 250 MB) only serve its Vue components, which nothing here
 * imports, so they are not installed.
 *
 * Pack: what `pnpm pack` and `pnpm publish` (which `changeset publish` runs) write into a published
 * manifest is the package's own without its devDependencies: those are the monorepo's test and build
 * tools, one of them private (`@petstore/vitest-config`), and nobody who installs the package needs
 * them. (`publishConfig.exports` drops the monorepo's `@petstore/source` condition.)
 */
module.exports = {
  hooks: {
    readPackage(pkg) {
      if (pkg.name === "@scalar/api-reference") {
        pkg.dependencies = {}
        pkg.peerDependencies = {}
      }
      return pkg
    },
    beforePacking(manifest) {
      const { devDependencies: _omitted, ...published } = manifest
      return published
    }
  }
}
