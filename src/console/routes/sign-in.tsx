import { Alert, Button, Center, Group, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation } from '@tanstack/react-query'
import { useEffect } from 'react'
import { api, unwrap } from '../api'
import { LanguagePicker } from '../components/LanguagePicker'
import { useT } from '../i18n'
import { session } from '../session'

/** The sign-in page: shown for every address while nobody is signed in; the address is kept for after. */
export default function SignIn() {
  const t = useT()
  useEffect(() => {
    document.title = `${t.common.signIn.title}`
  }, [t])
  const form = useForm({
    initialValues: { username: '', password: '' },
    validate: {
      username: (value) => (value.trim() ? null : t.common.signIn.required),
      password: (value) => (value ? null : t.common.signIn.required),
    },
  })
  const signIn = useMutation({
    mutationFn: (values: { username: string; password: string }) => unwrap(api.auth.login.post({ username: values.username.trim(), password: values.password })),
    onSuccess: (tokens) => session.set(tokens),
  })

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={380}>
        <form onSubmit={form.onSubmit((values) => signIn.mutate(values))} noValidate>
          <Stack>
            <Group justify="space-between" wrap="nowrap">
              <Title order={1} size="h3">
                {t.common.signIn.title}
              </Title>
              <LanguagePicker />
            </Group>
            <TextInput label={t.common.signIn.username} autoComplete="username" autoCapitalize="none" required {...form.getInputProps('username')} />
            <PasswordInput
              label={t.common.signIn.password}
              autoComplete="current-password"
              required
              visibilityToggleButtonProps={{ 'aria-label': t.common.signIn.showPassword }}
              {...form.getInputProps('password')}
            />
            {signIn.isError && (
              <Alert color="red" role="alert">
                {signIn.error.message}
              </Alert>
            )}
            <Button type="submit" loading={signIn.isPending} fullWidth>
              {t.common.signIn.submit}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  )
}
