/**
 * `command: delete`, in both modes: the mode's driver deletes the PR's
 * database (or, for an instant database, reports when it lapses), and the
 * PR comment and job summary say so.
 */
import type { Publication } from '../publish/publication.js'
import { publish } from '../publish/publication.js'
import type { ModeDriver } from './driver.js'

/** Runs `command: delete` with `driver`. @throws what the driver or publishing throws */
export async function deletePreview(pub: Publication, driver: ModeDriver): Promise<void> {
  const deleted = await driver.delete()
  if (deleted && (pub.existing || !deleted.onlyOverEarlierComment)) await publish(pub, deleted.report, deleted.record)
}
