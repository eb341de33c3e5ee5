/**
 * The figures of many runs against one project, from the platform emulator's
 * request log and operations: the busy time of the project (the union of its
 * operations' start-to-end intervals, the lower bound of any schedule, since
 * the platform runs one conflicting operation at a time, though a create's
 * branch and compute operations run together), the peak of API requests in
 * any sliding minute, the 423 and 429 answers, and the requests by kind. Used by bench/load.ts and
 * the load test.
 */

/** Milliseconds covered by the union of `[start, end]` intervals. */
export function unionMs(intervals: { start: number; end: number }[]): number {
  const sorted = [...intervals].sort((a, b) => a.start - b.start)
  let total = 0
  let from = -Infinity
  let to = -Infinity
  for (const { start, end } of sorted) {
    if (start > to) {
      if (to > from) total += to - from
      from = start
      to = end
    } else to = Math.max(to, end)
  }
  if (to > from) total += to - from
  return total
}

/** Most requests in any window of `windowMs` (default one minute), from their times in milliseconds. */
export function peakPerWindow(times: number[], windowMs = 60_000): number {
  const t = [...times].sort((a, b) => a - b)
  let peak = 0
  for (let i = 0, j = 0; j < t.length; j++) {
    while (t[j] - t[i] >= windowMs) i++
    peak = Math.max(peak, j - i + 1)
  }
  return peak
}

/** What the platform saw of a load. */
export interface LoadFigures {
  /** Launch of the first run to the end of the last one's main step, in milliseconds. */
  makespanMs: number
  /** The union of the project's operations' intervals, in milliseconds: the lower bound of the makespan. */
  busyMs: number
  /** The first operation's start to the last one's end, in milliseconds: the makespan without the runs' own start and finish. */
  spanMs: number
  /** The launch to the first operation's start, in milliseconds (0 when there is none). */
  headMs: number
  /** Requests to the platform API, all and in the busiest minute. */
  requests: number
  peakPerMinute: number
  /** Answers with HTTP 423 and 429. */
  locked: number
  rateLimited: number
  /** Requests by kind: polls of one operation, listings of the project's operations, creates (with their 423s), the rest. */
  kinds: { polls: number; listings: number; creates: number; other: number }
}

/** The kind of a request to the platform API, for {@link LoadFigures}.kinds. */
function kindOf(r: { method?: string; path?: string }): keyof LoadFigures['kinds'] {
  const path = r.path ?? ''
  if (r.method === 'GET' && /\/operations\/[^/]+$/.test(path)) return 'polls'
  if (r.method === 'GET' && /\/operations\/?$/.test(path)) return 'listings'
  if (r.method === 'POST' && /\/branches\/?$/.test(path)) return 'creates'
  return 'other'
}

/**
 * @param log the platform server's requests of this load (`at` ms, `status`)
 * @param operations the project's operations (`startedAt`, `endedAt` ms since the epoch)
 */
export function loadFigures(
  startedAt: number,
  endedAt: number,
  log: { at: number; status: number; method?: string; path?: string }[],
  operations: { startedAt: number; endedAt?: number }[]
): LoadFigures {
  return {
    makespanMs: endedAt - startedAt,
    busyMs: unionMs(operations.map((op) => ({ start: op.startedAt, end: op.endedAt ?? endedAt }))),
    spanMs: operations.length
      ? Math.max(...operations.map((op) => op.endedAt ?? endedAt)) - Math.min(...operations.map((op) => op.startedAt))
      : 0,
    headMs: operations.length ? Math.min(...operations.map((op) => op.startedAt)) - startedAt : 0,
    requests: log.length,
    peakPerMinute: peakPerWindow(log.map((r) => r.at)),
    locked: log.filter((r) => r.status === 423).length,
    rateLimited: log.filter((r) => r.status === 429).length,
    kinds: log.reduce(
      (k, r) => {
        k[kindOf(r)]++
        return k
      },
      { polls: 0, listings: 0, creates: 0, other: 0 }
    )
  }
}
