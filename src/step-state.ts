/**
 * The step state's names, and how a step reads a value saved earlier in the
 * job, with nothing else loaded: the entry point (index.ts) decides from
 * them whether to load any of the action's code. Values are saved with
 * `core.saveState` (post-state.ts); the runner hands them to the post step
 * as the environment variables `STATE_<name>` (GitHub docs, "Metadata
 * syntax for GitHub Actions", `runs.post`; "Workflow commands", "Sending
 * values to the pre and post actions"), which is where `core.getState`
 * reads them too.
 */

/** State names. */
export const STATE = {
  /** Set first thing in main: the post step knows it is the post step. */
  isPost: 'isPost',
  /**
   * `{id, name}` of a branch this run holds under its unseeded name
   * (`<name>~seeding`) and has not finished seeding: created, or renamed for
   * a reset. The post step deletes it only while it has that id and name.
   */
  unseededBranch: 'unseededBranch',
  /** `{reaction}`: the id of the lock reaction on the PR this run holds (saved by comment/lock/saved.ts). */
  lockComment: 'lockComment',
  /**
   * `{id, name}` of a branch made for this job alone (a merge group's, run-source.ts): the post step
   * deletes it when the job ends, whatever the main step did.
   */
  jobBranch: 'jobBranch'
} as const

/** The value the main step saved under `name` (the last one wins), '' when none. */
export function savedState(name: (typeof STATE)[keyof typeof STATE]): string {
  return process.env[`STATE_${name}`] ?? ''
}
