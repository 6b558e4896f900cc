const UNITS = ['B', 'KB', 'MB', 'GB', 'TB']

/** A byte count for people: 512 B, 1.50 KB, 100.00 MB (binary multiples). */
export function formatSize(bytes: number): string {
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(2)} ${UNITS[unit]}`
}
