/**
 * The `report-file` output of `command: create` in instant mode
 * (report-file.ts): written for every run of a PR, so a fork PR's workflow
 * can upload it for the `workflow_run` job that posts the comment.
 */
import * as core from '@actions/core'
import os from 'node:os'
import type { CommentRecord } from '../comment/comment.js'
import type { Settings } from '../settings.js'
import type { Publication } from './publication.js'
import type { Report } from './report.js'
import { writeReportFile } from './report-file.js'

/** Writes the report file into `RUNNER_TEMP` (its name carries `preview-name`) and sets the `report-file` output (instant mode, with a PR). */
export async function writeRunReport(settings: Settings, pub: Publication, done: { report: Report; record: CommentRecord }): Promise<void> {
  if (settings.mode !== 'instant' || !pub.pr) return
  const file = await writeReportFile(process.env.RUNNER_TEMP || os.tmpdir(), pub.pr, done.report, done.record, settings.previewName)
  core.setOutput('report-file', file)
  if (pub.readOnly) core.info(`Wrote the report for the \`workflow_run\` job to ${file} (upload it with actions/upload-artifact).`)
}
