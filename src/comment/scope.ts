/**
 * The preview this process's PR comments belong to (`preview-name`). A
 * module of its own, with no imports, so that reading the inputs (index.ts,
 * before any chunk loads) can set it without loading the GitHub client.
 */

/** The preview this process's comments belong to (`preview-name`); '' for the PR's one preview. */
let previewName = ''

/**
 * Scopes every comment this process reads or writes to one preview of the
 * PR (`preview-name`): comment.ts's markerOf writes the name into the marker as
 * `preview` (absent for the PR's one preview), and its recordOf sees only
 * markers of that preview. So each name has its own comment, and with it its
 * own lock, record and reuse, and runs of other names never see it.
 * Called once the inputs are read, in the main step and in the post step.
 */
export function scopeComments(name: string): void {
  previewName = name
}

/** The preview name comments are scoped to ('' for the PR's one preview). */
export function commentScope(): string {
  return previewName
}
