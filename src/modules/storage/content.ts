/**
 * `Content-Disposition: attachment` for any file name: an ASCII fallback with nothing
 * that could end the header or the quoted string, and the exact name in RFC 5987 form.
 */
export function contentDisposition(name: string): string {
  // accents are dropped rather than replaced where a letter has them (é → e)
  const fallback =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\x20-\x7e]|["\\%;]/g, '_') || 'download'
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`
}
