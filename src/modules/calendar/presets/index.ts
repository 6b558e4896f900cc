import type { CalendarPreset } from '../model'
import cn2025 from './cn-2025.json'
import cn2026 from './cn-2026.json'

/*
 * The holiday presets shipped with the release (CONTRACT §24): one file per country and year,
 * each a copy of an official notice (cited in `source`), checked by test/unit/calendar-presets.test.ts.
 * A new year's notice is a new file here and one line below.
 */

/** Every preset, by id. */
export const PRESETS: readonly CalendarPreset[] = ([cn2025, cn2026] as CalendarPreset[]).sort((a, b) => a.id.localeCompare(b.id))

export const presetById = (id: string): CalendarPreset | null => PRESETS.find((preset) => preset.id === id) ?? null
