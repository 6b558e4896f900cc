import { Title } from '@mantine/core'
import { useEffect } from 'react'
import { useT } from '../i18n'

/** The page's one h1, and the document title that names it. */
export function PageTitle({ children }: { children: string }) {
  const t = useT()
  useEffect(() => {
    document.title = `${children} · ${t.common.appName}`
  }, [children, t])
  return (
    <Title order={1} size="h2" mb="md">
      {children}
    </Title>
  )
}
