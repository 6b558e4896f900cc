import './styles.css'
import { createTheme, MantineProvider, type CSSVariablesResolver } from '@mantine/core'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { lazy, StrictMode, Suspense, useSyncExternalStore } from 'react'
import { createRoot } from 'react-dom/client'
import { ApiError } from './api'
import { fetchMe, ME_KEY, wasEmployee } from './components/me'
import { Toasts } from './components/notify'
import { Shell } from './components/Shell'
import { I18nProvider } from './i18n'
import { prefetchToday } from './routes/me/today'
import { session } from './session'

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // a 4xx will not change by asking again
      retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status < 500),
      refetchOnWindowFocus: true,
    },
  },
})

// signed out (here, in another tab, or by a refresh token that no longer works): forget what was fetched
session.subscribe(() => {
  if (!session.get()) queryClient.clear()
})

// a signed-in phone asks for everything today's card needs at once, before React renders
if (session.get()) {
  void queryClient.prefetchQuery({ queryKey: ME_KEY, queryFn: fetchMe })
  if (wasEmployee()) prefetchToday(queryClient)
}

// blue 8 on white is 4.5:1 and more, as text on buttons needs (WCAG AA)
const theme = createTheme({ primaryColor: 'blue', primaryShade: 8, defaultRadius: 'md' })
// secondary ("dimmed") text in gray 7: Mantine's gray 6 is 3.3:1 on white, below the 4.5:1 of WCAG AA; a field's
// error in red 8 for the same reason (red 6 is 3.3:1)
const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-8)' },
  dark: {},
})

const SignIn = lazy(() => import('./routes/sign-in'))

function Root() {
  const signedIn = useSyncExternalStore(session.subscribe, () => session.get() !== null)
  return signedIn ? (
    <Shell />
  ) : (
    <Suspense fallback={null}>
      <SignIn />
    </Suspense>
  )
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariables} forceColorScheme="light">
      <I18nProvider>
        <QueryClientProvider client={queryClient}>
          <Toasts />
          <Root />
        </QueryClientProvider>
      </I18nProvider>
    </MantineProvider>
  </StrictMode>,
)
