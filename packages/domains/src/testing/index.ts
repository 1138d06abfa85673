/**
 * @petstore/domains/testing: sample values for the tests of rules on domains (a domain added at a time,
 * its ownership token), for this package's tests and those of the packages built on it.
 */
export { addedDomain, sampleToken } from "./SampleDomains.js"
