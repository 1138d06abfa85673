/**
 * How fast the API's JavaScript heap grows. By default V8 lets the heap grow by a factor it computes
 * from the collection rate (up to 4× after a full collection), which for a server that allocates
 * short-lived request objects at a steady rate means a heap, and a resident size, far above what the
 * live data needs. Growing by half at most keeps the resident size near the working set at the cost
 * of a few more (short) major collections; `pnpm bench` measures both.
 */
import { setFlagsFromString } from "node:v8"

/** The V8 flag, also read by the test that checks this Node's V8 still knows it. */
export const heapGrowthFlag = "--heap-growing-percent=50"

/** Applies `heapGrowthFlag`; run before anything large is loaded, so that every growth step uses it. */
export const limitHeapGrowth = (): void => setFlagsFromString(heapGrowthFlag)
