/**
 * @petstore/kernel/testing: support for other packages' tests, built with the package so that a
 * published copy has it too. Never imported by the packages' own sources.
 */
export { flattenIssues, type Issue, isSchemaRefusal, issuesOf, rulesOf } from "./Issues.js"
