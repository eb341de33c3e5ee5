/** Anonymized previews: the masked columns in the comment and summary (names and function names, never a value). */
import { describe, expect, it } from '@jest/globals'
import { renderReport } from '../../src/publish/report.js'

describe('renderReport: the masked columns', () => {
  const base = { mode: 'branch' as const, state: 'created' as const, branchName: 'preview/pr-1' }
  const anonymized = [
    { schema: 'public', table: 'users', column: 'email', masking: 'anon.fake_email' },
    { schema: 'public', table: 'we|ird', column: 'pho`ne', masking: 'value' }
  ]
  it('says how many columns were masked, lists them with the function name, links the docs', () => {
    const text = renderReport({ ...base, anonymized })
    expect(text).toContain('**anonymized: 2 columns masked**')
    expect(text).toContain('| `public.users.email` | `anon.fake_email` |')
    expect(text).toContain("| `public.we\\|ird.pho'ne` | a fixed value |")
    expect(text).toContain('https://neon.com/docs/workflows/data-anonymization')
    expect(text).toContain('| Data | anonymized: 2 columns masked (see below) |')
  })
  it('shows nothing of it on a failed seed or a branch without rules', () => {
    expect(renderReport({ ...base, state: 'seed-failed', anonymized })).not.toContain('anonymized:')
    expect(renderReport(base)).not.toContain('anonymized:')
  })
})
