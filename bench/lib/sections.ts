/** Where a "## " section of a markdown file ends: at the next "## " heading, or the end. */
function sectionBounds(text: string, heading: string): [number, number] | null {
  const start = text.indexOf(`\n${heading}\n`)
  if (start < 0) return null
  const after = text.indexOf('\n## ', start + heading.length + 1)
  return [start + 1, after >= 0 ? after + 1 : text.length]
}

/** The section under `heading` (the heading included), or null when there is none. */
export function sectionOf(text: string, heading: string): string | null {
  const bounds = sectionBounds(text, heading)
  return bounds ? text.slice(bounds[0], bounds[1]).trimEnd() : null
}

/** `text` with the section under `heading` replaced by `section`, or put before "## Every figure" (else at the end). */
export function withSection(text: string, heading: string, section: string): string {
  const bounds = sectionBounds(text, heading)
  if (bounds) return `${text.slice(0, bounds[0])}${section.trimEnd()}\n${bounds[1] < text.length ? `\n${text.slice(bounds[1])}` : ''}`
  const before = text.indexOf('\n## Every figure\n')
  return before >= 0 ? `${text.slice(0, before + 1)}${section.trimEnd()}\n\n${text.slice(before + 1)}` : `${text.trimEnd()}\n\n${section.trimEnd()}\n`
}
