import { NativeSelect } from '@mantine/core'
import { useQueryClient } from '@tanstack/react-query'
import { LANGUAGES, useLanguage, useT, type Language } from '../i18n'

/** Switches the console's language; answers fetched in the other language are fetched again (the API's texts follow it). */
export function LanguagePicker() {
  const t = useT()
  const [language, setLanguage] = useLanguage()
  const queryClient = useQueryClient()
  return (
    <NativeSelect
      aria-label={t.common.language}
      size="xs"
      value={language}
      data={LANGUAGES}
      onChange={(event) => {
        setLanguage(event.currentTarget.value as Language)
        void queryClient.invalidateQueries()
      }}
    />
  )
}
