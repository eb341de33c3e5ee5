/**
 * `command: delete`, in both modes: the mode's driver deletes the PR's
 * database (or, for an instant database, reports when it lapses), and the
 * PR comment and job summary say so.
 */
import * as core from '@actions/core'
import type { Publication } from '../publish/publication.js'
import { publish } from '../publish/publication.js'
import { usageOutputs } from '../publish/outputs.js'
import type { ModeDriver } from './driver.js'

/**
 * Runs `command: delete` with `driver`; once published, sets the usage outputs of the deleted branch (action.yml).
 * @throws what the driver or publishing throws
 */
export async function deletePreview(pub: Publication, driver: ModeDriver): Promise<void> {
  const deleted = await driver.delete()
  if (deleted && (pub.existing || !deleted.onlyOverEarlierComment)) await publish(pub, deleted.report, deleted.record)
  // what the deleted branch used, as its last read showed it (branch mode); none when Neon gave no counter
  if (deleted?.report.usage) for (const [name, value] of Object.entries(usageOutputs(deleted.report.usage))) core.setOutput(name, value)
}
