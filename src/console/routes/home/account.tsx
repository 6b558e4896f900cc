import { Badge, Card, Group, PasswordInput, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { api, unwrap } from '../../api'
import { applyApiErrors } from '../../components/form-errors'
import { FormActions } from '../../components/FormActions'
import { ME_KEY, useMe } from '../../components/me'
import { notifySaved } from '../../components/notify'
import { PageTitle } from '../../components/PageTitle'
import { session } from '../../session'
import { useHomeWords } from './words'

interface Values {
  old_password: string
  new_password: string
  repeat: string
}

const EMPTY: Values = { old_password: '', new_password: '', repeat: '' }

/** The caller's own account: who they are, and a change of their password (CONTRACT §2, §23). */
/** One term of the account's description list, its value (a `dd`) as children. */
function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="sm" c="dimmed" component="dt">
        {term}
      </Text>
      {children}
    </Stack>
  )
}

export default function Account() {
  const w = useHomeWords().account
  const me = useMe().data
  const queryClient = useQueryClient()
  const [problem, setProblem] = useState<string | null>(null)
  const form = useForm<Values>({
    initialValues: EMPTY,
    validate: {
      old_password: (value) => (value ? null : w.required),
      new_password: (value, values) =>
        value.length < 8 || value.length > 128 ? w.passwordRule : value === values.old_password ? w.sameAsOld : null,
      repeat: (value, values) => (value === values.new_password ? null : w.notSame),
    },
  })
  const change = useMutation({
    mutationFn: (values: Values) => unwrap(api.auth.password.put({ old_password: values.old_password, new_password: values.new_password })),
    onSuccess: (tokens) => {
      // every other session ended; this one goes on with the pair the API returned
      session.set(tokens)
      notifySaved(w.changed)
      form.setValues(EMPTY)
      form.resetDirty()
      void queryClient.invalidateQueries({ queryKey: ME_KEY })
    },
    onError: (error) => setProblem(applyApiErrors(form, error, ['old_password', 'new_password'])),
  })

  return (
    <Stack maw={640}>
      <PageTitle>{w.title}</PageTitle>
      {me && (
        <Card withBorder padding="md">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" component="dl" m={0}>
            <Fact term={w.username}>
              <Text component="dd" m={0}>
                {me.user.username}
              </Text>
            </Fact>
            <Fact term={w.name}>
              <Text component="dd" m={0}>
                {me.user.name}
              </Text>
            </Fact>
            <Fact term={w.roles}>
              <Group gap={4} component="dd" m={0}>
                {me.roles.map((role) => (
                  <Badge key={role} variant="light" c="dark.7">
                    {role}
                  </Badge>
                ))}
              </Group>
            </Fact>
            <Fact term={w.employee}>
              <Text component="dd" m={0}>
                {me.employee ? (me.employee.employee_no ? `${me.employee.name} (${me.employee.employee_no})` : me.employee.name) : w.noEmployee}
              </Text>
            </Fact>
          </SimpleGrid>
        </Card>
      )}
      <Card withBorder padding="md" component="section" aria-labelledby="change-password-title">
        <form
          noValidate
          onSubmit={form.onSubmit((values) => {
            setProblem(null)
            change.mutate(values)
          })}
        >
          <Stack>
            <Title order={2} size="h4" id="change-password-title">
              {w.changePassword}
            </Title>
            <Text size="sm">{w.changeHelp}</Text>
            {/* the username, for the browser's password manager: it saves the new password under it */}
            <input type="text" name="username" autoComplete="username" value={me?.user.username ?? ''} readOnly hidden />
            {/* Mantine marks a password field invalid for styles only: aria-invalid tells screen readers too */}
            <PasswordInput label={w.oldPassword} withAsterisk autoComplete="current-password" aria-invalid={!!form.errors.old_password} {...form.getInputProps('old_password')} />
            <PasswordInput label={w.newPassword} withAsterisk autoComplete="new-password" description={w.passwordRule} aria-invalid={!!form.errors.new_password} {...form.getInputProps('new_password')} />
            <PasswordInput label={w.repeatPassword} withAsterisk autoComplete="new-password" aria-invalid={!!form.errors.repeat} {...form.getInputProps('repeat')} />
            <FormActions problem={problem} onCancel={() => form.setValues(EMPTY)} saving={change.isPending} submit={w.changePassword} />
          </Stack>
        </form>
      </Card>
    </Stack>
  )
}
