import { Alert, Button, Group } from '@mantine/core'
import { useT } from '../i18n'

interface Props {
  /** what the API refused that no field shows (applyApiErrors' answer) */
  problem: string | null
  onCancel: () => void
  saving: boolean
  /** the submit button's name: "Save" when left out */
  submit?: string
}

/** The end of a dialog's form: the API's refusal, then Cancel and the submit button. */
export function FormActions({ problem, onCancel, saving, submit }: Props) {
  const t = useT()
  return (
    <>
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t.common.cancel}
        </Button>
        <Button type="submit" loading={saving}>
          {submit ?? t.common.save}
        </Button>
      </Group>
    </>
  )
}
