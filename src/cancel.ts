/**
 * What to undo when the runner cancels the job. GitHub cancels a step by
 * sending SIGINT, then SIGTERM, then killing it a few seconds later; in that
 * window the action releases its comment lock and deletes a branch it made
 * but did not finish seeding, so the next run neither waits on a dead lock
 * nor reuses an unseeded branch.
 */
import * as core from '@actions/core'

const undo = new Map<string, () => Promise<unknown>>()

/** The undo step that deletes a branch this run created but has not finished (operations, then seeding). */
export const UNSEEDED_BRANCH = 'the unseeded branch'

/** Registers `fn` under `key` (replacing an earlier one); undone newest first. */
export function onCancel(key: string, fn: () => Promise<unknown>): void {
  undo.delete(key)
  undo.set(key, fn)
}

/** Forgets the undo step `key` (its work is done for good). */
export function offCancel(key: string): void {
  undo.delete(key)
}

/** Time allowed for the undo steps after a cancel, in milliseconds (GitHub's grace before SIGKILL is about 7.5 s). */
const GRACE_MS = 5000

/** Installs the SIGINT/SIGTERM handler: runs the undo steps, newest first, for at most 5 s, then exits 1. */
export function handleCancellation(): void {
  let cancelling = false
  const handler = (signal: NodeJS.Signals): void => {
    if (cancelling) return
    cancelling = true
    core.error(`The run was cancelled (${signal}); ${undo.size ? `undoing: ${[...undo.keys()].reverse().join(', ')}.` : 'nothing to undo.'}`)
    const steps = async (): Promise<void> => {
      for (const [key, fn] of [...undo.entries()].reverse()) {
        try {
          await fn()
        } catch (err) {
          core.warning(`Could not undo ${key} after the cancel: ${(err as Error).message}`)
        }
      }
    }
    void Promise.race([steps(), new Promise((r) => setTimeout(r, GRACE_MS))]).finally(() => process.exit(1))
  }
  process.on('SIGINT', handler)
  process.on('SIGTERM', handler)
}
