/**
 * pnpm's install hook. `@scalar/api-reference` is installed for one file, its standalone browser
 * bundle (`dist/browser/standalone.js`, self-contained), which `/docs` serves; its npm dependencies
 * (Vue, its component libraries: about 340 packages, 250 MB) only serve its Vue components, which
 * nothing here imports, so they are not installed.
 */
module.exports = {
  hooks: {
    readPackage(pkg) {
      if (pkg.name === "@scalar/api-reference") {
        pkg.dependencies = {}
        pkg.peerDependencies = {}
      }
      return pkg
    }
  }
}
