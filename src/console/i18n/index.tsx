import { createContext, useContext, useState, type ReactNode } from 'react'
import { common as enCommon } from './en/common'
import { common as zhCommon } from './zh/common'

export type Language = 'en' | 'zh'
export const LANGUAGES: { value: Language; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'zh', label: '中文' },
]
const KEY = 'workforce.language'

/** The chosen language, else the browser's first language we speak, else English. */
function initial(): Language {
  const stored = localStorage.getItem(KEY)
  if (stored === 'en' || stored === 'zh') return stored
  for (const tag of [...(navigator.languages ?? []), navigator.language].filter(Boolean)) {
    const primary = tag.toLowerCase().split('-')[0]
    if (primary === 'zh' || primary === 'en') return primary
  }
  return 'en'
}

let current: Language = initial()
const setDocumentLanguage = (language: Language) => (document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en')
setDocumentLanguage(current)

/** The console's language now (api.ts sends it as Accept-Language, so the API's messages match). */
export const language = (): Language => current

const Context = createContext<{ language: Language; setLanguage: (language: Language) => void }>({ language: current, setLanguage: () => {} })

export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setState] = useState<Language>(current)
  const setLanguage = (next: Language) => {
    current = next
    localStorage.setItem(KEY, next)
    setDocumentLanguage(next)
    setState(next)
  }
  return <Context.Provider value={{ language, setLanguage }}>{children}</Context.Provider>
}

export const useLanguage = () => {
  const { language, setLanguage } = useContext(Context)
  return [language, setLanguage] as const
}

/**
 * A hook giving one section's words in the console's language. Each section's words load with its
 * pages (an employee's phone never downloads the administrators' words); i18n/en.ts and zh.ts put
 * the sections together, and a test holds the two languages to the same keys.
 */
export function words<T>(byLanguage: Record<Language, T>): () => T {
  return () => byLanguage[useLanguage()[0]]
}

const useCommon = words({ en: enCommon, zh: zhCommon })

/** The words every page uses: `t.common.save`, `t.common.totalRows(12)`. */
export const useT = () => ({ common: useCommon() })
