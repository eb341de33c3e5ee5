/**
 * What happens when the runner cancels the job. GitHub's runner sends the
 * action SIGINT, then SIGTERM 7.5 s later, then SIGKILL 2.5 s after that
 * (actions/runner, ProcessInvoker: `_sigintTimeout` 7500 ms,
 * `_sigtermTimeout` 2500 ms). On the first of SIGINT or SIGTERM the action:
 *
 * 1. stops its main flow: an abort signal reaches every phase (service
 *    requests and the waits between them through http.ts, the wait for the
 *    comment lock, seeding, and the checkpoints before outputs and the
 *    comment), and the flow is given at most 1 s to unwind; a create request
 *    already in flight is let finish (at most 4 s after the signal), so what
 *    it made is known and undone, and no new request is sent;
 * 2. runs the undo steps, newest first, each with a deadline 7.5 s after the
 *    signal (delete a branch it made but did not finish seeding, waiting for
 *    that branch's operations first, since a DELETE meets 423 until they end);
 * 3. leaves the PR comment saying the run was cancelled (the comment lock's
 *    undo step, registered first so it runs last), and exits 1 at the latest
 *    9 s after the signal, before the SIGKILL.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import * as core from '@actions/core'

/** The main flow was cancelled by the runner; thrown out of every phase once the abort signal fires. */
export class CancelledError extends Error {
  constructor(signal: string) {
    super(`The run was cancelled (${signal}).`)
    this.name = 'CancelledError'
  }
}

/** Time budget after the cancel signal, in milliseconds since it arrived. */
export const CANCEL_BUDGET = {
  /** The main flow has this long to unwind before the undo steps run anyway. */
  stopMs: 1000,
  /** The handler waits up to this long for a request that creates something and is already in flight ({@link finishBeforeUndo}). */
  createMs: 4000,
  /** Deadline handed to each undo step. */
  undoMs: 7500,
  /** The process exits 1 at this point whatever is left (GitHub kills it at 10 s). */
  exitMs: 9000
} as const

/** Undoes what a cancelled run leaves; gets the deadline (milliseconds since the epoch) to finish by. */
export type UndoStep = (deadline: number) => Promise<unknown>

const undo = new Map<string, UndoStep>()
const flow = new AsyncLocalStorage<AbortSignal>()
const controller = new AbortController()
let mainFlow: Promise<unknown> = Promise.resolve()

/** The undo step that deletes a branch this run created but has not finished (operations, then seeding). */
export const UNSEEDED_BRANCH = 'the unseeded branch'
/** The undo step that writes the PR comment (the run was cancelled) and so releases the comment lock. */
export const COMMENT_LOCK = 'the comment lock'

/** Registers `fn` under `key` (replacing an earlier one); undone newest first. */
export function onCancel(key: string, fn: UndoStep): void {
  undo.delete(key)
  undo.set(key, fn)
}

/** Forgets the undo step `key` (its work is done for good). */
export function offCancel(key: string): void {
  undo.delete(key)
}

/**
 * The abort signal of the main flow when called from within it (see
 * {@link runMainFlow}); undefined elsewhere, for example in an undo step, whose
 * requests must still go out after the cancel.
 */
export function cancelSignal(): AbortSignal | undefined {
  return flow.getStore()
}

/** True once the runner cancelled this run. */
export function isCancelled(): boolean {
  return controller.signal.aborted
}

/** Throws CancelledError when called from a main flow that was cancelled: a checkpoint between phases. */
export function throwIfCancelled(): void {
  const signal = cancelSignal()
  if (signal?.aborted) throw signal.reason as Error
}

/**
 * Settles like `work`, or rejects with CancelledError as soon as the main flow
 * is cancelled. The work itself is not stopped (a seed transaction that is
 * never committed is rolled back when the process exits); the main flow just
 * no longer waits for it.
 */
export function unlessCancelled<T>(work: Promise<T>): Promise<T> {
  const signal = cancelSignal()
  if (!signal) return work
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error)
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

const creating = new Set<Promise<unknown>>()

/**
 * Marks `work` as a request that creates something (sent once, never
 * aborted): a cancel lets it finish, so that what it created is known and
 * its undo step registered, before the undo steps run. The handler waits for
 * it at most {@link CANCEL_BUDGET}.createMs after the signal.
 */
export function finishBeforeUndo<T>(work: Promise<T>): Promise<T> {
  creating.add(work)
  work.then(
    () => creating.delete(work),
    () => creating.delete(work)
  )
  return work
}

/** Runs the action's main flow with the cancel signal in its async context. */
export function runMainFlow(fn: () => Promise<void>): Promise<void> {
  const running = flow.run(controller.signal, fn)
  mainFlow = running
  return running
}

/** The newest undo step not in `done`, or undefined. */
function newestUndone(done: Set<UndoStep>): [string, UndoStep] | undefined {
  return [...undo.entries()].reverse().find(([, fn]) => !done.has(fn))
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))

/** Installs the SIGINT/SIGTERM handler: stop the main flow, undo newest first, exit 1 (budget: {@link CANCEL_BUDGET}). */
export function handleCancellation(): void {
  let cancelling = false
  const handler = (signal: NodeJS.Signals): void => {
    if (cancelling) return // SIGTERM after SIGINT: already undoing
    cancelling = true
    const t0 = Date.now()
    core.error(
      `The run was cancelled (${signal}); ${undo.size ? `stopping, then undoing: ${[...undo.keys()].reverse().join(', ')}.` : 'nothing to undo.'}`
    )
    controller.abort(new CancelledError(signal))
    const steps = async (): Promise<void> => {
      const stopped = mainFlow.catch(() => undefined)
      await Promise.race([stopped, sleep(CANCEL_BUDGET.stopMs)])
      if (creating.size) {
        await Promise.race([Promise.allSettled([...creating]), sleep(t0 + CANCEL_BUDGET.createMs - Date.now())])
        await Promise.race([stopped, sleep(100)]) // the flow registers the new thing's undo step, then stops
      }
      // Newest first; a step the flow registers meanwhile (a lock it had just taken) runs too.
      const done = new Set<UndoStep>()
      for (let next = newestUndone(done); next; next = newestUndone(done)) {
        const [key, fn] = next
        done.add(fn)
        try {
          await fn(t0 + CANCEL_BUDGET.undoMs)
        } catch (err) {
          core.warning(`Could not undo ${key} after the cancel: ${(err as Error).message}`)
        }
      }
      // The flow may still be finishing an undo of its own (publish/publication.ts): let it, within the budget.
      await Promise.race([stopped, sleep(t0 + CANCEL_BUDGET.undoMs - Date.now())])
    }
    void Promise.race([steps(), sleep(t0 + CANCEL_BUDGET.exitMs - Date.now())]).finally(() => process.exit(1))
  }
  process.on('SIGINT', handler)
  process.on('SIGTERM', handler)
}
