import { Alert, AppShell, Burger, Button, Center, Group, Loader, NavLink, Stack, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { useQueryClient } from '@tanstack/react-query'
import { Suspense } from 'react'
import { Link, Route, Switch, useLocation } from 'wouter'
import { api } from '../api'
import { useT } from '../i18n'
import { PAGES, type PageEntry } from '../routes'
import { session } from '../session'
import { LanguagePicker } from './LanguagePicker'
import { PageBoundary } from './PageBoundary'
import { useMe } from './me'

const SECTIONS = ['me', 'approvals', 'admin'] as const

/** The signed-in console: header with language and sign-out, navigation by permission, the page. */
export function Shell() {
  const t = useT()
  const me = useMe()
  const [opened, { toggle, close }] = useDisclosure()
  const [location] = useLocation()
  const queryClient = useQueryClient()

  if (me.isPending)
    return (
      <Center h="100vh">
        <Loader role="status" aria-label={t.common.loading} />
      </Center>
    )
  if (me.isError)
    return (
      <Center h="100vh" p="md">
        <Alert color="red" title={t.common.failed}>
          <Stack>
            <Text>{me.error.message}</Text>
            <Group>
              <Button onClick={() => me.refetch()}>{t.common.retry}</Button>
              <Button variant="default" onClick={() => session.set(null)}>
                {t.common.signOut}
              </Button>
            </Group>
          </Stack>
        </Alert>
      </Center>
    )

  const allowed = PAGES.filter((page) => page.allowed(me.data))
  const signOut = async () => {
    await api.auth.logout.post().catch(() => {})
    session.set(null)
    queryClient.clear()
  }

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t.common.menu} />
            <Text fw={700}>{t.common.appName}</Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {/* the user menu: the caller's own account (their password), also in the navigation */}
            <Button component={Link} href="/me/account" size="xs" variant="subtle" visibleFrom="xs" maw={180} title={t.common.nav.account}>
              <Text size="sm" truncate>
                {me.data.user.name}
              </Text>
            </Button>
            <LanguagePicker />
            <Button size="xs" variant="default" onClick={signOut}>
              {t.common.signOut}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t.common.menu} style={{ overflowY: 'auto' }}>
          {SECTIONS.map((section) => {
            const pages = allowed.filter((page) => page.section === section && page.menu !== false)
            if (pages.length === 0) return null
            return (
              <div key={section}>
                <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={4}>
                  {section === 'me' ? t.common.nav.me : section === 'approvals' ? t.common.nav.approvals : t.common.nav.admin}
                </Text>
                {pages.map((page) => {
                  // a page reached from this one (a run, a month's payslip) keeps its entry marked
                  const current = location === page.path || location.startsWith(`${page.path}/`)
                  return (
                    <NavLink
                      key={page.path}
                      component={Link}
                      href={page.path}
                      label={t.common.nav[page.nav]}
                      variant="filled"
                      active={current}
                      aria-current={current ? 'page' : undefined}
                      onClick={close}
                    />
                  )
                })}
              </div>
            )
          })}
      </AppShell.Navbar>
      <AppShell.Main>
        <PageBoundary key={location} title={t.common.failed} retry={t.common.retry}>
          <Suspense
            fallback={
              <Center p="xl">
                <Loader role="status" aria-label={t.common.loading} />
              </Center>
            }
          >
            <Pages allowed={allowed} />
          </Suspense>
        </PageBoundary>
      </AppShell.Main>
    </AppShell>
  )
}

function Pages({ allowed }: { allowed: PageEntry[] }) {
  const t = useT()
  return (
    <Switch>
      {PAGES.map((page) => {
        const Page = page.component
        const open = allowed.includes(page)
        return (
          <Route key={page.path} path={page.path}>
            {open ? <Page /> : <Alert color="yellow">{t.common.forbidden}</Alert>}
          </Route>
        )
      })}
      <Route>
        <Alert color="yellow">{t.common.notFound}</Alert>
      </Route>
    </Switch>
  )
}
