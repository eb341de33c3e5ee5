/**
 * The figures every benchmark prints beside its timings: the median of a
 * sample and the machine's load average (a timing means little without it).
 */
import os from 'node:os'

/** The median of `xs` (the upper one of the middle two for an even count); `xs` is not changed. */
export const median = (xs: number[]): number => quantile(xs, 0.5)

/** The `q`-quantile of `xs` (0 to 1; the element at `floor(length · q)` of the sorted copy, the last for 1); `xs` is not changed. */
export const quantile = (xs: number[], q: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]

/** The 1, 5 and 15 minute load averages, as `0.52, 0.61, 0.70`. */
export const loadAverage = (): string =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')
