/**
 * What a served project looks like until the edge serves its deployed files: a small HTML page that
 * names the project. The name is escaped: a page must never carry markup it was not written with.
 */
const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

export const placeholderPage = (projectId: string): string => {
  const name = escapeHtml(projectId)
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${name}</title></head>
<body><h1>${name}</h1><p>The documentation of ${name} is served here.</p></body>
</html>
`
}
